"""A strict YAML loader for untrusted files, built on libyaml's event parser.

It builds plain Python data (dict, list, str, int, float, bool, None) with YAML 1.2 core-schema
scalars, keeps mapping keys exactly as typed, refuses Python tags, reports duplicate keys, limits
depth and node count, and either refuses aliases (deck files) or expands them under a budget (card
files). Every value's place is kept by path, so diagnostics can point at it.

The alias budget counts what an alias adds once expanded: every node of the anchored value (mapping
keys included, so a merge key `<<: *base` costs every key it copies) and every character of its
scalars. A few hundred bytes of anchors can otherwise stand for millions of nodes or gigabytes of
text, which every later step (schema, cache, output) would pay for.
"""

from __future__ import annotations

import math
import re
from collections.abc import Iterator
from dataclasses import dataclass, field
from decimal import Decimal
from typing import TYPE_CHECKING, Any, NamedTuple

import yaml

from varz_deck.core.files.source import LoadError
from varz_deck.core.messages.diagnostics import Mark
from varz_deck.core.messages.i18n import Quoted, msg

try:
    from yaml.cyaml import CParser as _Parser  # type: ignore[attr-defined]
except ImportError:  # pragma: no cover - without libyaml, the pure-Python parser does the same job
    from yaml import Loader as _Parser  # type: ignore[assignment]

Path = tuple[str | int, ...]

if TYPE_CHECKING:  # types only: nothing of the loader's runtime changes for them
    from typing import TypeVar

    Scalar = str | int | float | bool | None  # a scalar as loaded (the YAML 1.2 core schema)
    Container = dict[str, object] | list[object]  # a mapping or sequence as loaded
    Data = Scalar | dict[str, "Data"] | list["Data"]  # a whole document as loaded
    T = TypeVar("T")

MAX_DEPTH = 64
DECK_NODE_CAP = 100_000
CARD_NODE_CAP = 2_000_000
ALIAS_NODE_BUDGET = 200_000  # nodes that aliases (merge keys included) may add to one document
ALIAS_CHAR_BUDGET = 4 * 1024 * 1024  # characters of scalars that aliases may add to one document

_CORE = "tag:yaml.org,2002:"
_NULLS = {"", "~", "null", "Null", "NULL"}
_TRUES = {"true", "True", "TRUE"}
_FALSES = {"false", "False", "FALSE"}
_INT = re.compile(r"[-+]?[0-9]+")
_OCT = re.compile(r"0o[0-7]+")
_HEX = re.compile(r"0x[0-9a-fA-F]+")
_FLOAT = re.compile(r"[-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?")
_INF = re.compile(r"[-+]?\.(inf|Inf|INF)")
_NAN = re.compile(r"\.(nan|NaN|NAN)")


class DuplicateKey(NamedTuple):
    """A key given twice in one mapping; the first value is kept."""

    path: Path
    key: str
    first: Mark
    second: Mark
    value: object


@dataclass(slots=True)
class Document:
    """Loaded data plus where each value and key came from."""

    data: Any  # read after the schema check has vouched for its shape (games, lint)
    marks: dict[Path, Mark] = field(default_factory=dict)
    key_marks: dict[Path, Mark] = field(default_factory=dict)
    raw: dict[Path, str] = field(default_factory=dict)
    duplicates: list[DuplicateKey] = field(default_factory=list)

    def mark(self, path: Path) -> Mark | None:
        """The place of the value at path, or of its nearest placed ancestor."""
        for end in range(len(path), -1, -1):
            found = self.marks.get(path[:end])
            if found is not None:
                return found
        return None

    def key_mark(self, path: Path) -> Mark | None:
        """The place of the key whose value is at path (falls back to the value's place)."""
        return self.key_marks.get(path) or self.mark(path)

    def text(self, path: Path, value: T) -> str | T:
        """A scalar as the user typed it when it resolved to a non-string (`1.10`, `true`)."""
        return self.raw.get(path, value)


# Longer integers than this are never converted (Python refuses over 4,300 digits, and the work
# grows with the square of the length): a HugeInt stands for them.
MAX_INT_DIGITS = 100


