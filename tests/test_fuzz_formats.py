"""Time-bounded fuzzing of dated formats whose card files and changes disagree (docs/guides/
card-data.md, "Ban lists and release dates").

Hypothesis writes a card database: the bundled VARZ data, a set VZ03 of reprints split over one or
two files whose `released:` days may differ, a promo set PX, and a Standard format with sets, bans
and restrictions naming any printing of a card, and dated changes of a few dates in any order.
Each is checked against an oracle written here from the rules alone:

- `cards lint` reports C010–C013 exactly for the disagreements (a set with two release days; a
  card given two limits, or restricted and unrestricted, on one date or in the undated list; two
  set lists on one date; a card banned and unbanned on one date), and then the deck is not checked;
- otherwise `check` of examples/red-kagura-festival.yaml on a day gives exactly the V115–V118 and
  W203 the oracle works out, message by message;
- the same database written again (files renamed, changes and lists reordered, each id swapped
  for another printing's of its card) gives the same lint codes and the same check (a set list
  keeps its order: messages list the sets as written).

FUZZ_EXAMPLES=N multiplies the examples by N (tests/test_fuzz_commands.py).
"""

from __future__ import annotations

import contextlib
import datetime as dt
import io
import json
import os
import shutil
from dataclasses import dataclass, field
from pathlib import Path

import yaml
from hypothesis import HealthCheck, given, settings
from hypothesis import strategies as st

ROOT = Path(__file__).resolve().parent.parent
BUNDLED = ROOT / "card_data" / "varz"
KAGURA = ROOT / "examples" / "red-kagura-festival.yaml"
SCALE = max(1, int(os.environ.get("FUZZ_EXAMPLES", "1")))
D = dt.date

# The cards the fuzzed lists name, each with its printings: (id, set). VZ03 and PX are written
# by the test (reprints of the bundled VZ01/VZ02 card); the rest are bundled.
PRINTINGS: dict[str, list[tuple[str, str]]] = {
    "Scorch Shot": [("VZ01-010", "VZ01"), ("VZ02-063", "VZ02"), ("VZ03-010", "VZ03")],
    "Ember Imp": [("VZ01-007", "VZ01"), ("VZ03-007", "VZ03"), ("PX-007", "PX")],
    "Cinder Hound": [("VZ01-008", "VZ01")],
    "Crimson VAZ": [("VZ01-094", "VZ01"), ("VZ03-094", "VZ03")],
    "Street Brawler": [("VZ02-004", "VZ02")],
}
CARD_OF = {card_id: name for name, ids in PRINTINGS.items() for card_id, _ in ids}
IDS = sorted(CARD_OF)
# The Kagura deck: each card's section count (the hero counts for no limit), by hand from the file.
DECK = {
    "Hibiki Kagura": None, "Ember Imp": 3, "Cinder Hound": 3, "Flame Ronin": 3, "Scorch Shot": 3,
    "Blaze Rush": 2, "Kabuki Flame Dancer": 3, "Magma Brawler": 2, "Inferno Burst": 1,
    "Vermilion Drake": 1, "Street Brawler": 3, "Overheat": 2, "Crimson Gunslinger": 2,
    "Meteor Lance": 2, "Crimson VAZ": 4, "Iron Fist": 1, "Burning Knuckle": 1, "Iaido Flash": 1,
    "Blade Oath": 1, "Second Wind": 1, "Kabukicho Neon": 1, "Shibuya Crossing": 1,
    "Crimson Gate": 4, "Basic Gate (2)": 2,
}  # fmt: skip
VZ02_CARDS = {"Street Brawler", "Overheat", "Crimson Gunslinger", "Meteor Lance", "Second Wind"}
RELEASED = {"VZ01": D(2025, 6, 1), "VZ02": D(2025, 12, 1), "PX": D(2025, 1, 1)}
DATES = [D(2027, 1, 10), D(2027, 1, 20), D(2027, 2, 1), D(2027, 3, 20)]
DAYS = [D(2027, 1, 5), D(2027, 1, 10), D(2027, 1, 19), D(2027, 2, 1), D(2027, 3, 1), D(2027, 4, 1)]
SETS = ["VZ01", "VZ02", "VZ03", "PX"]


def settings_for(examples: int) -> settings:
    return settings(
        max_examples=examples * SCALE,
        deadline=None,
        derandomize=SCALE == 1,
        suppress_health_check=[HealthCheck.function_scoped_fixture, HealthCheck.too_slow],
        database=None,
    )


