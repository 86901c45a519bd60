"""`varz-deck sim` for Tidewright: the game has no simulator, so the command refuses it as a
usage error (exit 2) that names the game (SPEC §8)."""

from __future__ import annotations

from varz_deck.core.cards import CardDatabase
from varz_deck.core.game import SimOutcome, SimRequest
from varz_deck.core.i18n import msg

from tidewright.tune import GAME_NAME, CapabilityMissing

NO_SIMULATOR = msg("sim", "{game} has no simulator; check the deck with `varz-deck check`")


class TideGoldfish:
    """No goldfish: every request is refused."""

    options: frozenset[str] = frozenset()

    def simulate(self, request: SimRequest, database: CardDatabase) -> SimOutcome:
        raise CapabilityMissing(NO_SIMULATOR(game=GAME_NAME))


GOLDFISH = TideGoldfish()