class HugeInt(int):
    """An integer scalar too long to convert: a value beyond every bound (±10**100, so it
    compares as the real one would against any limit) that prints as the digits typed, cut."""

    text: str

    def __new__(cls, text: str) -> HugeInt:
        value = super().__new__(
            cls, -(10**MAX_INT_DIGITS) if text.startswith("-") else 10**MAX_INT_DIGITS
        )
        value.text = text
        return value

    def __str__(self) -> str:
        digits = self.text.lstrip("+-")
        return f"{self.text[: len(self.text) - len(digits)]}{digits[:8]}…({len(digits):,} digits)"

    __repr__ = __str__

    def __format__(self, spec: str) -> str:
        return str(self)


class RoundedFloat(float):
    """A float scalar that reads as a whole number but is not one as written:
    `2.9999999999999999` is the float 3.0. It keeps its text, for messages and is_whole."""

    text: str

    def __new__(cls, text: str) -> RoundedFloat:
        value = super().__new__(cls, text)
        value.text = text
        return value

    def __str__(self) -> str:
        return self.text


def _float(text: str) -> float:
    value = float(text)
    if value.is_integer():
        written = Decimal(text)
        if written != written.to_integral_value():
            return RoundedFloat(text)
    return value


def is_whole(value: object) -> bool:
    """Whether a number is whole as written: 3 and 3.0 are, 2.9999999999999999 is not."""
    if isinstance(value, bool) or not isinstance(value, (int, float)):
        return False
    return isinstance(value, int) or (value.is_integer() and not isinstance(value, RoundedFloat))


def _int(text: str, base: int) -> int:
    if len(text) > MAX_INT_DIGITS:
        return HugeInt(text)
    return int(text, base)


def resolve_plain(value: str) -> Scalar:
    """A plain scalar under the YAML 1.2 core schema."""
    if value in _NULLS:
        return None
    if value in _TRUES:
        return True
    if value in _FALSES:
        return False
    if _INT.fullmatch(value):
        return _int(value, 10)
    if _OCT.fullmatch(value):
        return _int(value[2:], 8)
    if _HEX.fullmatch(value):
        return _int(value[2:], 16)
    if _FLOAT.fullmatch(value):
        return _float(value)
    if _INF.fullmatch(value):
        return -math.inf if value.startswith("-") else math.inf
    if _NAN.fullmatch(value):
        return math.nan
    return value


def _tagged(tag: str, value: str, mark: Mark) -> Scalar:
    if tag in ("!", _CORE + "str"):
        return value
    name = tag[len(_CORE) :] if tag.startswith(_CORE) else None
    resolved = resolve_plain(value)
    expected: dict[str | None, type | tuple[type, ...]] = {
        "int": int,
        "float": (int, float),
        "bool": bool,
        "null": type(None),
    }
    if (
        name in expected
        and isinstance(resolved, expected[name])
        and (name == "bool" or not isinstance(resolved, bool))
    ):
        if name == "float" and not isinstance(resolved, float):
            return float(resolved)  # type: ignore[arg-type]
        return resolved
    raise LoadError(
        "F002", msg("F002", "tag {tag} is not allowed here; remove it")(tag=_show_tag(tag)), mark
    )


def _mark(event: Any) -> Mark:  # a parser event (its start_mark is always set)
    return Mark(event.start_mark.line + 1, event.start_mark.column + 1)


class _Frame:
    """A mapping or sequence being built: its path, anchor, pending key and node count."""

    __slots__ = ("anchor", "chars", "container", "key", "key_mark", "merged", "path", "size")

    def __init__(self, container: Container, path: Path, anchor: str | None) -> None:
        self.container = container
        self.path = path
        self.anchor = anchor
        self.key: str | None = None
        self.key_mark: Mark | None = None
        self.merged: set[str] = set()
        self.size = 1  # nodes: this one, its keys and everything below
        self.chars = 0  # characters of the scalars (keys included) below


def _events(text: str) -> Iterator[Any]:  # loose: _load dispatches on type(event), kept aside
    parser = _Parser(text)
    try:
        while True:
            event = parser.get_event()
            if event is None:
                return
            yield event
    finally:
        dispose = getattr(parser, "dispose", None)
        if dispose is not None:
            dispose()