@dataclass
class Change:
    date: D
    banned: list[str] = field(default_factory=list)
    unbanned: list[str] = field(default_factory=list)
    restricted: dict[str, int] = field(default_factory=dict)
    unrestricted: list[str] = field(default_factory=list)
    sets: list[str] | None = None


@dataclass
class Spec:
    """A fuzzed database: VZ03's files (the VZ03 ids of each, its release day or None), the
    format's sets (None: every set), undated lists, and dated changes (in the order written)."""

    vz03_files: list[tuple[list[str], D | None]]
    sets: list[str] | None
    banned: list[str]
    restricted: dict[str, int]
    changes: list[Change]


ids = st.sampled_from(IDS)
id_lists = st.lists(ids, max_size=2, unique=True)
limits = st.dictionaries(ids, st.integers(0, 3), max_size=2)
set_lists = st.lists(st.sampled_from(SETS), min_size=1, max_size=3, unique=True)
changes = st.builds(
    Change,
    date=st.sampled_from(DATES),
    banned=id_lists,
    unbanned=id_lists,
    restricted=limits,
    unrestricted=id_lists,
    sets=st.none() | set_lists,
)


@st.composite
def specs(draw: st.DrawFn) -> Spec:
    vz03 = sorted(i for i in IDS if i.startswith("VZ03-"))
    split = draw(st.integers(1, len(vz03)))
    parts = [vz03[:split], vz03[split:]] if split < len(vz03) else [vz03]
    days = st.none() | st.sampled_from([D(2027, 1, 20), D(2027, 3, 1)])
    return Spec(
        vz03_files=[(part, draw(days)) for part in parts],
        sets=draw(st.none() | set_lists),
        banned=draw(id_lists),
        restricted=draw(limits),
        changes=draw(st.lists(changes, max_size=3)),
    )


# --------------------------------------------------------------------------- writing it


def _bundled_cards() -> dict[str, dict]:
    out: dict[str, dict] = {}
    for path in sorted((BUNDLED / "sets").glob("*.yaml")):
        for card in yaml.safe_load(path.read_text(encoding="utf-8"))["cards"]:
            out[card["name"]] = card
    return out


BUNDLED_BY_NAME = _bundled_cards()


def _card_file(code: str, released: D | None, card_ids: list[str]) -> str:
    head = {"code": code, "name": f"Set {code}"}
    if released is not None:
        head["released"] = released.isoformat()
    cards = []
    for card_id in card_ids:
        card = {k: v for k, v in BUNDLED_BY_NAME[CARD_OF[card_id]].items() if k != "rarity"}
        cards.append({**card, "id": card_id})
    return yaml.safe_dump({"set": head, "cards": cards}, allow_unicode=True, sort_keys=False)


def write(spec: Spec, folder: Path, *, rewrite: int = 0) -> Path:
    """The database of `spec` in `folder`; `rewrite` > 0 writes it again otherwise: the files
    renamed, the lists and changes in another order, each id another printing's of its card."""
    shutil.copytree(BUNDLED, folder)

    def other(card_id: str) -> str:
        if not rewrite:
            return card_id
        printings = [i for i, _ in PRINTINGS[CARD_OF[card_id]]]
        return printings[(printings.index(card_id) + rewrite) % len(printings)]

    def order(items: list) -> list:
        return list(reversed(items)) if rewrite else list(items)

    names = ["vz03.yaml", "vz03-more.yaml"] if not rewrite else ["z-late.yaml", "a-early.yaml"]
    for (part, released), name in zip(spec.vz03_files, names, strict=False):
        (folder / "sets" / name).write_text(_card_file("VZ03", released, part), "utf-8")
    promo = "px.yaml" if not rewrite else "0-promo.yaml"
    (folder / "sets" / promo).write_text(_card_file("PX", RELEASED["PX"], ["PX-007"]), "utf-8")
    fmt: dict = {"name": "Standard", "max_effect_portals": 2}
    if spec.sets is not None:
        fmt["sets"] = spec.sets  # a message lists the sets as written
    # one id per card in a list: two printings of one card in one list say the card twice
    fmt["banned"] = _one_per_card(order([other(i) for i in spec.banned]))
    fmt["restricted"] = {other(i): n for i, n in order(list(spec.restricted.items()))}
    written = []
    for change in order(spec.changes):
        data: dict = {"date": change.date.isoformat()}
        for key in ("banned", "unbanned", "unrestricted"):
            listed = _one_per_card(order([other(i) for i in getattr(change, key)]))
            if listed:
                data[key] = listed
        if change.restricted:
            data["restricted"] = {other(i): n for i, n in order(list(change.restricted.items()))}
        if change.sets is not None:
            data["sets"] = change.sets
        written.append(data)
    if written:
        fmt["changes"] = written
    text = yaml.safe_dump({"formats": {"standard": fmt}}, sort_keys=False)
    (folder / "formats.yaml").write_text(text, encoding="utf-8")
    return folder


