"""Loading a card database folder: files, schema, cross-file checks, and a content-keyed cache."""

from __future__ import annotations

import difflib
import hashlib
import json
import os
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from varz_deck import __version__
from varz_deck.cards import (
    BUILTIN_FORMATS,
    GAME_FIELDS,
    GENERIC,
    SKILL_CLASSES,
    Card,
    CardDatabase,
    Format,
)
from varz_deck.diagnostics import Diagnostic, Mark, diag, quoted
from varz_deck.schemas import resource_dir, schema_diagnostics, schema_text
from varz_deck.source import CARD_FILE_LIMIT, LoadError, decode, read_bytes
from varz_deck.strictyaml import CARD_NODE_CAP, Document, load

FORMATS_FILE = "formats.yaml"
_KEYWORD = re.compile(
    r"(overstrike|menace|lethal|vigilance|haste|flash|leap|veil|barrier|flying|stealth|taunt"
    r"|(atk|block|armor|curse)\+[0-9]+|(move|teleport)[0-9]+)"
)
_KEYWORD_WORDS = (
    "overstrike", "menace", "lethal", "vigilance", "atk+N", "block+N", "armor+N", "curse+N", "haste",
    "flash", "moveN", "leap", "teleportN", "veil", "barrier", "flying", "stealth", "taunt",
)  # fmt: skip


class DatabaseError(Exception):
    """The card database cannot be used: its diagnostics say why."""

    def __init__(self, root: Path, diagnostics: list[Diagnostic]) -> None:
        super().__init__(f"card database {root} has {len(diagnostics)} problem(s)")
        self.root = root
        self.diagnostics = diagnostics


@dataclass
class LintResult:
    """Everything `cards lint` reports: each file's diagnostics, plus the database if usable."""

    root: Path
    files: dict[str, list[Diagnostic]] = field(default_factory=dict)
    database: CardDatabase | None = None

    @property
    def diagnostics(self) -> list[Diagnostic]:
        return [d for diags in self.files.values() for d in diags]

    @property
    def errors(self) -> list[Diagnostic]:
        return [d for d in self.diagnostics if d.is_error]


def bundled_root() -> Path:
    return resource_dir("card_data")


def resolve_root(cards: Path | None) -> Path:
    """--cards, else VARZ_DECK_CARDS, else the bundled database (SPEC §3)."""
    if cards is not None:
        return cards
    env = os.environ.get("VARZ_DECK_CARDS")
    return Path(env) if env else bundled_root()


def _yaml_files(root: Path) -> list[Path]:
    found = []
    for path in root.rglob("*"):
        rel = path.relative_to(root)
        if any(part.startswith(".") for part in rel.parts):
            continue
        if path.suffix in (".yaml", ".yml") and path.is_file():
            found.append(path)
    return sorted(found, key=lambda p: p.relative_to(root).as_posix())


def _display(root: Path, path: Path) -> str:
    try:
        return str(path.relative_to(Path.cwd()))
    except ValueError:
        return str(path)


# --------------------------------------------------------------------------- cache


def _cache_dir() -> Path | None:
    if os.environ.get("VARZ_DECK_NO_CACHE"):
        return None
    base = os.environ.get("VARZ_DECK_CACHE") or os.environ.get("XDG_CACHE_HOME")
    root = Path(base) if base else Path.home() / ".cache"
    return root / "varz-deck" if not os.environ.get("VARZ_DECK_CACHE") else root


def _cache_key(root: Path, files: list[tuple[Path, bytes]]) -> str:
    digest = hashlib.sha256(__version__.encode())
    digest.update(schema_text("card").encode())
    digest.update(schema_text("formats").encode())
    for path, data in files:
        rel = path.relative_to(root).as_posix().encode()
        digest.update(len(rel).to_bytes(8, "big") + rel)
        digest.update(len(data).to_bytes(8, "big") + data)
    return digest.hexdigest()[:40]


def _cache_read(key: str) -> CardDatabase | None:
    folder = _cache_dir()
    if folder is None:
        return None
    try:
        payload = json.loads((folder / f"db-{key}.json").read_text(encoding="utf-8"))
        cards = [Card.from_json(c) for c in payload["cards"]]
        formats = {k: Format.from_json(v) for k, v in payload["formats"].items()}
        return CardDatabase(cards, formats)
    except (OSError, ValueError, KeyError, TypeError):
        return None


def _cache_write(key: str, database: CardDatabase) -> None:
    folder = _cache_dir()
    if folder is None:
        return
    payload = {
        "version": __version__,
        "cards": [c.to_json() for c in database.cards.values()],
        "formats": {k: f.to_json() for k, f in database.formats.items()},
    }
    try:
        folder.mkdir(parents=True, exist_ok=True)
        tmp = folder / f".db-{key}.{os.getpid()}.tmp"
        tmp.write_text(json.dumps(payload, ensure_ascii=False), encoding="utf-8")
        os.replace(tmp, folder / f"db-{key}.json")
    except OSError:
        pass


# --------------------------------------------------------------------------- loading


