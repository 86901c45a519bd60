"""The strict YAML loader: YAML 1.2 core scalars, keys as typed, places, and refusals (SPEC §4 F002/F003)."""

from __future__ import annotations

import math
import time
import tracemalloc

import pytest
import yaml

from varz_deck.core.files.source import LoadError
from varz_deck.core.files.strictyaml import CARD_NODE_CAP, MAX_DEPTH, load
from varz_deck.core.messages.diagnostics import Mark


def card_load(text: str):
    return load(text, aliases=True, node_cap=CARD_NODE_CAP)


def refused(text: str, **kwargs) -> LoadError:
    with pytest.raises(LoadError) as caught:
        load(text, **kwargs)
    return caught.value


# --------------------------------------------------------------------------- core-schema scalars


@pytest.mark.parametrize(
    ("plain", "expected"),
    [
        ("yes", "yes"),
        ("Yes", "Yes"),
        ("YES", "YES"),
        ("no", "no"),
        ("on", "on"),
        ("off", "off"),
        ("y", "y"),
        ("2025-06-01", "2025-06-01"),
        ("1_000", "1_000"),
        ("true", True),
        ("True", True),
        ("false", False),
        ("0x1F", 31),
        ("0o17", 15),
        ("017", 17),
        ("-5", -5),
        ("1.10", 1.1),
        ("1e3", 1000.0),
        ("~", None),
        ("null", None),
        ("", None),
    ],
)
def test_plain_scalar_resolves_by_the_yaml_1_2_core_schema(plain: str, expected: object) -> None:
    data = load(f"v: {plain}\n").data
    assert data["v"] == expected
    assert type(data["v"]) is type(expected)


def test_infinity_and_nan_are_floats() -> None:
    data = load("a: .inf\nb: -.Inf\nc: .nan\n").data
    assert data["a"] == math.inf
    assert data["b"] == -math.inf
    assert math.isnan(data["c"])


def test_quoted_scalars_stay_strings() -> None:
    data = load("a: 'true'\nb: \"0x1F\"\nc: '~'\n").data
    assert data == {"a": "true", "b": "0x1F", "c": "~"}


def test_text_gives_back_what_the_user_typed_for_non_strings() -> None:
    doc = load("a: 1.10\nb: [0x1F, true]\nc: plain\n")
    assert doc.data["a"] == 1.1
    assert doc.text(("a",), doc.data["a"]) == "1.10"
    assert doc.text(("b", 0), doc.data["b"][0]) == "0x1F"
    assert doc.text(("b", 1), doc.data["b"][1]) == "true"
    assert doc.text(("c",), doc.data["c"]) == "plain"


@pytest.mark.parametrize("key", ["Yes", "1.10", "null", "true", "~", "0x1F", "2025-06-01", "007"])
def test_mapping_keys_stay_exactly_as_typed(key: str) -> None:
    data = load(f"{key}: 1\n").data
    assert data == {key: 1}


def test_core_tags_are_accepted_and_typed() -> None:
    data = load("a: !!str 1\nb: !!int 0x1F\nc: !!float 1\nd: !!null ''\ne: ! 5\n").data
    assert data == {"a": "1", "b": 31, "c": 1.0, "d": None, "e": "5"}
    assert type(data["c"]) is float


def test_a_core_tag_that_does_not_fit_its_value_is_f002() -> None:
    err = refused("a: !!int hello\n")
    assert err.code == "F002"
    assert err.mark == Mark(1, 4)


def test_empty_document_is_none() -> None:
    assert load("").data is None
    assert load("# only a comment\n").data is None


# --------------------------------------------------------------------------- duplicate keys


def test_duplicate_key_is_recorded_with_both_places_and_first_value_kept() -> None:
    doc = load("a: 1\nb: 2\na: 3\n")
    assert doc.data == {"a": 1, "b": 2}
    [dup] = doc.duplicates
    assert (dup.path, dup.key, dup.value) == ((), "a", 3)
    assert dup.first == Mark(1, 1)
    assert dup.second == Mark(3, 1)


def test_duplicate_key_in_a_nested_flow_mapping_has_its_columns() -> None:
    doc = load("top:\n  inner: {b: 1, b: 2}\n")
    [dup] = doc.duplicates
    assert dup.path == ("top", "inner")
    assert dup.first == Mark(2, 11)
    assert dup.second == Mark(2, 17)