def _one_per_card(card_ids: list[str]) -> list[str]:
    seen: set[str] = set()
    out = []
    for card_id in card_ids:
        if CARD_OF[card_id] not in seen:
            seen.add(CARD_OF[card_id])
            out.append(card_id)
    return out


# --------------------------------------------------------------------------- the oracle


def conflicts(spec: Spec) -> set[str]:
    """The codes `cards lint` must report as errors (a card is its name; ids of one card in a
    YAML mapping are written once, so two restrictions of one card are two ids)."""
    found = set()
    days = {released for _, released in spec.vz03_files if released is not None}
    if len(days) > 1:
        found.add("C011")
    undated: dict[str, set[int]] = {}
    for card_id, limit in spec.restricted.items():
        undated.setdefault(CARD_OF[card_id], set()).add(limit)
    if any(len(v) > 1 for v in undated.values()):
        found.add("C012")
    for date in DATES:
        same = [c for c in spec.changes if c.date == date]
        banned = {CARD_OF[i] for c in same for i in c.banned}
        unbanned = {CARD_OF[i] for c in same for i in c.unbanned}
        if banned & unbanned:
            found.add("C010")
        lim: dict[str, set[int]] = {}
        for c in same:
            for card_id, limit in c.restricted.items():
                lim.setdefault(CARD_OF[card_id], set()).add(limit)
        lifted = {CARD_OF[i] for c in same for i in c.unrestricted}
        if any(len(v) > 1 for v in lim.values()) or set(lim) & lifted:
            found.add("C012")
        if len({frozenset(c.sets) for c in same if c.sets is not None}) > 1:
            found.add("C013")
    return found


@dataclass
class State:
    sets: list[str] | None
    banned: dict[str, D | None]
    limits: dict[str, tuple[int, D | None]]


def state_on(spec: Spec, day: D) -> State:
    """The format on `day` by hand: the lists as written, then each date's changes together."""
    state = State(
        list(spec.sets) if spec.sets is not None else None,
        {CARD_OF[i]: None for i in spec.banned},
        {CARD_OF[i]: (n, None) for i, n in spec.restricted.items()},
    )
    for date in DATES:
        if date > day:
            break
        same = [c for c in spec.changes if c.date == date]
        for c in same:
            for card_id in c.unbanned:
                state.banned.pop(CARD_OF[card_id], None)
        for c in same:
            for card_id in c.banned:
                state.banned.setdefault(CARD_OF[card_id], date)
        for c in same:
            for card_id in [*c.unrestricted, *c.restricted]:
                state.limits.pop(CARD_OF[card_id], None)
        for c in same:
            for card_id, limit in c.restricted.items():
                state.limits[CARD_OF[card_id]] = (limit, date)
        given = {tuple(c.sets) for c in same if c.sets is not None}
        if len(given) == 1:
            state.sets = list(given.pop())
        elif given:  # one set of sets written in two orders: in code order
            state.sets = sorted(set.intersection(*(set(g) for g in given)))
    return state


def release_of(spec: Spec, code: str) -> D | None:
    if code == "VZ03":
        days = [released for _, released in spec.vz03_files if released is not None]
        return days[0] if days else None
    return RELEASED[code]


def printings_of(name: str) -> list[tuple[str, str]]:
    if name in PRINTINGS:
        return PRINTINGS[name]
    return [("?", "VZ02" if name in VZ02_CARDS else "VZ01")]


def allowed(state: State, name: str) -> list[str]:
    sets = [s for _, s in printings_of(name)]
    return sets if state.sets is None else [s for s in sets if s in state.sets]


