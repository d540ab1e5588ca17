"""The search query parser: plain Python, so no database and no Django settings needed."""

from __future__ import annotations

import pytest
from hypothesis import HealthCheck, example, given, settings
from hypothesis import strategies as st

from cards.search.ast import And, Display, FieldFilter, Node, Not, Operator, Or, Query, QuerySyntaxError, Regex, Term
from cards.search.parser import MAX_DEPTH, parse

pytestmark = []


def root(query: str) -> Node | None:
    return parse(query).root


def strip_spans(node: Node | None) -> Node | None:
    """The node with every span zeroed, so tree shape can be compared without offsets."""
    match node:
        case None:
            return None
        case Term() | Regex() | FieldFilter():
            return type(node)(**{**node.__dict__, "span": (0, 0)})
        case Not():
            return Not(strip_spans(node.operand))
        case And() | Or():
            return type(node)(tuple(strip_spans(operand) for operand in node.operands))
    raise AssertionError(node)


def shape(query: str) -> Node | None:
    return strip_spans(root(query))


def t(text: str, quoted: bool = False) -> Term:
    return Term(text, quoted)


def f(name: str, operator: str, value: str, regex: bool = False) -> FieldFilter:
    return FieldFilter(name, Operator(operator), value, regex)


def syntax_error(query: str) -> QuerySyntaxError:
    with pytest.raises(QuerySyntaxError) as info:
        parse(query)
    assert info.value.query == query
    assert 0 <= info.value.position <= len(query)
    return info.value


# --- empty queries ---------------------------------------------------------------------------


@pytest.mark.parametrize("query", ["", " ", "\t\n", "\u3000", " \u3000 \u00a0"])
def test_empty_or_blank_query_has_no_root(query):
    assert parse(query) == Query(root=None, display=Display())


# --- terms -----------------------------------------------------------------------------------


def test_bare_word():
    assert root("dragon") == Term("dragon", quoted=False, span=(0, 6))


def test_bare_word_keeps_case():
    assert shape("Dragon") == t("Dragon")


def test_hyphen_inside_word_is_part_of_it():
    assert root("EB1-008") == Term("EB1-008", span=(0, 7))


def test_slash_inside_word_is_part_of_it():
    assert shape("1/1") == t("1/1")
    assert shape("AT/DF") == t("AT/DF")


def test_double_quoted_phrase():
    assert root('"fire ball"') == Term("fire ball", quoted=True, span=(0, 11))


def test_full_width_quoted_phrase():
    assert root("“火の 玉”") == Term("火の 玉", quoted=True, span=(0, 6))


def test_escaped_quote_and_backslash_inside_phrase():
    assert shape(r'"say \"hi\""') == t('say "hi"', quoted=True)
    assert shape(r'"ends in \\"') == t("ends in \\", quoted=True)
    # Other backslashes are literal, so paths and the like need no doubling.
    assert shape(r'"C:\x"') == t("C:\\x", quoted=True)


def test_quote_ends_the_word_before_it():
    assert shape('foo"bar baz"') == And((t("foo"), t("bar baz", quoted=True)))


def test_cjk_brackets_and_full_width_parens_are_word_characters():
    assert shape("「スキル：B」") == t("「スキル：B」")
    assert shape("（ＡＴ＋１）") == t("（ＡＴ＋１）")
    assert shape("「x」 （y）") == And((t("「x」"), t("（y）")))


def test_ideographic_space_separates_terms():
    assert shape("職業\u3000剣士") == And((t("職業"), t("剣士")))


@pytest.mark.parametrize("space", [" ", "\t", "\n", "\u3000", "\u00a0", "\u2003"])
def test_any_unicode_whitespace_separates_terms(space):
    assert shape(f"a{space}b") == And((t("a"), t("b")))


# --- regex -----------------------------------------------------------------------------------


def test_regex():
    assert root("/fi.e/") == Regex("fi.e", span=(0, 6))


def test_regex_with_escaped_slash():
    assert shape(r"/a\/b/") == Regex("a/b")


def test_regex_keeps_other_escapes():
    assert shape(r"/\d+\s/") == Regex(r"\d+\s")


def test_regex_among_terms():
    assert shape("/^fire/ ball") == And((Regex("^fire"), t("ball")))