def load(
    text: str,
    *,
    aliases: bool = False,
    node_cap: int = DECK_NODE_CAP,
    alias_nodes: int = ALIAS_NODE_BUDGET,
    alias_chars: int = ALIAS_CHAR_BUDGET,
) -> Document:
    """Parse one YAML document strictly; raise LoadError (F002/F003) on anything unsafe.

    With `aliases`, an alias is expanded while the nodes and characters all aliases add stay
    within `alias_nodes` and `alias_chars`; the alias that goes past either is F002.
    """
    try:
        return _load(text, aliases, node_cap, _Budget(alias_nodes, alias_chars))
    except LoadError:
        raise
    except yaml.MarkedYAMLError as exc:
        where = exc.problem_mark or exc.context_mark
        mark = Mark(where.line + 1, where.column + 1) if where is not None else None
        problem = exc.problem or exc.context or "invalid YAML"
        raise LoadError(
            "F002", msg("F002", "YAML syntax error: {problem}")(problem=problem), mark
        ) from None
    except yaml.YAMLError as exc:
        position = getattr(exc, "position", None)
        mark = None
        if isinstance(position, int):
            line = text.count("\n", 0, position) + 1
            mark = Mark(line, position - (text.rfind("\n", 0, position) + 1) + 1)
        reason = getattr(exc, "reason", None) or "unreadable YAML"
        raise LoadError(
            "F002", msg("F002", "YAML cannot be read: {reason}")(reason=str(reason)), mark
        ) from None
    except (RecursionError, MemoryError):
        raise LoadError("F002", msg("F002", "YAML is too deeply nested or too large")) from None
    except Exception as exc:  # libyaml can raise plain errors on odd input
        raise LoadError(
            "F002", msg("F002", "YAML cannot be read ({error})")(error=type(exc).__name__)
        ) from None


class _Budget:
    """What all aliases of one document have added so far, against the budget."""

    __slots__ = ("char_cap", "chars", "node_cap", "nodes")

    def __init__(self, node_cap: int, char_cap: int) -> None:
        self.node_cap = node_cap
        self.char_cap = char_cap
        self.nodes = 0
        self.chars = 0

    def spend(self, nodes: int, chars: int, mark: Mark) -> None:
        self.nodes += nodes
        self.chars += chars
        if self.nodes > self.node_cap:
            raise LoadError(
                "F002",
                msg(
                    "F002",
                    "aliases expand to more than {cap:,} YAML nodes in this file (merge keys "
                    "count every key they copy); write the values out instead",
                )(cap=self.node_cap),
                mark,
            )
        if self.chars > self.char_cap:
            raise LoadError(
                "F002",
                msg(
                    "F002",
                    "aliases expand to more than {cap:,} characters of text in this file; "
                    "write the values out instead",
                )(cap=self.char_cap),
                mark,
            )