def expected(spec: Spec, day: D) -> list[tuple[str, str]]:
    """The (code, message) of V115–V118 and W203 for the Kagura deck on `day`."""
    now = state_on(spec, day)
    out: list[tuple[str, str]] = []
    for name, count in DECK.items():
        card = f"'{name}'"
        if name in now.banned:
            since = now.banned[name]
            at = f" since {since.isoformat()}" if since else ""
            out.append(("V115", f"{card} is banned in Standard{at}; replace it"))
        if count is not None and name in now.limits and count > now.limits[name][0]:
            limit, since = now.limits[name]
            at = f" since {since.isoformat()}" if since else ""
            out.append(
                (
                    "V116",
                    f"{count} copies of {card}; Standard restricts it to {limit}{at}: "
                    f"remove {count - limit}",
                )
            )
        sets = allowed(now, name)
        if now.sets is not None and not sets:
            own = ", ".join(sorted({s for _, s in printings_of(name)}))
            out.append(
                (
                    "V117",
                    f"{card} is only in set {own}; Standard allows {', '.join(now.sets)}: "
                    "replace it",
                )
            )
        elif sets:
            days = [release_of(spec, s) for s in sets]
            if all(d is not None and d > day for d in days):
                first, code = min((d, s) for d, s in zip(days, sets, strict=True) if d)
                out.append(
                    (
                        "V118",
                        f"{card} is in {code}, released {first.isoformat()}: not yet legal in "
                        "Standard",
                    )
                )
    for date in DATES:
        n = (date - day).days
        if not 1 <= n <= 60:
            continue
        before, after = state_on(spec, date - dt.timedelta(days=1)), state_on(spec, date)
        rotates = any(c.sets is not None for c in spec.changes if c.date == date)
        when = f"{date.isoformat()}, in {n} day{'s' if n != 1 else ''}"
        for name, count in DECK.items():
            card = f"'{name}'"
            if name in after.banned and name not in before.banned:
                out.append(("W203", f"{card} is banned from {when}"))
                continue
            out_now = rotates and after.sets is not None and not allowed(after, name)
            if out_now and allowed(before, name):
                allows = ", ".join(after.sets or ())
                out.append(
                    ("W203", f"{card} rotates out of Standard on {when}: it allows {allows}")
                )
            limit, was = after.limits.get(name), before.limits.get(name)
            over = count is not None and limit is not None and count > limit[0]
            if over and (was is None or count <= was[0]):
                plays = f"the deck plays {count}"
                out.append(("W203", f"{card} is restricted to {limit[0]} from {when}; {plays}"))
    return sorted(out)


# --------------------------------------------------------------------------- the runs


def run(*args: str | Path) -> tuple[int, str]:
    from varz_deck.cli import main

    out, err = io.StringIO(), io.StringIO()
    code: int | str | None = 0
    with contextlib.redirect_stdout(out), contextlib.redirect_stderr(err):
        try:
            main([str(a) for a in args])
        except SystemExit as done:
            code = done.code
    assert code != 3, err.getvalue()
    return (code if isinstance(code, int) else 0), out.getvalue()


def verdict(db: Path, day: D) -> tuple[set[str], int, list[tuple[str, str]]]:
    from varz_deck.games import lint_database

    result = lint_database(db)
    errors = {d.code for d in result.errors}
    status, out = run("check", KAGURA, "--cards", db, "--date", day.isoformat(), "-o", "json")
    if status == 2:
        return errors, status, []
    (entry,) = json.loads(out)["decks"]
    return errors, status, sorted((d["code"], d["message"]) for d in entry["diagnostics"])


@settings_for(40)
@given(spec=specs(), day=st.sampled_from(DAYS))
def test_fuzz_dated_formats_whose_files_disagree(
    spec: Spec, day: D, tmp_path_factory: object
) -> None:
    work = tmp_path_factory.mktemp("formats")  # type: ignore[attr-defined]
    errors, status, found = verdict(write(spec, work / "a"), day)
    assert errors == conflicts(spec), spec
    if errors:
        assert status == 2, spec
    else:
        want = expected(spec, day)
        assert found == want, spec
        assert status == (1 if any(code != "W203" for code, _ in want) else 0)
    for rewrite in (1, 2):
        again = verdict(write(spec, work / f"b{rewrite}", rewrite=rewrite), day)
        assert again == (errors, status, found), (spec, rewrite)
