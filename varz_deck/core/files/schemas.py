"""The JSON Schemas the package ships, and schema errors turned into placed diagnostics."""

from __future__ import annotations

import json
from collections.abc import Iterator
from functools import cache
from typing import TYPE_CHECKING, Any

from varz_deck.core.files.resources import on_schema_change
from varz_deck.core.files.schemahints import hinted
from varz_deck.core.files.strictyaml import Document, Path
from varz_deck.core.messages.diagnostics import Diagnostic, diag
from varz_deck.core.messages.i18n import Joined, Message, Quoted, Term, msg

if TYPE_CHECKING:
    from jsonschema.exceptions import ValidationError
    from jsonschema.protocols import Validator

    from varz_deck.core.files.strictyaml import Data


@cache
def validator(name: str) -> Validator:
    """A compiled Draft 2020-12 validator, built once per process."""
    from jsonschema import Draft202012Validator, validators

    from varz_deck.core.files.strictyaml import is_whole

    # "integer" as the fast check has it: whole as written (2.9999999999999999 is not)
    checker = Draft202012Validator.TYPE_CHECKER.redefine("integer", lambda _, v: is_whole(v))
    made: Validator = validators.extend(  # type: ignore[no-untyped-call]  # jsonschema: untyped
        Draft202012Validator, type_checker=checker
    )(hinted(name))
    return made


on_schema_change(validator.cache_clear)


def _sub(error: ValidationError) -> dict[str, Any]:
    return error.schema if isinstance(error.schema, dict) else {}


def _instance_keys(error: ValidationError) -> list[str]:
    return list(error.instance) if isinstance(error.instance, dict) else []


def _kind(error: ValidationError) -> str:
    return str(error.validator)


def _relevance(error: ValidationError) -> tuple[int, int]:
    # Deeper errors and errors whose instance matched the branch's type come first.
    return (-len(error.path), 0 if _kind(error) in ("type", "oneOf", "anyOf") else -1)


def branches(error: ValidationError) -> list[list[ValidationError]]:
    """A oneOf/anyOf failure's errors, grouped by the branch of the schema each comes from."""
    by_branch: dict[str | int, list[ValidationError]] = {}
    for sub in error.context or ():
        by_branch.setdefault(sub.relative_schema_path[0], []).append(sub)
    return list(by_branch.values())


def type_matched(branch: list[ValidationError]) -> bool:
    """Whether a branch's type fit the value itself (its errors are about what is inside)."""
    return not any(s.validator == "type" and not s.relative_path for s in branch)


def _leaves(error: ValidationError) -> list[ValidationError]:
    """What a person needs to see of a oneOf/anyOf failure: every problem of the branch whose
    type matched the value (a mapping section's bad counts, a list's bad items), or the failure
    itself when no branch's type matched (a section that is a number)."""
    if not error.context:
        return [error]
    matched = [subs for subs in branches(error) if type_matched(subs)]
    if not matched:
        return [error]
    best = min(matched, key=lambda subs: min(map(_relevance, subs)))
    return [leaf for sub in best for leaf in _leaves(sub)]


def _where(error: ValidationError) -> str:
    return "/".join(str(p) for p in error.absolute_path)


def _message(error: ValidationError, owner: Message) -> Message:
    hint = _sub(error).get("x-message")
    where = _where(error)
    kind = _kind(error)
    if kind == "required":
        wanted = error.validator_value if isinstance(error.validator_value, list) else []
        missing = Joined(tuple(Quoted(m) for m in wanted if m not in _instance_keys(error)))
        if where:
            return msg("schema", "{where}: missing required {fields}")(where=where, fields=missing)
        return msg("schema", "missing required {fields}")(fields=missing)
    if kind == "False schema":
        return msg("schema", "{key} is not a field of {owner}; remove it")(
            key=Quoted(str(error.absolute_path[-1])), owner=owner
        )
    if hint:
        got = Quoted(_short(error.instance))
        if where:
            return msg("schema", "{where}: {hint} (got {value})")(
                where=where, hint=Message("schema", hint), value=got
            )
        return msg("schema", "{hint} (got {value})")(hint=Message("schema", hint), value=got)
    if where:
        return msg("schema", "{where}: {error}")(where=where, error=error.message)
    return msg("schema", "{error}")(error=error.message)


def _owner(instance: object, path: Path) -> Message:
    """'a spil card' for a field of a card whose type is known, else 'this mapping'."""
    node: Any = instance  # indexed blindly: a TypeError says it cannot be
    for step in path[:-1]:
        try:
            node = node[step]
        except (KeyError, IndexError, TypeError):
            return msg("schema", "this mapping")
    kind = node.get("type") if isinstance(node, dict) else None
    if isinstance(kind, str):
        return msg("schema", "a {type} card")(type=Term("card type", kind))
    return msg("schema", "this mapping")


def _short(value: object) -> str:
    if (isinstance(value, int) and not isinstance(value, bool)) or hasattr(value, "text"):
        text = str(value)  # a HugeInt (4,301+ digits) says so, a RoundedFloat as written
    else:
        text = json.dumps(value, ensure_ascii=False, default=str)
    return text if len(text) <= 40 else text[:37] + "..."


def schema_diagnostics(
    name: str,
    instance: Data,
    doc: Document,
    code: str,
    *,
    file: str | None,
    what: str | Message,
    sections: tuple[str, ...] = (),
) -> Iterator[Diagnostic]:
    """One diagnostic per schema problem, placed at the offending value (or key).

    `what` names the document ("a deck"); `sections`: top-level keys that name a section, so
    diagnostics under them carry it. A document the fast check accepts needs no jsonschema run.
    """
    from varz_deck.core.files.fastschema import fast_schema

    if fast_schema(name).is_valid(instance):
        return
    errors = sorted(
        (leaf for top in validator(name).iter_errors(instance) for leaf in _leaves(top)),
        key=lambda e: list(map(str, e.absolute_path)),
    )
    seen: set[tuple[str, ...]] = set()
    for error in errors:
        path = tuple(error.absolute_path)
        if _kind(error) == "additionalProperties":
            for key in sorted(set(_instance_keys(error)) - set(_sub(error).get("properties", {}))):
                yield diag(
                    code,
                    _message_for_key(error, key, what),
                    doc.key_mark((*path, key)),
                    file=file,
                    section=_section(path, sections),
                )
            continue
        marker = tuple(map(str, path))  # one problem per value, however many keywords fail
        if marker in seen:
            continue
        seen.add(marker)
        mark = doc.key_mark(path) if _kind(error) == "False schema" else doc.mark(path)
        message = _message(error, _owner(instance, path))
        yield diag(code, message, mark, file=file, section=_section(path, sections))


def _section(path: Path, sections: tuple[str, ...]) -> str | None:
    return str(path[0]) if path and path[0] in sections else None


def _message_for_key(error: ValidationError, key: str, what: str | Message) -> Message:
    where = _where(error)
    allowed = Joined(tuple(_sub(error).get("properties", {})))
    if where:
        return msg("schema", "{where}: unknown key {key} in {what}; allowed keys: {allowed}")(
            where=where, key=Quoted(key), what=what, allowed=allowed
        )
    return msg("schema", "unknown key {key} in {what}; allowed keys: {allowed}")(
        key=Quoted(key), what=what, allowed=allowed
    )