def test_quoted_and_plain_spellings_of_one_key_are_duplicates() -> None:
    doc = load('"hero": A\nhero: B\n')
    assert doc.data == {"hero": "A"}
    assert [(d.first, d.second) for d in doc.duplicates] == [(Mark(1, 1), Mark(2, 1))]


def test_a_key_given_three_times_gives_two_duplicates() -> None:
    doc = load("a: 1\na: 2\na: 3\n")
    assert [(d.second.line, d.value) for d in doc.duplicates] == [(2, 2), (3, 3)]
    assert all(d.first == Mark(1, 1) for d in doc.duplicates)


# --------------------------------------------------------------------------- marks


def test_marks_are_one_based_and_point_at_nested_values() -> None:
    doc = load("a:\n  - x: 1\n    y: [p, {q: r}]\n")
    assert doc.mark(("a", 0, "x")) == Mark(2, 8)
    assert doc.mark(("a", 0, "y", 0)) == Mark(3, 9)
    assert doc.mark(("a", 0, "y", 1, "q")) == Mark(3, 16)
    assert doc.key_mark(("a", 0, "y")) == Mark(3, 5)
    assert doc.key_mark(("a",)) == Mark(1, 1)


def test_mark_falls_back_to_the_nearest_placed_ancestor() -> None:
    doc = load("a:\n  b: 1\n")
    assert doc.mark(("a", "b", "missing", 3)) == Mark(2, 6)


def test_columns_count_characters_not_bytes() -> None:
    doc = load("茉莉: [茉, 1]\n")
    assert doc.mark(("茉莉", 1)) == Mark(1, 9)


# --------------------------------------------------------------------------- aliases


def test_alias_in_deck_mode_is_f002_at_the_alias() -> None:
    err = refused("a: &x 1\nb: *x\n")
    assert err.code == "F002"
    assert err.mark == Mark(2, 4)
    assert "alias" in err.message


def test_anchor_without_alias_is_fine_in_deck_mode() -> None:
    assert load("a: &x 1\n").data == {"a": 1}


def test_aliases_are_expanded_in_card_mode() -> None:
    doc = card_load("base: &b {power: 2, keywords: [haste]}\ncopy: *b\nn: &n 7\nm: *n\n")
    assert doc.data["copy"] == {"power": 2, "keywords": ["haste"]}
    assert doc.data["m"] == 7
    assert doc.mark(("copy",)) == Mark(2, 7)


def test_unknown_alias_in_card_mode_is_f002() -> None:
    with pytest.raises(LoadError) as caught:
        card_load("a: *nowhere\n")
    assert caught.value.code == "F002"
    assert caught.value.mark == Mark(1, 4)


def test_alias_of_an_anchored_key_is_expanded_in_card_mode() -> None:
    assert card_load("&k a: 1\nb: *k\n").data == {"a": 1, "b": "a"}


def _billion_laughs() -> str:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    previous = "a"
    for name in "bcdefghi":
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
        previous = name
    return "\n".join(lines) + "\n"


def test_billion_laughs_is_small() -> None:
    assert len(_billion_laughs().encode()) < 600


def test_billion_laughs_in_card_mode_is_refused_quickly() -> None:
    start = time.process_time()
    with pytest.raises(LoadError) as caught:
        card_load(_billion_laughs())
    elapsed = time.process_time() - start
    assert caught.value.code == "F002"
    assert caught.value.mark is not None
    assert elapsed < 1.0


def test_billion_laughs_in_card_mode_uses_little_memory() -> None:
    tracemalloc.start()
    try:
        with pytest.raises(LoadError):
            card_load(_billion_laughs())
        _, peak = tracemalloc.get_traced_memory()
    finally:
        tracemalloc.stop()
    assert peak < 50 * 1024 * 1024


def test_billion_laughs_in_deck_mode_is_refused_at_the_first_alias() -> None:
    err = refused(_billion_laughs())
    assert err.code == "F002"
    assert err.mark == Mark(2, 8)