def open_database(root: Path) -> CardDatabase:
    """A valid database, from the cache when its files are unchanged; DatabaseError if invalid."""
    if not root.is_dir():
        raise DatabaseError(root, [diag("F001", f"card database {quoted(root)} is not a folder")])
    files = []
    for path in _yaml_files(root):
        try:
            files.append((path, read_bytes(path, CARD_FILE_LIMIT)))
        except LoadError:
            files.append((path, b""))  # the full lint below reports it
    key = _cache_key(root, files)
    cached = _cache_read(key)
    if cached is not None:
        return cached
    result = lint_database(root)
    if result.errors or result.database is None:
        raise DatabaseError(root, result.errors)
    _cache_write(key, result.database)
    return result.database


def lint_database(root: Path) -> LintResult:
    """Load every file of a database and check it whole: F001–F003, C001–C005."""
    result = LintResult(root)
    if not root.is_dir():
        result.files[str(root)] = [diag("F001", f"card database {quoted(root)} is not a folder")]
        return result
    cards: list[Card] = []
    formats_doc: tuple[str, Document] | None = None
    for path in _yaml_files(root):
        shown = _display(root, path)
        problems: list[Diagnostic] = []
        result.files[shown] = problems
        try:
            doc = load(
                decode(read_bytes(path, CARD_FILE_LIMIT)), aliases=True, node_cap=CARD_NODE_CAP
            )
        except LoadError as err:
            problems.append(diag(err.code, err.message, err.mark, file=shown))
            continue
        problems.extend(_duplicate_keys(doc, shown))
        is_formats = path.parent == root and path.name == FORMATS_FILE
        if is_formats:
            problems.extend(
                schema_diagnostics(
                    "formats", doc.data, doc, "C001", file=shown, what="formats.yaml"
                )
            )
            formats_doc = (shown, doc)
            continue
        if not (isinstance(doc.data, dict) and "cards" in doc.data):
            del result.files[shown]  # not a card file: ignored (SPEC §1)
            continue
        schema_problems = list(
            schema_diagnostics("card", doc.data, doc, "C001", file=shown, what="a card file")
        )
        problems.extend(schema_problems)
        cards.extend(
            _cards_of(doc, shown, problems, bad={_card_index(d, doc) for d in schema_problems})
        )
    by_file = result.files
    for problem in _cross_checks(cards):
        by_file.setdefault(problem.file or str(root), []).append(problem)
    formats = dict(BUILTIN_FORMATS)
    database = CardDatabase(cards, formats)
    if formats_doc is not None:
        shown, doc = formats_doc
        parsed, problems = _formats(doc, shown, database)
        by_file[shown].extend(problems)
        if parsed is not None:
            database.formats = parsed
    for diags in by_file.values():
        diags.sort(key=Diagnostic.sort_key)
    result.database = database
    return result


def _duplicate_keys(doc: Document, shown: str) -> Iterator[Diagnostic]:
    for dup in doc.duplicates:
        yield diag(
            "F003",
            f"key {quoted(dup.key)} is given twice (first at line {dup.first.line}); keep one",
            dup.second,
            file=shown,
        )


def _card_index(problem: Diagnostic, doc: Document) -> int | None:
    """Which card of a file a schema problem belongs to (by its place)."""
    cards = doc.data.get("cards") if isinstance(doc.data, dict) else None
    if not isinstance(cards, list) or problem.line is None:
        return None
    found = None
    for i in range(len(cards)):
        mark = doc.marks.get(("cards", i))
        if mark is not None and (mark.line, mark.column) <= (problem.line, problem.column or 0):
            found = i
    return found


def _cards_of(
    doc: Document, shown: str, problems: list[Diagnostic], bad: set[int | None]
) -> Iterator[Card]:
    data = doc.data
    entries = data.get("cards")
    if not isinstance(entries, list):
        return
    set_block = data.get("set")
    set_code = set_block.get("code") if isinstance(set_block, dict) else None
    for i, raw in enumerate(entries):
        if i in bad or not isinstance(raw, dict):
            continue
        mark = doc.mark(("cards", i)) or Mark(1, 1)
        card_id = raw["id"]
        values: dict[str, Any] = {
            "id": card_id,
            "name": raw["name"],
            "type": raw["type"],
            "set": set_code if isinstance(set_code, str) else card_id.split("-", 1)[0],
            "file": shown,
            "line": mark.line,
            "names": dict(raw.get("names") or {}),
        }
        for name in (*GAME_FIELDS, "flavor", "rarity"):
            if name in raw and name != "type":
                value = raw[name]
                values[name] = tuple(value) if isinstance(value, list) else value
        if isinstance(values.get("v_sync"), dict):
            values["v_sync"] = dict(values["v_sync"])
        card = Card(**values)
        problems.extend(_vocabulary(card, doc, i, shown))
        yield card