def test_invalid_regex_points_into_the_pattern():
    error = syntax_error("x /ab[/")
    assert error.message.startswith("Invalid regular expression: ")
    assert error.position == 5  # the '['


def test_invalid_regex_without_position_points_at_the_regex():
    error = syntax_error("x /a{99999999999999999999}/")
    assert error.message.startswith("Invalid regular expression")
    assert error.position == 2


def test_unclosed_regex():
    error = syntax_error("a /abc")
    assert "Unclosed regular expression" in error.message
    assert error.position == 2


def test_empty_regex():
    assert syntax_error("//").position == 0


@pytest.mark.filterwarnings("error")
def test_regex_that_re_warns_about_is_accepted():
    assert shape("/[[a]/") == Regex("[[a]")


def test_text_glued_after_regex_is_an_error():
    # /a/i must not silently become /a/ AND "i".
    assert syntax_error("/a/i").position == 3


# --- field filters ---------------------------------------------------------------------------


@pytest.mark.parametrize("op", [":", "=", "!=", "<", "<=", ">", ">="])
def test_every_operator(op):
    query = f"at{op}3"
    assert root(query) == FieldFilter("at", Operator(op), "3", span=(0, len(query)))


def test_field_name_is_lower_cased_and_value_keeps_case():
    assert shape("Game:EndBreaker") == f("game", ":", "EndBreaker")


def test_field_name_may_hold_digits_and_underscores():
    assert shape("set_2:X") == f("set_2", ":", "X")


def test_quoted_field_value():
    assert root('name:"fire ball"') == FieldFilter("name", Operator.COLON, "fire ball", span=(0, 16))


def test_full_width_quoted_field_value():
    assert shape("text:“を 得る”") == f("text", ":", "を 得る")


def test_regex_field_value():
    assert root("o:/draw.*card/") == FieldFilter("o", Operator.COLON, "draw.*card", regex=True, span=(0, 14))


def test_regex_field_value_is_validated():
    error = syntax_error("text:/(/")
    assert error.message.startswith("Invalid regular expression")
    assert error.position == 6


def test_is_and_has_are_plain_filters():
    assert shape("is:translated has:cost -has:cost") == And(
        (f("is", ":", "translated"), f("has", ":", "cost"), Not(f("has", ":", "cost")))
    )


def test_full_width_colon_after_ascii_name_is_a_filter():
    assert root("cost：PPT") == FieldFilter("cost", Operator.COLON, "PPT", span=(0, 8))
    assert shape("AT：＋３") == f("at", ":", "＋３")


def test_full_width_colon_after_cjk_name_stays_a_word():
    assert shape("スキル：B") == t("スキル：B")


def test_full_width_letters_are_not_a_field_name():
    assert shape("ＡＴ：＋３") == t("ＡＴ：＋３")


def test_value_may_contain_colons_and_hyphens():
    assert shape("id:EB1-008:x") == f("id", ":", "EB1-008:x")


def test_word_not_starting_with_a_letter_is_not_a_field():
    assert shape("10:00") == t("10:00")
    assert shape("<3") == t("<3")


def test_value_ends_at_a_parenthesis():
    assert shape("(g:eb)") == f("g", ":", "eb")


@pytest.mark.parametrize(
    ("query", "position", "label"),
    [("cost:", 5, "cost:"), ("cost: x", 5, "cost:"), ("at>= x", 4, "at>="), ("(g:)", 3, "g:"), ('n:""', 2, "n:")],
)
def test_empty_field_value(query, position, label):
    error = syntax_error(query)
    assert error.position == position
    assert error.message == f"{label} needs a value."


# --- display words ---------------------------------------------------------------------------


def test_display_words_leave_the_tree():
    query = parse("order:name dragon direction:desc")
    assert strip_spans(query.root) == t("dragon")
    assert query.display == Display(order="name", direction="desc")


def test_display_only_query_has_no_root():
    assert parse("order:cost dir:asc") == Query(root=None, display=Display(order="cost", direction="asc"))


def test_display_words_last_wins_and_are_case_insensitive():
    assert parse("dir:ASC order:a ORDER:B dir:Desc").display == Display(order="b", direction="desc")


def test_display_word_with_full_width_colon():
    assert parse("order：name").display == Display(order="name")