def test_nested_anchors_around_one_alias_load_in_time_proportional_to_the_nodes() -> None:
    lines = ['a: &a ["lol","lol","lol","lol","lol","lol","lol","lol","lol"]']
    previous = "a"
    for name in "bcde":  # e expands to about 66,000 nodes: within the alias budget
        lines.append(f"{name}: &{name} [" + ",".join([f"*{previous}"] * 9) + "]")
        previous = name
    depth = 20
    lines.append("z: " + "".join(f"&n{i} [" for i in range(depth)) + "*e" + "]" * depth)
    text = "\n".join(lines) + "\n"
    assert len(text) < 600
    start = time.process_time()
    card_load(text)
    assert time.process_time() - start < 0.25  # a few hundred events: milliseconds


def test_merge_key_in_card_mode_copies_missing_keys() -> None:
    doc = card_load("base: &b {power: 2, cost: 1}\ncard:\n  <<: *b\n  extra: 3\n")
    assert doc.data["card"] == {"power": 2, "cost": 1, "extra": 3}


def test_merge_key_in_card_mode_lets_explicit_keys_win() -> None:
    doc = card_load("base: &b {name: A, cost: 1}\ncard:\n  <<: *b\n  name: B\n")
    assert doc.data["card"] == {"name": "B", "cost": 1}
    assert doc.duplicates == []


# --------------------------------------------------------------------------- depth, tags, documents


def test_nesting_at_the_depth_limit_loads() -> None:
    text = "[" * MAX_DEPTH + "]" * MAX_DEPTH
    data = load(text).data
    for _ in range(MAX_DEPTH - 1):
        data = data[0]
    assert data == []


def test_nesting_deeper_than_64_is_f002() -> None:
    assert MAX_DEPTH == 64
    err = refused("[" * 65 + "]" * 65)
    assert err.code == "F002"
    assert err.mark == Mark(1, 65)


def test_very_deep_block_nesting_is_f002_not_a_crash() -> None:
    text = "".join(f"{' ' * (2 * i)}k{i}:\n" for i in range(300)) + " " * 600 + "v\n"
    err = refused(text)
    assert err.code == "F002"


def test_deep_nesting_in_card_mode_is_f002() -> None:
    with pytest.raises(LoadError) as caught:
        card_load("{a: " * 200 + "1" + "}" * 200)
    assert caught.value.code == "F002"


@pytest.mark.parametrize(
    "text",
    [
        'a: !!python/object/apply:os.system ["touch {marker}"]\n',
        "a: !!python/object/apply:os.system\n  - touch {marker}\n",
        "a: !!python/name:os.system\n",
        'a: !!python/object/new:subprocess.check_output [["touch", "{marker}"]]\n',
        '%TAG !p! tag:yaml.org,2002:python/\n---\na: !p!object/apply:os.system ["touch {marker}"]\n',
        'a: !<tag:yaml.org,2002:python/object/apply:os.system> ["touch {marker}"]\n',
    ],
)
@pytest.mark.parametrize("aliases", [False, True])
def test_python_tags_are_f002_and_nothing_runs(text: str, aliases: bool, tmp_path) -> None:
    marker = tmp_path / "pwned"
    with pytest.raises(LoadError) as caught:
        load(text.format(marker=marker), aliases=aliases)
    assert caught.value.code == "F002"
    assert caught.value.mark is not None
    assert not marker.exists()


def test_python_tag_on_a_mapping_key_is_f002() -> None:
    err = refused("!!python/object/apply:os.system hero: 1\n")
    assert err.code == "F002"


@pytest.mark.parametrize("tag", ["!!set", "!!omap", "!!binary", "!!timestamp", "!custom"])
def test_non_core_tags_are_f002(tag: str) -> None:
    assert refused(f"a: {tag} x\n").code == "F002"


def test_multiple_documents_are_f002_at_the_second() -> None:
    err = refused("a: 1\n---\nb: 2\n")
    assert err.code == "F002"
    assert err.mark == Mark(2, 1)
    assert "document" in err.message


def test_multiple_documents_after_an_end_marker_are_f002() -> None:
    assert refused("a: 1\n...\n---\nb: 2\n").code == "F002"


@pytest.mark.parametrize(
    "text", ["? [a, b]\n: 1\n", "? {a: 1}\n: 1\n", "[a]: 1\n", "{[a]: 1}\n", "{{a: 1}: 2}\n"]
)
def test_a_non_scalar_mapping_key_is_f002(text: str) -> None:
    assert refused(text).code == "F002"