def _load(text: str, aliases: bool, node_cap: int, budget: _Budget) -> Document:
    doc = Document(data=None)
    stack: list[_Frame] = []
    anchors: dict[str, tuple[object, int, int]] = {}
    nodes = 0
    documents = 0
    root_set = False

    def count(size: int, mark: Mark) -> None:
        nonlocal nodes
        nodes += size
        if nodes > node_cap:
            raise LoadError(
                "F002",
                msg("F002", "more than {cap:,} YAML nodes (aliases expanded)")(cap=node_cap),
                mark,
            )

    def attach(value: object, size: int, chars: int, mark: Mark, anchor: str | None) -> None:
        nonlocal root_set
        if anchor is not None:
            anchors[anchor] = (value, size, chars)
        if not stack:
            doc.data = value
            root_set = True
            return
        frame = stack[-1]
        frame.size += size
        frame.chars += chars
        container = frame.container
        if isinstance(container, list):
            container.append(value)
            return
        key, key_mark = frame.key, frame.key_mark
        assert key is not None and key_mark is not None
        frame.key = None
        key_path = (*frame.path, key)
        if key == "<<" and aliases and isinstance(value, (dict, list)):
            frame.merged.update(_merge(container, value, mark))
        elif key in frame.merged:  # an explicit key wins over one merged in by <<
            frame.merged.discard(key)
            container[key] = value
            doc.key_marks[key_path] = key_mark
        elif key in container:
            first = doc.key_marks[key_path]
            doc.duplicates.append(DuplicateKey(frame.path, key, first, key_mark, value))
        else:
            container[key] = value
            doc.key_marks[key_path] = key_mark

    def child_path() -> Path:
        if not stack:
            return ()
        frame = stack[-1]
        if isinstance(frame.container, list):
            return (*frame.path, len(frame.container))
        key = frame.key
        assert key is not None
        if key in frame.container and key not in frame.merged:
            return (*frame.path, f"{key}\x00{len(doc.duplicates)}")  # keep the first's places
        return (*frame.path, key)

    for event in _events(text):
        kind = type(event)
        if kind is yaml.ScalarEvent or kind is yaml.AliasEvent:
            mark = _mark(event)
            count(1, mark)
            expects_key = bool(stack) and isinstance(stack[-1].container, dict)
            expects_key = expects_key and stack[-1].key is None
            if kind is yaml.AliasEvent:
                if not aliases:
                    raise LoadError(
                        "F002",
                        msg("F002", "aliases (*name) are not allowed in deck files; write it out"),
                        mark,
                    )
                if event.anchor not in anchors:
                    raise LoadError(
                        "F002",
                        msg("F002", "unknown alias {alias}")(alias=Quoted(event.anchor)),
                        mark,
                    )
                value, size, chars = anchors[event.anchor]
                if expects_key:
                    raise LoadError("F002", msg("F002", "an alias cannot be a mapping key"), mark)
                count(size, mark)
                budget.spend(size, chars, mark)
                path = child_path()
                doc.marks[path] = mark
                attach(value, size, chars, mark, None)
                continue
            if event.tag is not None and (expects_key or event.tag != "!"):
                if expects_key:
                    raise LoadError(
                        "F002", msg("F002", "tags are not allowed on keys; remove it"), mark
                    )
                value = _tagged(event.tag, event.value, mark)
            elif expects_key or event.style or event.tag == "!":
                value = event.value
            else:
                value = resolve_plain(event.value)
            if expects_key:
                if event.anchor is not None:
                    anchors[event.anchor] = (event.value, 1, len(event.value))
                frame = stack[-1]
                frame.key, frame.key_mark = event.value, mark
                frame.size += 1
                frame.chars += len(event.value)
                continue
            path = child_path()
            if not isinstance(value, str) and not event.style and event.tag is None:
                doc.raw[path] = event.value
            doc.marks[path] = mark
            attach(value, 1, len(event.value), mark, event.anchor)
        elif kind is yaml.MappingStartEvent or kind is yaml.SequenceStartEvent:
            mark = _mark(event)
            count(1, mark)
            if stack and isinstance(stack[-1].container, dict) and stack[-1].key is None:
                raise LoadError(
                    "F002",
                    msg("F002", "a mapping key must be a plain value, not a list or mapping"),
                    mark,
                )
            if len(stack) >= MAX_DEPTH:
                raise LoadError(
                    "F002",
                    msg("F002", "nested more than {depth} levels deep")(depth=MAX_DEPTH),
                    mark,
                )
            tag = event.tag
            want = "map" if kind is yaml.MappingStartEvent else "seq"
            if tag is not None and tag not in ("!", _CORE + want):
                raise LoadError(
                    "F002",
                    msg("F002", "tag {tag} is not allowed here; remove it")(tag=_show_tag(tag)),
                    mark,
                )
            path = child_path()
            doc.marks[path] = mark
            container: Container = {} if kind is yaml.MappingStartEvent else []
            stack.append(_Frame(container, path, event.anchor))
        elif kind is yaml.MappingEndEvent or kind is yaml.SequenceEndEvent:
            frame = stack.pop()
            attach(frame.container, frame.size, frame.chars, doc.marks[frame.path], frame.anchor)
        elif kind is yaml.DocumentStartEvent:
            documents += 1
            if documents > 1:
                raise LoadError(
                    "F002",
                    msg("F002", "more than one YAML document (---); put one deck in a file"),
                    _mark(event),
                )
            anchors.clear()
    if not root_set:
        doc.data = None
    return doc


def _merge(container: dict[str, object], value: object, mark: Mark) -> set[str]:
    """Apply a merge key (<<): copy keys not already given; return the keys it added."""
    added: set[str] = set()
    sources = value if isinstance(value, list) else [value]
    for source in sources:
        if not isinstance(source, dict):
            raise LoadError(
                "F002", msg("F002", "a merge key (<<) takes a mapping or a list of mappings"), mark
            )
        for key, item in source.items():
            if key not in container:
                container[key] = item
                added.add(key)
    return added


def _show_tag(tag: str) -> Quoted:
    return Quoted("!!" + tag[len(_CORE) :] if tag.startswith(_CORE) else tag)