def test_display_words_inside_a_group():
    assert shape("(a order:name b)") == And((t("a"), t("b")))


def test_bad_direction():
    error = syntax_error("x direction:up")
    assert error.position == 12
    assert "'asc' or 'desc'" in error.message


def test_display_word_cannot_be_negated():
    assert syntax_error("a -order:name").position == 2


def test_display_word_needs_colon():
    assert syntax_error("order>name").position == 5


def test_display_word_takes_no_regex():
    assert syntax_error("order:/x/").position == 6


# --- boolean structure -----------------------------------------------------------------------


def test_implicit_and():
    assert root("a b") == And((Term("a", span=(0, 1)), Term("b", span=(2, 3))), span=(0, 3))


@pytest.mark.parametrize("keyword", ["and", "AND", "And"])
def test_explicit_and(keyword):
    assert shape(f"a {keyword} b") == And((t("a"), t("b")))


@pytest.mark.parametrize("keyword", ["or", "OR", "Or"])
def test_or(keyword):
    assert root(f"a {keyword} b") == Or((Term("a", span=(0, 1)), Term("b", span=(5, 6))), span=(0, 6))


def test_and_binds_tighter_than_or():
    assert shape("a b or c") == Or((And((t("a"), t("b"))), t("c")))
    assert shape("a or b c") == Or((t("a"), And((t("b"), t("c")))))
    assert shape("a and b or c and d") == Or((And((t("a"), t("b"))), And((t("c"), t("d")))))


def test_or_chain_is_flat():
    assert shape("a or b or c") == Or((t("a"), t("b"), t("c")))


def test_parentheses_group():
    assert shape("a (b or c)") == And((t("a"), Or((t("b"), t("c")))))


def test_parentheses_need_no_surrounding_space():
    assert shape("(a)or(b)") == Or((t("a"), t("b")))


def test_redundant_parentheses_collapse():
    assert root("((a))") == Term("a", span=(2, 3))


def test_and_span_includes_closing_parenthesis():
    assert root("x (a b)").span == (0, 7)


def test_negated_term():
    assert root("-dragon") == Not(Term("dragon", span=(1, 7)), span=(0, 7))


def test_negated_phrase_regex_and_filter():
    assert shape('-"a b" -/x/ -g:eb') == And((Not(t("a b", quoted=True)), Not(Regex("x")), Not(f("g", ":", "eb"))))


def test_negated_group():
    node = root("-(a or b) c")
    assert strip_spans(node) == And((Not(Or((t("a"), t("b")))), t("c")))
    assert node.operands[0].span == (0, 9)


def test_double_negation_is_kept():
    assert shape("--a") == Not(Not(t("a")))


def test_negated_keyword_is_a_term():
    assert shape("-or") == Not(t("or"))


def test_quoted_keyword_is_a_term():
    assert shape('a "or" b') == And((t("a"), t("or", quoted=True), t("b")))


def test_keyword_inside_word_is_not_a_keyword():
    assert shape("order orc") == And((t("order"), t("orc")))


# --- errors ----------------------------------------------------------------------------------


def test_unclosed_parenthesis_points_at_it():
    error = syntax_error("a ((b) c")
    assert error.position == 2
    assert error.message == "Missing closing parenthesis for the one opened here."


def test_lone_open_parenthesis():
    assert syntax_error("(").position == 0


def test_stray_closing_parenthesis():
    error = syntax_error("a b) c")
    assert error.position == 3
    assert error.message == "Unexpected ')'."
    assert syntax_error(")").position == 0
    assert syntax_error("(a))").position == 3


def test_empty_parentheses():
    assert syntax_error("a ()").position == 2


@pytest.mark.parametrize(
    ("query", "position"),
    [("or a", 0), ("a or", 2), ("a or or b", 2), ("(or a)", 1), ("(a or)", 3), ("a or and b", 2)],
)
def test_or_needs_terms_on_both_sides(query, position):
    error = syntax_error(query)
    assert error.position == position
    assert error.message == "'or' needs a search term on both sides."


@pytest.mark.parametrize(("query", "position"), [("and a", 0), ("a and", 2), ("a and and b", 2), ("a and or b", 2)])
def test_and_needs_terms_on_both_sides(query, position):
    error = syntax_error(query)
    assert error.position == position
    assert error.message == "'and' needs a search term on both sides."