@pytest.mark.parametrize("aliases", [False, True])
def test_an_alias_as_a_mapping_key_is_f002(aliases: bool) -> None:
    assert refused("a: &k x\n*k : 1\n", aliases=aliases).code == "F002"


@pytest.mark.parametrize(
    ("text", "mark"),
    [
        ("a: b: c\n", Mark(1, 5)),
        ("a: [1, 2\nb: 3\n", None),
        ("a: 'unclosed\n", None),
        ("\ta: 1\n", Mark(1, 1)),
        ("a: \x07\n", None),
    ],
)
def test_syntax_errors_are_f002_with_a_place(text: str, mark: Mark | None) -> None:
    err = refused(text)
    assert err.code == "F002"
    assert err.mark is not None
    if mark is not None:
        assert err.mark == mark


def test_node_cap_is_f002() -> None:
    err = refused("[" + ", ".join(["1"] * 50) + "]", node_cap=20)
    assert err.code == "F002"
    assert err.mark is not None


# --------------------------------------------------------------------------- exact refusals
# The message, code and place of each refusal, in English and in Japanese (the Japanese text is the
# catalogue's, so a message filed under another context than its code falls back to English).


def _japanese(err: LoadError) -> str:
    return err.message.message.render("ja")


def test_the_alias_character_budget_counts_every_alias_and_allows_exactly_the_cap() -> None:
    anchored = "a: &t " + "x" * 400 + "\n"
    # 2 aliases of 400 characters: 800, within 1,000
    doc = load(anchored + "b: *t\nc: *t\n", aliases=True, alias_chars=1000)
    assert doc.data["c"] == "x" * 400
    # exactly the cap is within it: 2 aliases of 500 characters
    exact = load("a: &t " + "y" * 500 + "\nb: *t\nc: *t\n", aliases=True, alias_chars=1000)
    assert exact.data["c"] == "y" * 500
    # the third alias brings 1,200: refused at that alias
    err = refused(anchored + "b: *t\nc: *t\nd: *t\n", aliases=True, alias_chars=1000)
    assert (err.code, err.mark) == ("F002", Mark(4, 4))
    assert err.message == (
        "aliases expand to more than 1,000 characters of text in this file; "
        "write the values out instead"
    )
    assert _japanese(err) == (
        "このファイルではエイリアスの展開が合計 1,000 文字を超えます。"
        "エイリアスを使わずに値を書き出してください"
    )


def test_the_alias_node_budget_allows_exactly_the_cap() -> None:
    text = "a: &n 1\n" + "".join(f"k{i}: *n\n" for i in range(3))
    assert load(text, aliases=True, alias_nodes=3).data["k2"] == 1
    err = refused(text + "k3: *n\n", aliases=True, alias_nodes=3)
    assert (err.code, err.mark) == ("F002", Mark(5, 5))


def test_a_merge_key_with_a_scalar_among_its_mappings_is_f002_at_the_list() -> None:
    text = "a: &a {x: 1}\nn: &n 7\nc:\n  <<: [*a, *n]\n"
    err = refused(text, aliases=True)
    assert (err.code, err.mark) == ("F002", Mark(4, 7))
    assert err.message == "a merge key (<<) takes a mapping or a list of mappings"
    assert _japanese(err) == "マージキー（<<）にはマッピングか、マッピングのリストを書いてください"


@pytest.mark.parametrize(
    ("text", "shown"),
    [
        ("a: !!int hello\n", "'!!int'"),  # a core tag is shown short
        ("a: !custom x\n", "'!custom'"),  # another tag as typed
        ("a: !<tag:yaml.org,2002:set> x\n", "'!!set'"),
    ],
)
def test_a_refused_tag_is_named_in_the_message(text: str, shown: str) -> None:
    err = refused(text)
    assert (err.code, err.mark) == ("F002", Mark(1, 4))
    assert err.message == f"tag {shown} is not allowed here; remove it"
    assert _japanese(err) == f"タグ「{shown[1:-1]}」はここでは使えません：削除してください"


def test_bool_tag_types_a_boolean_and_other_core_tags_refuse_booleans() -> None:
    data = load("a: !!bool true\nb: !!bool False\n").data
    assert data == {"a": True, "b": False}
    assert type(data["a"]) is bool
    for text in ("a: !!int true\n", "a: !!float false\n", "a: !!bool 1\n", "a: !!null false\n"):
        assert refused(text).code == "F002", text


