"""Where varz-deck still names the bundled games or assumes their words (issue 25): each strict
xfail in these tests names the leaks that make it fail. Remove a leak from the list, and the
tests it marks pass (strict: they then fail until the mark goes too)."""

ENTRY_POINTS = (
    "varz_deck/games/__init__.py:30 GAME_MODULES: the registry is a fixed dict and the "
    "`varz_deck.games` entry points are never read, so the installed game is unknown "
    "(`--game tidewright`, a Tidewright database, deck detection)"
)
SCHEMAS = (
    "varz_deck/core/resources.py:11 SCHEMA_NAMES/_FILES: every schema must ship inside varz-deck; "
    "the game's card_schema/deck_schema names (tidewright-card, tidewright-deck) raise KeyError "
    "in cards lint, the database cache key (core/database.py:238) and every YAML deck"
)
FORMATS_GAME = (
    "schemas/formats.schema.json:12 the `game` enum is [varz, azuki] (core/schemahints.py: "
    "'game is varz or azuki'): `game: tidewright` in formats.yaml is C001"
)
BUNDLED_ROOT = (
    "varz_deck/core/database.py:89 resolve_root: a game's bundled database is "
    "card_data/<game>/ inside varz-deck, so without --cards a Tidewright deck, code or "
    "`--game tidewright` finds no database"
)
SERVER_ROOT = (
    "varz_deck/server/service.py:152 database_for: an event's database is bundled_root() / game"
)
LEAD_LABEL = (
    "varz_deck/core/report/text.py:104 the lead card's label is 'hero' when lead == 'hero', "
    "else 'leader': a Tidewright deck reads 'leader Mara Vell', not 'captain Mara Vell'"
)
SEVERITY = (
    "varz_deck/core/rulebook.py:38 Rule.severity and core/diagnostics.py:64 default_severity "
    "read the severity from the code's first letter (W, C1): the warning T201 is listed as "
    "an error"
)
SCHEMA_COMMAND = (
    "varz_deck/cli/rules.py:106 and core/resources.py:11: `varz-deck schema NAME` offers only "
    "card, deck, formats, azuki-card, azuki-deck"
)
