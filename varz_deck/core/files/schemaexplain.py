"""C001: jsonschema errors turned into one placed, plain-words message per offending value."""

from __future__ import annotations

import difflib
from collections.abc import Iterable, Mapping
from typing import TYPE_CHECKING, Any

from varz_deck.core.files.fastschema import (
    UnsupportedSchema,
    detailed_validator,
    fast_schema,
    first_duplicate,
    is_number,
    pointer,
)
from varz_deck.core.files.schemahints import hinted
from varz_deck.core.files.schemas import branches, type_matched
from varz_deck.core.files.strictyaml import Document, Path, resolve_plain
from varz_deck.core.messages.diagnostics import Diagnostic, Mark, diag
from varz_deck.core.messages.i18n import (
    ENGLISH,
    Joined,
    Message,
    Quoted,
    Term,
    msg,
    nmsg,
    value_text,
)
from varz_deck.core.messages.sanitize import safe

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {
    "integer": msg("C001", "a whole number"),
    "number": msg("C001", "a number"),
    "string": msg("C001", "text"),
    "boolean": msg("C001", "true or false"),
    "array": msg("C001", "a list"),
    "object": msg("C001", "a mapping"),
    "null": msg("C001", "empty"),
}
_DEFAULT_OWNER: dict[str, object] = {"card": msg("C001", "a card file"), "formats": "formats.yaml"}
_DID_YOU_MEAN = msg("C001", "{problem}; did you mean {close}?")


def value_shown(value: object) -> object:
    """A value for a message: true/false, a number, quoted text, or words ('a list') to translate."""
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return msg("C001", "nothing")
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return Quoted(value if len(value) <= 40 else value[:37] + "...")
    return msg("C001", "a mapping") if isinstance(value, dict) else msg("C001", "a list")


def show_value(value: object) -> str:
    """The value as English text: true, 3, 'text', nothing, a list."""
    return str(value_text(value_shown(value), ENGLISH))


def _add(message: Message, **more: object) -> Message:
    """The message with more values besides the ones it has."""
    return message(**dict(message.args), **more)


def _label(path: Iterable[str | int]) -> str:
    """v_sync.power, skill_classes[1], names.ja."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _walk(
    document: Mapping[str, object], schema_path: Iterable[str | int]
) -> tuple[object, list[object]]:
    """The schema node an error's path leads to, and the `if` conditions passed on the way."""
    node: Any = document
    conditions: list[object] = []
    for step in schema_path:
        while isinstance(node, dict) and step not in node and "$ref" in node:
            try:  # jsonschema leaves $ref out of its paths
                node = pointer(document, node["$ref"])
            except UnsupportedSchema:
                return None, conditions
        if step == "then" and isinstance(node, dict) and "if" in node:
            conditions.append(node["if"])
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return None, conditions
    return node, conditions


def _owner(kind: str, path: Path, conditions: list[object]) -> object:
    """Who has to follow a rule: 'a <type> card with <field>: true', 'every card', 'the set block'."""
    if kind == "card" and len(path) >= 2 and path[0] == "cards":
        consts: dict[str, object] = {}
        for condition in conditions:
            props = condition.get("properties", {}) if isinstance(condition, dict) else {}
            for key, sub in props.items():
                if isinstance(sub, dict) and "const" in sub:
                    consts[key] = sub["const"]
        if not consts:
            return msg("C001", "every card")
        kind_word = consts.pop("type", None)
        who = (
            msg("C001", "a {type} card")(type=Term("card type", str(kind_word)))
            if kind_word
            else msg("C001", "a card")
        )
        extra = ", ".join(
            f"{k}: {safe(v) if isinstance(v, str) else show_value(v)}" for k, v in consts.items()
        )
        return msg("C001", "{who} with {conditions}")(who=who, conditions=extra) if extra else who
    if kind == "card" and path[:1] == ("set",):
        return msg("C001", "the set block")
    if kind == "formats" and len(path) >= 2:
        return msg("C001", "a format")
    return _DEFAULT_OWNER.get(kind, msg("C001", "this file"))