def test_a_tag_that_only_looks_like_a_core_tag_is_refused() -> None:
    # same length as the core prefix, another year: not the core schema's `int`
    assert refused("a: !<tag:yaml.org,2003:int> 5\n").code == "F002"
    assert refused("a: !abcdefghijklmnopqint 5\n").code == "F002"


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("7" * 150, "77777777…(150 digits)"),
        ("-" + "123456789" * 20, "-12345678…(180 digits)"),
        ("+" + "9" * 1234, "+99999999…(1,234 digits)"),
    ],
)
def test_an_integer_too_long_to_convert_prints_as_the_digits_typed_cut(
    typed: str, shown: str
) -> None:
    value = load(f"v: {typed}\n").data["v"]
    assert str(value) == shown
    assert f"{value}" == shown and format(value, "") == shown
    assert (value < -(10**99)) if typed.startswith("-") else (value > 10**99)


NESTED_300 = "".join(f"{' ' * (2 * i)}k{i}:\n" for i in range(300)) + " " * 600 + "v\n"


@pytest.mark.parametrize(
    ("text", "options", "mark", "message"),
    [
        ("a: b: c\n", {}, Mark(1, 5), "YAML syntax error: mapping values are not allowed in this context"),
        ("a: [1, 2\nb: 3\n", {}, Mark(2, 2), "YAML syntax error: did not find expected ',' or ']'"),
        ("a: 'unclosed\n", {}, Mark(2, 1), "YAML syntax error: found unexpected end of stream"),
        ("x: 1\nb: \x07\n", {}, Mark(2, 4), "YAML cannot be read: control characters are not allowed"),
        ("x: 1\nyy: 2\nb: c\x00\n", {}, Mark(3, 5), "YAML cannot be read: control characters are not allowed"),
        ("a: \ud800\n", {}, None, "YAML cannot be read (UnicodeEncodeError)"),
        ("[" + ", ".join(["1"] * 1001) + "]", {"node_cap": 1000}, Mark(1, 2999), "more than 1,000 YAML nodes (aliases expanded)"),
        ("a: &x 1\nb: *x\n", {}, Mark(2, 4), "aliases (*name) are not allowed in deck files; write it out"),
        ("a: *nowhere\n", {"aliases": True}, Mark(1, 4), "unknown alias 'nowhere'"),
        ("a: &k x\n*k : 1\n", {"aliases": True}, Mark(2, 1), "an alias cannot be a mapping key"),
        ("!!str a: 1\n", {}, Mark(1, 1), "tags are not allowed on keys; remove it"),
        ("a: 1\n! b: 2\n", {}, Mark(2, 1), "tags are not allowed on keys; remove it"),
        ("? [a, b]\n: 1\n", {}, Mark(1, 3), "a mapping key must be a plain value, not a list or mapping"),
        ("{{a: 1}: 2}\n", {}, Mark(1, 2), "a mapping key must be a plain value, not a list or mapping"),
        ("[" * 65 + "]" * 65, {}, Mark(1, 65), "nested more than 64 levels deep"),
        (NESTED_300, {}, Mark(65, 129), "nested more than 64 levels deep"),
        ("a: !!map [1]\n", {}, Mark(1, 4), "tag '!!map' is not allowed here; remove it"),
        ("a: !!seq {b: 1}\n", {}, Mark(1, 4), "tag '!!seq' is not allowed here; remove it"),
        ("a: !custom [1]\n", {}, Mark(1, 4), "tag '!custom' is not allowed here; remove it"),
        ("a: 1\n---\nb: 2\n", {}, Mark(2, 1), "more than one YAML document (---); put one deck in a file"),
        ("a: 1\n...\n---\nb: 2\n", {}, Mark(3, 1), "more than one YAML document (---); put one deck in a file"),
        (
            "a: &x 1\nb: &y [*x, *x]\nc: *y\n", {"aliases": True, "alias_nodes": 4}, Mark(3, 4),
            "aliases expand to more than 4 YAML nodes in this file (merge keys count every key they "
            "copy); write the values out instead",
        ),
    ],
)  # fmt: skip
def test_each_refusal_has_its_message_and_place(
    text: str, options: dict, mark: Mark | None, message: str
) -> None:
    err = refused(text, **options)
    assert (err.code, err.mark, err.message) == ("F002", mark, message)
    template = err.message.message
    assert template.context == "F002"
    assert template.render("ja") != message  # translated, under the code's context