def _vocabulary(card: Card, doc: Document, index: int, shown: str) -> Iterator[Diagnostic]:
    """C004: skill classes and keywords outside the rulebook's lists."""
    checks: list[tuple[str, tuple[str, ...], tuple[str, ...]]] = [
        ("skill_classes", card.skill_classes, SKILL_CLASSES),
        ("classes", card.classes, SKILL_CLASSES),
    ]
    if card.skill_class is not None:
        checks.append(("skill_class", (card.skill_class,), (*SKILL_CLASSES, GENERIC)))
    for field_name, values, known in checks:
        for j, value in enumerate(values):
            if value not in known:
                path = ("cards", index, field_name) + ((j,) if field_name != "skill_class" else ())
                close = difflib.get_close_matches(value, known, n=1)
                hint = (
                    f"; did you mean {quoted(close[0])}?"
                    if close
                    else f"; known: {', '.join(known)}"
                )
                yield diag(
                    "C004",
                    f"unknown skill class {quoted(value)}{hint}",
                    doc.mark(path),
                    file=shown,
                    card=card.id,
                )
    for j, keyword in enumerate(card.keywords):
        if not _KEYWORD.fullmatch(keyword):
            stem = re.sub(r"[0-9]+$", "N", keyword.lower())
            close = difflib.get_close_matches(stem, _KEYWORD_WORDS, n=1, cutoff=0.6)
            hint = (
                f"; did you mean {quoted(close[0])}?"
                if close
                else " (rulebook ch. 9 lists the keywords)"
            )
            yield diag(
                "C004",
                f"unknown keyword {quoted(keyword)}{hint}",
                doc.mark(("cards", index, "keywords", j)),
                file=shown,
                card=card.id,
            )


def _cross_checks(cards: list[Card]) -> Iterator[Diagnostic]:
    """C002 duplicate ids and C003 printings that disagree, across the whole database."""
    first_by_id: dict[str, Card] = {}
    for card in cards:
        seen = first_by_id.get(card.id)
        if seen is None:
            first_by_id[card.id] = card
            continue
        yield diag(
            "C002",
            f"id {quoted(card.id)} is used twice (also {seen.file}:{seen.line}); ids must be unique",
            Mark(card.line, 1),
            file=card.file,
            card=card.id,
        )
    first_by_name: dict[str, Card] = {}
    for card in first_by_id.values():
        base = first_by_name.setdefault(card.name, card)
        if base is card:
            continue
        differ = [f for f in GAME_FIELDS if getattr(base, f) != getattr(card, f)]
        if differ:
            yield diag(
                "C003",
                f"{card.id} and {base.id} ({base.file}:{base.line}) are printings of "
                f"{quoted(card.name)} but differ in {', '.join(differ)}; make them the same or rename one",
                Mark(card.line, 1),
                file=card.file,
                card=card.id,
            )


def _formats(
    doc: Document, shown: str, database: CardDatabase
) -> tuple[dict[str, Format] | None, list[Diagnostic]]:
    """Formats from formats.yaml, and C005 for names of cards or sets that do not exist."""
    problems: list[Diagnostic] = []
    data = doc.data
    if not isinstance(data, dict) or not isinstance(data.get("formats"), dict):
        return None, problems
    known_sets = {card.set for card in database.cards.values()}
    out: dict[str, Format] = {}
    for key, spec in data["formats"].items():
        if not isinstance(spec, dict):
            return None, problems
        base = ("formats", key)
        for j, code in enumerate(spec.get("sets") or []):
            if isinstance(code, str) and code not in known_sets:
                problems.append(
                    diag(
                        "C005",
                        f"format {quoted(key)} names set {quoted(code)}, which no card file has",
                        doc.mark((*base, "sets", j)),
                        file=shown,
                    )
                )
        for j, card_id in enumerate(spec.get("banned") or []):
            if isinstance(card_id, str) and card_id not in database.cards:
                problems.append(
                    _unknown_card(doc, shown, key, card_id, (*base, "banned", j), database)
                )
        for card_id in spec.get("restricted") or {}:
            if card_id not in database.cards:
                problems.append(
                    _unknown_card(
                        doc,
                        shown,
                        key,
                        card_id,
                        (*base, "restricted", card_id),
                        database,
                        key_place=True,
                    )
                )
        try:
            out[key] = Format(
                key=key,
                name=str(spec.get("name", key)),
                max_effect_portals=spec.get("max_effect_portals"),
                sets=tuple(spec["sets"]) if isinstance(spec.get("sets"), list) else None,
                banned=tuple(spec.get("banned") or ()),
                restricted=dict(spec.get("restricted") or {}),
                portals=str(spec.get("portals", "constructed")),
            )
        except TypeError:
            return None, problems
    return out, problems


def _unknown_card(
    doc: Document,
    shown: str,
    fmt: str,
    card_id: str,
    path: tuple[Any, ...],
    database: CardDatabase,
    key_place: bool = False,
) -> Diagnostic:
    close = difflib.get_close_matches(card_id, list(database.cards), n=1)
    hint = f"; did you mean {quoted(close[0])}?" if close else ""
    mark = doc.key_mark(path) if key_place else doc.mark(path)
    return diag(
        "C005",
        f"format {quoted(fmt)} names card {quoted(card_id)}, which does not exist{hint}",
        mark,
        file=shown,
        card=card_id,
    )