class _Explainer:
    """Turns one file's jsonschema errors into one diagnostic per problem (C001)."""

    def __init__(
        self, kind: str, document: Mapping[str, object], doc: Document, shown: str
    ) -> None:
        self.kind = kind
        self.document = document
        self.doc = doc
        self.shown = shown
        self.paths: set[Path] = set()  # every value a diagnostic is about

    def _card_at(self, path: Path) -> tuple[int, object] | None:
        data = self.doc.data
        cards = data.get("cards") if isinstance(data, dict) else None
        if self.kind != "card" or len(path) < 2 or path[0] != "cards":
            return None
        if not isinstance(cards, list) or not isinstance(path[1], int):
            return None
        return path[1], cards[path[1]]

    def prefix(self, path: Path) -> tuple[Message | None, Path]:
        """'card VZ01-001: {problem}' and the path inside that card."""
        found = self._card_at(path)
        if found is not None:
            index, raw = found
            card_id = raw.get("id") if isinstance(raw, dict) else None
            name = safe(card_id) if isinstance(card_id, str) and card_id else f"#{index + 1}"
            return msg("C001", "card {card}: {problem}")(card=name), path[2:]
        if self.kind == "formats" and len(path) >= 2 and path[0] == "formats":
            return msg("C001", "format {format}: {problem}")(format=Quoted(path[1])), path[2:]
        if self.kind == "card" and path[:1] == ("set",):
            return msg("C001", "set: {problem}"), path[1:]
        return None, path

    def emit(
        self, prefix: Message | None, message: Message, mark: Mark | None, path: Path
    ) -> Diagnostic:
        self.paths.add(path)
        found = self._card_at(path)
        card_id = found[1].get("id") if found and isinstance(found[1], dict) else None
        card = card_id if isinstance(card_id, str) else None
        text = _add(prefix, problem=message) if prefix is not None else message
        return diag("C001", text, mark, file=self.shown, card=card)

    def explain(self, errors: list[ValidationError]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        removed: set[Path] = set()
        values: dict[Path, list[tuple[ValidationError, list[object], int]]] = {}
        missing: list[tuple[ValidationError, Path, list[object]]] = []
        misspelled: dict[Path, set[str]] = {}  # `colour` given where `color` is due
        done: set[tuple[Path, Path]] = set()
        for top in errors:
            error, hidden = _best_leaf(top)
            path = tuple(error.absolute_path)
            schema_path = tuple(error.absolute_schema_path)
            node, conditions = _walk(self.document, schema_path)
            instance = _at(self.doc.data, path)
            forbidden: list[str] = (
                [k for k, sub in node.items() if sub is False and k in instance]
                if error.validator is None and isinstance(node, dict) and isinstance(instance, dict)
                else []
            )
            if forbidden:  # `"field": false` in a type's branch: this card cannot have it
                if (path, schema_path) in done:
                    continue  # jsonschema reports each such field with the same paths
                done.add((path, schema_path))
                for key in forbidden:
                    out.append(self.forbidden(path, key, conditions))
                    removed.add((*path, key))
            elif error.validator == "additionalProperties":
                known = sorted(_schema_of(error).get("properties", {}))
                extra = set(error.instance) if isinstance(error.instance, dict) else set()
                for key in sorted(extra - set(known)):
                    close = difflib.get_close_matches(key, known, n=1, cutoff=0.6)
                    out.append(self.unknown(path, key, known, close[0] if close else None))
                    removed.add((*path, key))
                    if close:
                        misspelled.setdefault(path, set()).add(close[0])
            elif error.validator == "required":
                missing.append((error, path, conditions))
            elif schema_path[-2:-1] == ("propertyNames",):
                out.append(self.bad_key(error, path))
            else:
                values.setdefault(path, []).append((error, conditions, hidden))
        for error, path, conditions in missing:
            found = self.missing(error, path, conditions, misspelled.get(path, set()))
            if found is not None:
                out.append(found)
        for path, candidates in values.items():
            if any(path[: len(r)] == r for r in removed):
                continue  # "remove it" already covers the value
            # The most specific rule wins: the one from the deepest type-specific branch.
            error, _, hidden = max(
                candidates, key=lambda f: (len(f[1]), "x-message" in _schema_of(f[0]))
            )
            out.append(self.value(error, path, hidden))
        return out

    def forbidden(self, path: Path, key: str, conditions: list[object]) -> Diagnostic:
        prefix, _ = self.prefix(path)
        owner = _owner(self.kind, path, conditions)
        message = msg("C001", "{owner} has no {field}; remove it")(owner=owner, field=Quoted(key))
        return self.emit(prefix, message, self.doc.key_mark((*path, key)), (*path, key))

    def unknown(self, path: Path, key: str, known: list[str], close: str | None) -> Diagnostic:
        prefix, inner = self.prefix(path)
        if inner:
            problem = msg("C001", "unknown field {field} in {place}")(place=_label(inner))
        elif prefix is None:
            problem = msg("C001", "unknown field {field} at the top of the file")
        else:
            problem = msg("C001", "unknown field {field}")
        problem = _add(problem, field=Quoted(key))
        message = (
            _DID_YOU_MEAN(problem=problem, close=Quoted(close))
            if close
            else msg("C001", "{problem}; allowed: {known}")(
                problem=problem, known=Joined(tuple(known))
            )
        )
        return self.emit(prefix, message, self.doc.key_mark((*path, key)), (*path, key))

    def missing(
        self,
        error: ValidationError,
        path: Path,
        conditions: list[object],
        misspelled: set[str],
    ) -> Diagnostic | None:
        """Missing fields, less those an unknown field is a misspelling of (already said)."""
        prefix, inner = self.prefix(path)
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        instance = error.instance if isinstance(error.instance, dict) else {}
        missing = [m for m in wanted if m not in instance and m not in misspelled]
        if not missing:
            return None
        owner = _owner(self.kind, path, conditions)
        fields = Joined(tuple(Quoted(m) for m in missing))
        if inner:
            message = nmsg(
                "C001",
                "{place} is missing {fields} ({owner} needs it)",
                "{place} is missing {fields} ({owner} needs them)",
            )(place=_label(inner), fields=fields, owner=owner, n=len(missing))
        else:
            message = nmsg(
                "C001",
                "missing {fields} ({owner} needs it)",
                "missing {fields} ({owner} needs them)",
            )(fields=fields, owner=owner, n=len(missing))
        return self.emit(prefix, message, self.doc.mark(path), path)

    def bad_key(self, error: ValidationError, path: Path) -> Diagnostic:
        prefix, inner = self.prefix(path)
        key = error.instance
        hint = _schema_of(error).get("x-message")
        reason: object = Message("schema", hint) if isinstance(hint, str) else error.message
        message = (
            msg("C001", "{place}: key {key}: {reason}")(place=_label(inner))
            if inner
            else msg("C001", "key {key}: {reason}")
        )
        message = _add(message, key=Quoted(str(key)), reason=reason)
        return self.emit(prefix, message, self.doc.key_mark((*path, str(key))), (*path, str(key)))

    def value(self, error: ValidationError, path: Path, hidden: int = 0) -> Diagnostic:
        prefix, inner = self.prefix(path)
        raw = self.doc.raw.get(path)  # a number or true/false as typed (1.10, yes)
        shown = safe(raw) if raw is not None else value_shown(error.instance)
        hint = _schema_of(error).get("x-message")
        name: object = _label(inner) or (
            msg("C001", "the card") if prefix is not None else msg("C001", "the file")
        )
        kind = str(error.validator)
        wanted: Any = error.validator_value  # the keyword's value in our schema: its type is kind's
        message: Message
        if isinstance(hint, str):
            message = msg("C001", "{hint} (got {value})")(hint=Message("schema", hint), value=shown)
        elif kind == "type":
            names = [wanted] if isinstance(wanted, str) else list(wanted)
            words = Joined(tuple(_TYPE_WORDS.get(n, n) for n in names), " or ")
            message = msg("C001", "{name} must be {types} (got {value})")(
                name=name, types=words, value=shown
            )
        elif kind == "enum":
            message = msg("C001", "{name} must be one of {options} (got {value})")(
                name=name, options=Joined(tuple(map(str, wanted))), value=shown
            )
        elif kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
            template = {
                "minimum": msg("C001", "{name} must be at least {limit} (got {value})"),
                "exclusiveMinimum": msg("C001", "{name} must be more than {limit} (got {value})"),
                "maximum": msg("C001", "{name} must be at most {limit} (got {value})"),
                "exclusiveMaximum": msg("C001", "{name} must be less than {limit} (got {value})"),
            }[kind]
            message = template(name=name, limit=wanted, value=shown)
        elif kind == "minLength" and wanted == 1:
            message = msg("C001", "{name} cannot be empty")(name=name)
        elif kind == "minItems":
            message = msg("C001", "{name} needs at least {count} entries")(name=name, count=wanted)
        elif kind == "uniqueItems":
            duplicate = (
                first_duplicate(error.instance) if isinstance(error.instance, list) else None
            )
            message = msg("C001", "{name} lists {value} more than once")(
                name=name, value=value_shown(duplicate)
            )
        elif kind == "format":
            template = (
                msg("C001", "{name}: {value} is not a valid {format} (write YYYY-MM-DD)")
                if wanted == "date"
                else msg("C001", "{name}: {value} is not a valid {format}")
            )
            message = template(name=name, value=shown, format=wanted)
        elif kind == "pattern":
            message = msg("C001", "{name}: {value} does not match {pattern}")(
                name=name, value=shown, pattern=wanted
            )
        else:
            message = msg("C001", "{name}: {error}")(name=name, error=error.message)
        if kind == "enum" and isinstance(error.instance, str):
            options = [o for o in wanted if isinstance(o, str)]
            close = difflib.get_close_matches(error.instance, options, n=1, cutoff=0.6)
            if close:
                message = _DID_YOU_MEAN(problem=message, close=Quoted(close[0]))
        if (
            kind == "type"
            and wanted in ("integer", "number")
            and isinstance(error.instance, str)
            and is_number(resolve_plain(error.instance.strip()))
        ):
            message = msg("C001", "{problem}; write the number without quotes")(problem=message)
        if hidden:
            message = msg(
                "C001",
                "{problem} (the closest of the allowed forms; {hidden} other errors not shown)",
            )(problem=message, hidden=hidden)
        return self.emit(prefix, message, self.doc.mark(path), path)


def _schema_of(error: ValidationError) -> dict[str, Any]:
    return error.schema if isinstance(error.schema, dict) else {}


def _at(data: Any, path: Path) -> object:  # loose: indexed blindly; TypeError says it cannot be
    for step in path:
        try:
            data = data[step]
        except (KeyError, IndexError, TypeError):
            return None
    return data


def _best_leaf(error: ValidationError) -> tuple[ValidationError, int]:
    """For anyOf/oneOf: the one sub-error a person needs (and how many were left out)."""
    from jsonschema.exceptions import best_match

    hidden = 0
    while error.context:
        every = branches(error)
        # Prefer a branch whose shape matched (no type error on the value itself), then the
        # branch with the fewest complaints: it is the closest to what was meant.
        chosen = min([subs for subs in every if type_matched(subs)] or every, key=len)
        hidden += len(error.context) - 1
        leaf = best_match(chosen)
        if leaf is None:
            break
        error = leaf
    return error, hidden


def schema_problems(name: str, doc: Document, shown: str) -> tuple[list[Diagnostic], set[Path]]:
    """C001 for one file (nothing when the fast check passes), and the paths they are about."""
    if fast_schema(name).is_valid(doc.data):
        return [], set()
    kind = name.partition(":")[0]  # a game's formats schema (formats:<game>) is a formats schema
    explainer = _Explainer(kind, hinted(name), doc, shown)
    errors = sorted(
        detailed_validator(name).iter_errors(doc.data),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    return explainer.explain(errors), explainer.paths