@pytest.mark.parametrize(
    ("error", "message"),
    [
        (RecursionError, "YAML is too deeply nested or too large"),
        (MemoryError, "YAML is too deeply nested or too large"),
        (ValueError, "YAML cannot be read (ValueError)"),
    ],
)
def test_an_error_inside_the_parser_is_f002_without_a_place(
    monkeypatch: pytest.MonkeyPatch, error: type[BaseException], message: str
) -> None:
    from varz_deck.core.files import strictyaml

    def failing(*args: object) -> None:
        raise error("inside libyaml")

    monkeypatch.setattr(strictyaml, "_load", failing)
    err = refused("a: 1\n")
    assert (err.code, err.mark, err.message) == ("F002", None, message)
    assert err.message.message.context == "F002"


# --------------------------------------------------------------------------- the core schema, edge by edge


@pytest.mark.parametrize(
    ("plain", "expected"),
    [
        ("NULL", None), ("Null", None), ("TRUE", True), ("FALSE", False), ("False", False),
        ("+5", 5), ("0xff", 255), ("0xFF", 255), (".5", 0.5), ("1.", 1.0), ("1e-3", 0.001),
        ("1E3", 1000.0), ("-1.5e+2", -150.0), ("+.inf", math.inf), ("-.INF", -math.inf),
        # not core-schema numbers: strings as typed
        ("0o", "0o"), ("0x", "0x"), ("0XFF", "0XFF"), ("0O17", "0O17"), ("+0x1", "+0x1"),
        ("0o8", "0o8"), ("0b1", "0b1"), (".inf.", ".inf."), ("inf", "inf"), ("nan", "nan"),
        ("-.nan", "-.nan"), ("NULL!", "NULL!"), ("truE", "truE"),
    ],
)  # fmt: skip
def test_core_schema_edges(plain: str, expected: object) -> None:
    value = load(f"v: {plain}\n").data["v"]
    assert value == expected and type(value) is type(expected)


@pytest.mark.parametrize("nan", [".nan", ".NaN", ".NAN"])
def test_every_spelling_of_nan(nan: str) -> None:
    value = load(f"v: {nan}\n").data["v"]
    assert isinstance(value, float) and math.isnan(value)


@pytest.mark.parametrize(
    ("typed", "value"),
    [
        ("9" * 100, 10**100 - 1),  # 100 digits: converted
        ("-" + "9" * 99, -(10**99 - 1)),  # 100 characters with the sign
        ("0x" + "f" * 100, 16**100 - 1),
        ("0o" + "7" * 100, 8**100 - 1),
    ],
)
def test_integers_up_to_100_characters_are_converted_exactly(typed: str, value: int) -> None:
    got = load(f"v: {typed}\n").data["v"]
    assert got == value and type(got) is int


@pytest.mark.parametrize(
    ("typed", "shown"),
    [
        ("9" * 101, "99999999…(101 digits)"),
        ("-" + "9" * 100, "-99999999…(100 digits)"),
        ("0x" + "f" * 101, "ffffffff…(101 digits)"),
        ("0o" + "7" * 101, "77777777…(101 digits)"),
    ],
)
def test_longer_integers_are_not_converted(typed: str, shown: str) -> None:
    got = load(f"v: {typed}\n").data["v"]
    assert type(got) is not int and str(got) == shown


def test_text_is_kept_only_for_plain_scalars_that_are_not_strings() -> None:
    doc = load("a: !!int 0x1F\nb: '1.10'\nc: 1.10\nd: text\ne: [true, ~]\nf: ! 5\n")
    assert doc.raw == {("c",): "1.10", ("e", 0): "true", ("e", 1): "~"}


# --------------------------------------------------------------------------- what nodes and aliases cost


def test_every_node_counts_once_and_an_alias_counts_itself_and_what_it_stands_for() -> None:
    assert load("[1, 2]", node_cap=3).data == [1, 2]
    assert refused("[1, 2]", node_cap=2).mark == Mark(1, 5)
    # a, the map, the sequence, 1, 2, b: 6; the alias: 1 + the 3 nodes of the sequence
    text = "a: &x [1, 2]\nb: *x\n"
    assert load(text, aliases=True, node_cap=10).data == {"a": [1, 2], "b": [1, 2]}
    assert refused(text, aliases=True, node_cap=9).mark == Mark(2, 4)


