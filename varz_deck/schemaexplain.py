"""C001: jsonschema errors turned into one placed, plain-words message per offending value."""

from __future__ import annotations

import difflib
from collections.abc import Iterable
from typing import TYPE_CHECKING, Any

from varz_deck.diagnostics import Diagnostic, Mark, diag, quoted, safe
from varz_deck.fastschema import (
    UnsupportedSchema,
    detailed_validator,
    fast_schema,
    first_duplicate,
    is_number,
    pointer,
)
from varz_deck.schemas import schema
from varz_deck.strictyaml import Document, resolve_plain

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError

_TYPE_WORDS = {
    "integer": "a whole number",
    "number": "a number",
    "string": "text",
    "boolean": "true or false",
    "array": "a list",
    "object": "a mapping",
    "null": "empty",
}
_DEFAULT_OWNER = {"card": "a card file", "formats": "formats.yaml"}


def show_value(value: Any) -> str:
    if isinstance(value, bool):
        return "true" if value else "false"
    if value is None:
        return "nothing"
    if isinstance(value, (int, float)):
        return repr(value)
    if isinstance(value, str):
        return quoted(value if len(value) <= 40 else value[:37] + "...")
    return "a mapping" if isinstance(value, dict) else "a list"


def _label(path: Iterable[Any]) -> str:
    """v_sync.power, skill_classes[1], names.ja."""
    out = ""
    for step in path:
        out += f"[{step}]" if isinstance(step, int) else (f".{step}" if out else str(step))
    return out


def _walk(document: dict[str, Any], schema_path: Iterable[Any]) -> tuple[Any, list[Any]]:
    """The schema node an error's path leads to, and the `if` conditions passed on the way."""
    node: Any = document
    conditions: list[Any] = []
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


def _owner(kind: str, path: tuple[Any, ...], conditions: list[Any]) -> str:
    """Who has to follow a rule: 'a skill card with vaz: true', 'every card', 'the set block'."""
    if kind == "card" and len(path) >= 2 and path[0] == "cards":
        consts: dict[str, Any] = {}
        for condition in conditions:
            props = condition.get("properties", {}) if isinstance(condition, dict) else {}
            for key, sub in props.items():
                if isinstance(sub, dict) and "const" in sub:
                    consts[key] = sub["const"]
        if not consts:
            return "every card"
        kind_word = consts.pop("type", None)
        who = f"a {kind_word} card" if kind_word else "a card"
        extra = ", ".join(
            f"{k}: {safe(v) if isinstance(v, str) else show_value(v)}" for k, v in consts.items()
        )
        return f"{who} with {extra}" if extra else who
    if kind == "card" and path[:1] == ("set",):
        return "the set block"
    if kind == "formats" and len(path) >= 2:
        return "a format"
    return _DEFAULT_OWNER.get(kind, "this file")


