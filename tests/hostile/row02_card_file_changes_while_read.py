"""Row 2: a card file that changes while `check` loads the database.

The edit renames Ember Imp (VZ01-…, in card_data/varz/sets/vz01.yaml); `edited(data)` is the file's
bytes after it. The test makes the second read of the file (if there is one) return the edited
bytes: a loader that hashes one read and lints another caches the edited database under the
original content's key, and a later run on the original file gets the wrong cards.
"""

from __future__ import annotations

FILE = "vz01.yaml"
BEFORE = b"name: Ember Imp\n"
AFTER = b"name: Ember Impish\n"


def edited(data: bytes) -> bytes:
    assert data.count(BEFORE) == 1
    return data.replace(BEFORE, AFTER)