def test_an_alias_of_a_mapping_costs_its_keys_values_and_their_characters() -> None:
    # {ab: cd, ef: [gh]}: the map, 2 keys, cd, the list, gh = 6 nodes; ab+cd+ef+gh = 8 characters
    text = "base: &b {ab: cd, ef: [gh]}\nc: *b\n"
    assert load(text, aliases=True, alias_nodes=6).data["c"] == {"ab": "cd", "ef": ["gh"]}
    assert refused(text, aliases=True, alias_nodes=5).mark == Mark(2, 4)
    assert load(text, aliases=True, alias_chars=8).data["c"] == {"ab": "cd", "ef": ["gh"]}
    assert refused(text, aliases=True, alias_chars=7).mark == Mark(2, 4)


def test_an_alias_of_an_anchored_key_costs_one_node_and_its_characters() -> None:
    text = "&k abcdef: 1\nb: *k\nc: *k\n"
    assert load(text, aliases=True, alias_chars=12, alias_nodes=2).data == {
        "abcdef": 1,
        "b": "abcdef",
        "c": "abcdef",
    }
    assert refused(text, aliases=True, alias_chars=11).mark == Mark(3, 4)
    assert refused(text, aliases=True, alias_nodes=1).mark == Mark(3, 4)


def test_a_merge_key_whose_alias_is_a_list_of_scalars_is_f002_at_the_alias() -> None:
    err = refused("l: &l [1]\nc:\n  <<: *l\n", aliases=True)
    assert (err.code, err.mark) == ("F002", Mark(3, 7))
    assert err.message == "a merge key (<<) takes a mapping or a list of mappings"


def test_core_collection_tags_are_accepted_on_their_own_kind() -> None:
    assert load("a: !!map {b: 1}\nc: !!seq [1]\nd: ! [2]\ne: ! {f: 3}\n").data == {
        "a": {"b": 1},
        "c": [1],
        "d": [2],
        "e": {"f": 3},
    }


def test_the_node_cap_is_reported_at_the_collection_that_passes_it() -> None:
    assert refused("[[1]]", node_cap=1).mark == Mark(1, 2)
    assert refused("a: {b: [1]}", node_cap=4).mark == Mark(1, 8)  # the map, a, {, b, then [


def test_mark_falls_back_to_the_nearest_ancestor_one_level_up() -> None:
    doc = load("a:\n  b: 1\n")
    assert doc.mark(("a", "b", "missing")) == Mark(2, 6)
    assert doc.mark(("a", "missing")) == Mark(2, 3)


@pytest.mark.parametrize(
    ("problem", "context", "mark", "message"),
    [
        (None, "while parsing a block mapping", None, "YAML syntax error: while parsing a block mapping"),
        (None, None, None, "YAML syntax error: invalid YAML"),
        (None, "while scanning", yaml.Mark("f", 0, 2, 4, None, None), "YAML syntax error: while scanning"),
    ],
)  # fmt: skip
def test_a_syntax_error_without_a_problem_says_its_context(
    monkeypatch: pytest.MonkeyPatch,
    problem: str | None,
    context: str | None,
    mark: yaml.Mark | None,
    message: str,
) -> None:
    from varz_deck.core.files import strictyaml

    def failing(*args: object) -> None:
        raise yaml.MarkedYAMLError(context=context, context_mark=mark, problem=problem)

    monkeypatch.setattr(strictyaml, "_load", failing)
    err = refused("a: 1\n")
    assert (err.code, err.message) == ("F002", message)
    assert err.mark == (Mark(3, 5) if mark is not None else None)


def test_a_yaml_error_without_a_reason_or_a_position_is_unreadable_yaml(
    monkeypatch: pytest.MonkeyPatch,
) -> None:
    from varz_deck.core.files import strictyaml

    def failing(*args: object) -> None:
        raise yaml.YAMLError("no reason given")

    monkeypatch.setattr(strictyaml, "_load", failing)
    err = refused("a: 1\n")
    assert (err.code, err.mark, err.message) == (
        "F002",
        None,
        "YAML cannot be read: unreadable YAML",
    )