class _Explainer:
    """Turns one file's jsonschema errors into one diagnostic per problem (C001)."""

    def __init__(self, kind: str, document: dict[str, Any], doc: Document, shown: str) -> None:
        self.kind = kind
        self.document = document
        self.doc = doc
        self.shown = shown
        self.paths: set[tuple[Any, ...]] = set()  # every value a diagnostic is about

    def _card_at(self, path: tuple[Any, ...]) -> tuple[int, Any] | None:
        data = self.doc.data
        cards = data.get("cards") if isinstance(data, dict) else None
        if self.kind != "card" or len(path) < 2 or path[0] != "cards":
            return None
        if not isinstance(cards, list) or not isinstance(path[1], int):
            return None
        return path[1], cards[path[1]]

    def prefix(self, path: tuple[Any, ...]) -> tuple[str, tuple[Any, ...]]:
        """'card VZ01-001: ' and the path inside that card."""
        found = self._card_at(path)
        if found is not None:
            index, raw = found
            card_id = raw.get("id") if isinstance(raw, dict) else None
            name = safe(card_id) if isinstance(card_id, str) and card_id else f"#{index + 1}"
            return f"card {name}: ", path[2:]
        if self.kind == "formats" and len(path) >= 2 and path[0] == "formats":
            return f"format {quoted(path[1])}: ", path[2:]
        if self.kind == "card" and path[:1] == ("set",):
            return "set: ", path[1:]
        return "", path

    def emit(self, message: str, mark: Mark | None, path: tuple[Any, ...]) -> Diagnostic:
        self.paths.add(path)
        found = self._card_at(path)
        card_id = found[1].get("id") if found and isinstance(found[1], dict) else None
        card = card_id if isinstance(card_id, str) else None
        return diag("C001", message, mark, file=self.shown, card=card)

    def explain(self, errors: list[ValidationError]) -> list[Diagnostic]:
        out: list[Diagnostic] = []
        removed: set[tuple[Any, ...]] = set()
        values: dict[tuple[Any, ...], list[tuple[ValidationError, list[Any], int]]] = {}
        missing: list[tuple[ValidationError, tuple[Any, ...], list[Any]]] = []
        misspelled: dict[tuple[Any, ...], set[str]] = {}  # `colour` given where `color` is due
        done: set[tuple[tuple[Any, ...], tuple[Any, ...]]] = set()
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

    def forbidden(self, path: tuple[Any, ...], key: str, conditions: list[Any]) -> Diagnostic:
        prefix, _ = self.prefix(path)
        owner = _owner(self.kind, path, conditions)
        message = f"{prefix}{owner} has no {quoted(key)}; remove it"
        return self.emit(message, self.doc.key_mark((*path, key)), (*path, key))

    def unknown(
        self, path: tuple[Any, ...], key: str, known: list[str], close: str | None
    ) -> Diagnostic:
        prefix, inner = self.prefix(path)
        where = f" in {_label(inner)}" if inner else ""
        if not prefix and not inner:
            where = " at the top of the file"
        hint = f"did you mean {quoted(close)}?" if close else f"allowed: {', '.join(known)}"
        message = f"{prefix}unknown field {quoted(key)}{where}; {hint}"
        return self.emit(message, self.doc.key_mark((*path, key)), (*path, key))

    def missing(
        self,
        error: ValidationError,
        path: tuple[Any, ...],
        conditions: list[Any],
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
        where = f"{_label(inner)} is " if inner else ""
        fields = ", ".join(quoted(m) for m in missing)
        needs = "it" if len(missing) == 1 else "them"
        message = f"{prefix}{where}missing {fields} ({owner} needs {needs})"
        return self.emit(message, self.doc.mark(path), path)

    def bad_key(self, error: ValidationError, path: tuple[Any, ...]) -> Diagnostic:
        prefix, inner = self.prefix(path)
        key = error.instance
        hint = _schema_of(error).get("x-message")
        place = f"{_label(inner)}: " if inner else ""
        reason = hint if isinstance(hint, str) else error.message
        message = f"{prefix}{place}key {quoted(key)}: {reason}"
        return self.emit(message, self.doc.key_mark((*path, str(key))), (*path, str(key)))

    def value(self, error: ValidationError, path: tuple[Any, ...], hidden: int = 0) -> Diagnostic:
        prefix, inner = self.prefix(path)
        raw = self.doc.raw.get(path)  # a number or true/false as typed (1.10, yes)
        shown = safe(raw) if raw is not None else show_value(error.instance)
        hint = _schema_of(error).get("x-message")
        name = _label(inner) or ("the card" if prefix else "the file")
        kind = str(error.validator)
        wanted: Any = error.validator_value
        if isinstance(hint, str):
            message = f"{hint} (got {shown})"
        elif kind == "type":
            names = [wanted] if isinstance(wanted, str) else list(wanted)
            words = " or ".join(_TYPE_WORDS.get(n, n) for n in names)
            message = f"{name} must be {words} (got {shown})"
        elif kind == "enum":
            message = f"{name} must be one of {', '.join(map(str, wanted))} (got {shown})"
        elif kind in ("minimum", "exclusiveMinimum", "maximum", "exclusiveMaximum"):
            words = {
                "minimum": "at least",
                "exclusiveMinimum": "more than",
                "maximum": "at most",
                "exclusiveMaximum": "less than",
            }[kind]
            message = f"{name} must be {words} {wanted} (got {shown})"
        elif kind == "minLength" and wanted == 1:
            message = f"{name} cannot be empty"
        elif kind == "minItems":
            message = f"{name} needs at least {wanted} entries"
        elif kind == "uniqueItems":
            duplicate = (
                first_duplicate(error.instance) if isinstance(error.instance, list) else None
            )
            message = f"{name} lists {show_value(duplicate)} more than once"
        elif kind == "format":
            example = " (write YYYY-MM-DD)" if wanted == "date" else ""
            message = f"{name}: {shown} is not a valid {wanted}{example}"
        elif kind == "pattern":
            message = f"{name}: {shown} does not match {wanted}"
        else:
            message = f"{name}: {error.message}"
        if kind == "enum" and isinstance(error.instance, str):
            options = [o for o in wanted if isinstance(o, str)]
            close = difflib.get_close_matches(error.instance, options, n=1, cutoff=0.6)
            if close:
                message += f"; did you mean {quoted(close[0])}?"
        if (
            kind == "type"
            and wanted in ("integer", "number")
            and isinstance(error.instance, str)
            and is_number(resolve_plain(error.instance.strip()))
        ):
            message += "; write the number without quotes"
        if hidden:
            message += f" (the closest of the allowed forms; {hidden} other errors not shown)"
        return self.emit(prefix + message, self.doc.mark(path), path)


def _schema_of(error: ValidationError) -> dict[str, Any]:
    return error.schema if isinstance(error.schema, dict) else {}


def _at(data: Any, path: tuple[Any, ...]) -> Any:
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
        branches: dict[Any, list[ValidationError]] = {}
        for sub in error.context:
            branches.setdefault(sub.relative_schema_path[0], []).append(sub)
        # Prefer a branch whose shape matched (no type error on the value itself), then the
        # branch with the fewest complaints: it is the closest to what was meant.
        fitting = [
            subs
            for subs in branches.values()
            if not any(s.validator == "type" and not s.relative_path for s in subs)
        ] or list(branches.values())
        chosen = min(fitting, key=len)
        hidden += len(error.context) - 1
        leaf = best_match(chosen)
        if leaf is None:
            break
        error = leaf
    return error, hidden


def schema_problems(name: str, doc: Document, shown: str) -> tuple[list[Diagnostic], set[Any]]:
    """C001 for one file (nothing when the fast check passes), and the paths they are about."""
    if fast_schema(name).is_valid(doc.data):
        return [], set()
    explainer = _Explainer(name, schema(name), doc, shown)
    errors = sorted(
        detailed_validator(name).iter_errors(doc.data),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    return explainer.explain(errors), explainer.paths