@pytest.mark.parametrize(("query", "position"), [("-", 0), ("a -", 2), ("a - b", 2), ("(a -)", 3), ("--", 1)])
def test_lone_minus(query, position):
    error = syntax_error(query)
    assert error.position == position
    assert error.message.startswith("'-' must be followed by a search term")


@pytest.mark.parametrize(("query", "position"), [('"abc', 0), ('a "b', 2), ("“abc", 0), ('x:"abc', 2), ('"a\\"', 0)])
def test_unclosed_quote(query, position):
    error = syntax_error(query)
    assert error.position == position
    assert error.message == "Unclosed quote."


def test_empty_quotes():
    assert syntax_error('a ""').position == 2


def test_nesting_limit():
    assert root("(" * MAX_DEPTH + "a" + ")" * MAX_DEPTH) == Term("a", span=(MAX_DEPTH, MAX_DEPTH + 1))
    deep = "(" * (MAX_DEPTH + 1) + "a" + ")" * (MAX_DEPTH + 1)
    assert syntax_error(deep).position == MAX_DEPTH
    assert syntax_error("-" * (MAX_DEPTH + 1) + "a").position == 0


def test_error_is_a_value_error_with_message():
    error = syntax_error("(")
    assert isinstance(error, ValueError)
    assert str(error) == error.message


# --- properties ------------------------------------------------------------------------------


def walk(node: Node):
    yield node
    if isinstance(node, Not):
        yield from walk(node.operand)
    elif isinstance(node, And | Or):
        for operand in node.operands:
            yield from walk(operand)


def check_spans(query: str, node: Node | None) -> None:
    if node is None:
        return
    for current in walk(node):
        start, end = current.span
        assert 0 <= start < end <= len(query), (query, current)
        text = query[start:end]
        if isinstance(current, Term) and not current.quoted:
            assert current.text in text
        elif isinstance(current, FieldFilter):
            assert text.lower().startswith(current.name)
            if not current.regex and '"' not in text and "“" not in text:
                assert text.endswith(current.value)
        elif isinstance(current, Not):
            assert text.startswith("-")
            assert start <= current.operand.span[0] <= current.operand.span[1] <= end
        elif isinstance(current, And | Or):
            assert len(current.operands) >= 2
            for operand in current.operands:
                assert start <= operand.span[0] <= operand.span[1] <= end


TOKENS = st.sampled_from(
    [
        "(",
        ")",
        "-",
        "or",
        "OR",
        "and",
        '"',
        "“",
        "”",
        "/",
        "\\",
        ":",
        "：",
        "at>=3",
        "cost:",
        "g=eb",
        "name:/x/",
        "order:name",
        "dir:desc",
        "direction:up",
        "職業",
        "ＡＴ：＋３",
        "スキル：B",
        "「",
        "」",
        "（",
        "）",
        "EB1-008",
        "[",
        "*",
        "//",
        " ",
        " ",
        "\u3000",
        "\t",
    ]
)
QUERIES = st.one_of(st.text(), st.lists(TOKENS, max_size=30).map("".join), st.lists(TOKENS).map(" ".join))


@given(QUERIES)
@example("-")
@example(":")
@example("//")
@example('"')
@example("(")
@example(")")
@example("\x00\x1f\ud800")
@settings(max_examples=1500, deadline=None, suppress_health_check=[HealthCheck.too_slow])
def test_parse_returns_a_query_or_a_syntax_error(query):
    try:
        result = parse(query)
    except QuerySyntaxError as error:
        assert 0 <= error.position <= len(query)
        assert error.query == query
        assert error.message
        return
    assert isinstance(result, Query)
    check_spans(query, result.root)


@given(st.lists(st.sampled_from(["a", "b", "-c", "(d e)", '"f g"', "/h/", "at>=1", "or", "and"]), max_size=12))
@settings(max_examples=500, deadline=None)
def test_well_formed_queries_parse(words):
    """Joining valid terms with single keywords never fails; only keyword placement can."""
    query = " ".join(words)
    keywords = [i for i, word in enumerate(words) if word in ("or", "and")]
    misplaced = any(i in (0, len(words) - 1) or i + 1 in keywords for i in keywords)
    if misplaced:
        syntax_error(query)
    else:
        check_spans(query, root(query))
