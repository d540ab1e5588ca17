"""Input meant to break the site, and data that should never be there: always a clear 4xx, never a 500,
and nothing written.

- JSON bodies nested deeply or too large, and import files of the same kind;
- regular expressions that backtrack (RE2 runs them in linear time) or that RE2 cannot run;
- statements that run too long (stopped by the time limit);
- the browsable API opened in a browser;
- a page number too large for the database's integers (past the end, as any page past it);
- a card whose stored values break its game's declarations (put there by hand): every page that
  shows it answers, marks the value invalid and treats it as unknown; the admin refuses to store one.
"""

from __future__ import annotations

import json
import sys

import pytest
from django.contrib.auth import get_user_model
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import connection
from django.test import Client

from cards import selectors
from cards.gamedefs import all_games
from cards.gamedefs.base import BooleanType, ChoiceListType, ChoiceType, IntegerType, SymbolStringType
from cards.models import Card
from cards.search import backends
from cardsite import jsonlimits
from cardsite.db import StatementTimeout, statement_time_limit
from decks import services
from decks.decklists.services import default_zone
from decks.models import Deck
from decks.rules import get_rules

from .support.database import _slow_statement
from .synthetic_decks import card, game

PASSWORD = "test-password-1234"
DEEP = "[" * 5000 + "]" * 5000


# --- JSON ----------------------------------------------------------------------------------------


@pytest.mark.django_db
@pytest.mark.parametrize("path", ["/api/decks/validate/", "/api/accounts/token/"])
@pytest.mark.parametrize("body", [DEEP, "[" * 40 + "]" * 40, '{"a": ' * 40 + "1" + "}" * 40])
def test_deeply_nested_json_is_a_400_without_logging_in(client, path, body):
    response = client.post(path, data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]


@pytest.mark.parametrize("body", [DEEP, "[" * 40 + "]" * 40])
def test_deeply_nested_json_from_a_user_is_a_400_and_writes_nothing(client, owner, body):
    client.force_login(owner)
    response = client.post("/api/decks/", data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    assert "nested" in response.json()["detail"]
    assert not Deck.objects.exists()


@pytest.mark.django_db
def test_a_body_over_the_size_limit_is_a_413_naming_the_limit(client, settings):
    settings.DATA_UPLOAD_MAX_MEMORY_SIZE = 10_000
    body = json.dumps({"game": "suikoden", "entries": [{"zone": "characters", "card": "x" * 50, "count": 1}] * 300})
    response = client.post("/api/decks/validate/", data=body, content_type="application/json")
    assert response.status_code == 413
    assert "0.01 MB" in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "words"),
    [("{", "not valid JSON"), ('{"game": 1' + "0" * 5000 + "}", "cannot be read"), (b"\xff\xfe", "UTF-8")],
)
def test_broken_json_is_a_400_that_says_what_is_wrong(client, body, words):
    response = client.post(
        "/api/decks/validate/", data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE="en"
    )
    assert response.status_code == 400
    assert words in response.json()["detail"]


@pytest.mark.django_db
@pytest.mark.parametrize(
    ("body", "language", "detail"),
    [
        ("[1 2]", "ja", "本文が正しいJSONではありません：ここに項目を区切るカンマが必要です（1行4列）。"),
        (
            '{"name": "x\u0001"}',
            "zh-hant",
            "內容不是有效的JSON：此處的字串含有換行等控制字元（JSON須以跳脫序列表示）（第1行第12欄）。",
        ),
        ("[" * 40 + "]" * 40, "ja", "本文を読み取れません：入れ子が32段より深くなっています。"),
        ('{"game": 1' + "0" * 5000 + "}", "zh-hant", f"無法讀取內容：其中有數字超過{sys.get_int_max_str_digits()}位。"),
        (
            "{1: 2}",
            "en",
            "The body is not valid JSON: a property's name in double quotes is expected here (line 1, column 2).",
        ),
    ],
)
def test_broken_json_is_explained_in_the_readers_language(client, body, language, detail):
    """Python's own English ("Expecting ',' delimiter") never reaches a reader of Japanese or Chinese."""
    response = client.post(
        "/api/decks/validate/", data=body, content_type="application/json", HTTP_ACCEPT_LANGUAGE=language
    )
    assert response.status_code == 400
    assert response.json()["detail"] == detail


@pytest.mark.parametrize(
    ("text", "code"),
    [
        ("", "expecting_value"),
        ("[1 2]", "expecting_comma"),
        ('{"a" 1}', "expecting_colon"),
        ("{1: 2}", "expecting_name"),
        ('["abc', "unterminated_string"),
        ('"a\u0001"', "control_character"),
        ('"\\q"', "invalid_escape"),
        ('"\\u12"', "invalid_unicode_escape"),
        ("[1] x", "extra_data"),
        ("[1,]", None),  # a trailing comma: "expecting a value" before Python 3.13, a message of its own since
        ('{"a": 1,}', None),
    ],
)
def test_every_json_syntax_error_python_raises_has_a_clause_of_its_own(text, code):
    with pytest.raises(json.JSONDecodeError) as raised:
        jsonlimits.loads(text)
    found = jsonlimits.syntax_problem(raised.value)
    assert found != "invalid", raised.value.msg  # a message of Python's that the table does not know
    assert found == code or code is None


@pytest.mark.django_db
def test_importing_a_deeply_nested_file_is_refused_without_a_traceback(tmp_path):
    path = tmp_path / "deep.json"
    path.write_text('{"game": "suikoden", "cards": ' + DEEP + "}")
    with pytest.raises(CommandError) as refused:
        call_command("importcards", str(path), verbosity=0)
    assert "nested" in str(refused.value)
    assert not Card.objects.exists()


@pytest.mark.django_db
def test_importing_a_number_too_long_for_python_is_a_problem_of_its_row(tmp_path):
    path = tmp_path / "cards.csv"
    path.write_text("game,key,kind,texts.ja.name,fields.attack\nsuikoden,T1,character,テスト," + "9" * 5000 + "\n")
    with pytest.raises(CommandError) as refused:
        call_command("importcards", str(path), verbosity=0)
    assert "attack" in str(refused.value)
    assert not Card.objects.exists()


# --- regular expressions and time limits ---------------------------------------------------------


@pytest.mark.usefixtures("synthetic_cards")
def test_a_backtracking_regular_expression_answers_at_once(client):
    """(.|.)*Ω backtracks exponentially in Python's re; RE2 runs it in time linear in the text."""
    body = client.get("/api/cards/", {"q": "/(.|.)*Ω/"}).json()
    assert body["count"] == 0
    page = client.get("/search/", {"q": "/(.|.)*テスト/"})
    assert page.status_code == 200
    assert "テスト林沖" in page.content.decode()


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize("pattern", ["(?=テスト)林", "(林)\\1", "a" * 201])
def test_a_regular_expression_re2_cannot_run_is_refused_with_the_reason(client, pattern):
    response = client.get("/api/cards/", {"q": f"/{pattern}/"}, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 400
    body = response.json()
    assert body["reason"] in {"regex_unsupported", "regex_too_long"}
    assert "cannot be used" in body["detail"] or "at most 200 characters" in body["detail"]
    assert body["position"] == 0


@pytest.mark.django_db(transaction=True)
def test_a_statement_over_its_time_limit_is_stopped():
    sql, params = _slow_statement()
    with pytest.raises(StatementTimeout), statement_time_limit(0.2), connection.cursor() as cursor:
        cursor.execute(sql, params)
    # The connection is usable and no longer limited.
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)
        if connection.vendor == "postgresql":
            cursor.execute("SHOW statement_timeout")
            assert cursor.fetchone()[0] == "0"


@pytest.mark.django_db(transaction=True)
def test_a_statement_that_fails_does_not_take_its_time_limit_with_it():
    """On PostgreSQL the limit travels with the first statement it covers; if that statement fails, the
    limit is sent again with the next one, which is still stopped in time."""
    from django.db import DatabaseError

    sql, params = _slow_statement()
    with statement_time_limit(0.2):
        with pytest.raises(DatabaseError), connection.cursor() as cursor:
            cursor.execute("SELECT * FROM no_such_table")
        with pytest.raises(StatementTimeout), connection.cursor() as cursor:
            cursor.execute(sql, params)
    with connection.cursor() as cursor:
        cursor.execute("SELECT 1")
        assert cursor.fetchone() == (1,)


@pytest.mark.usefixtures("synthetic_cards")
def test_a_search_stopped_by_its_time_limit_is_a_400_saying_so(client, settings, monkeypatch):
    settings.SEARCH_STATEMENT_TIMEOUT = 0.2
    sql, params = _slow_statement()

    def slow_count(outcome):
        with connection.cursor() as cursor:
            cursor.execute(sql, params)
        return 0

    monkeypatch.setattr(selectors, "count_matches", slow_count)
    # A query the text index answers alone is counted with its first page.
    monkeypatch.setattr(backends, "count_page_and_rows", lambda *arguments: (slow_count(None), [], None))
    response = client.get("/api/cards/", {"q": "テスト"})
    assert response.status_code == 400
    assert "0.2" in response.json()["detail"]
    page = client.get("/search/", {"q": "テスト"}, HTTP_ACCEPT_LANGUAGE="en")
    assert "took longer than 0.2 seconds" in page.content.decode()


# --- the browsable API ---------------------------------------------------------------------------


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize(
    "path",
    [
        "/api/cards/?q=%E6%9E%97%E6%B2%96",
        "/api/cards/",
        "/api/cards/suikoden/901/",
        "/api/games/",
        "/api/games/suikoden/",
        "/api/games/suikoden/glossary/",
        "/api/decks/",
    ],
)
def test_the_api_opened_in_a_browser_answers(client, path):
    response = client.get(path, HTTP_ACCEPT="text/html,application/xhtml+xml,*/*;q=0.8")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/html")


# --- values that break their declarations --------------------------------------------------------


def _wrong_value(field_type) -> object:
    """A value the type refuses: text where a number is declared, a number where text is, …"""
    if isinstance(field_type, IntegerType | BooleanType):
        return "strong"
    if isinstance(field_type, ChoiceListType):
        return 5
    if isinstance(field_type, ChoiceType | SymbolStringType):
        return "not-a-choice ✗"
    return ["a", "list"]


def _break(card_row: Card) -> None:
    """Store, as a hand-made database edit would, a kind the game lacks and a wrong value in every field."""
    definition = card_row.game.definition
    fields = {spec.name: _wrong_value(spec.type) for spec in definition.fields}
    Card.objects.filter(pk=card_row.pk).update(kind="hero-of-nothing", fields=fields)


def _a_card_in_a_deck(slug: str, owner) -> tuple[Card, Deck]:
    chosen = Card.objects.filter(game__slug=slug, key__isnull=False).exclude(kind=None).order_by("sort_key").first()
    zone = default_zone(get_rules(slug), chosen)
    deck = services.create_deck(
        owner=owner, game=game(slug), name="テスト", visibility="link", entries=[(zone.slug, chosen, 1)]
    )
    return chosen, deck


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize("slug", [definition.slug for definition in all_games()])
def test_a_stored_value_breaking_its_declaration_renders_everywhere_as_invalid(slug, owner):
    chosen, deck = _a_card_in_a_deck(slug, owner)
    _break(chosen)
    client = Client(HTTP_ACCEPT_LANGUAGE="en")
    client.force_login(owner)
    page = client.get(f"/games/{slug}/cards/{chosen.key}/")
    assert page.status_code == 200
    text = page.content.decode()
    assert "invalid value" in text and "not a kind of this game" in text
    pages = [
        f"/games/{slug}/cards/",
        f"/search/?q=game:{slug}",
        f"/decks/{deck.pk}/",
        f"/decks/{deck.pk}/edit/",
        f"/simulator/decks/{deck.pk}/goldfish/?seed=1&turn=3",
        f"/simulator/decks/{deck.pk}/odds/",
        f"/simulator/decks/{deck.pk}/simulate/",
        f"/decks/{deck.pk}/export.txt",
        f"/decks/{deck.pk}/export.json",
        "/decks/",
        f"/api/cards/{slug}/{chosen.key}/",
        f"/api/decks/{deck.pk}/",
        f"/api/decks/{deck.pk}/validate/",
        f"/api/simulator/decks/{deck.pk}/goldfish/?seed=1&turns=3",
        f"/api/simulator/decks/{deck.pk}/odds/",
    ]
    for path in pages:
        assert client.get(path).status_code == 200, path
    api_card = client.get(f"/api/cards/{slug}/{chosen.key}/").json()
    assert api_card["kind"] is None and api_card["fields"] == {}
    assert set(api_card["invalid"]) >= {"kind"}
    # The rules do not check what they cannot read: they say so, naming the card.
    verdict = client.get(f"/api/decks/{deck.pk}/validate/").json()
    assert any(finding["kind"] == "unchecked" for finding in verdict["findings"]) or not verdict["legal"]


@pytest.mark.usefixtures("synthetic_cards")
def test_the_admin_refuses_a_value_its_game_does_not_declare(client):
    admin = get_user_model().objects.create_superuser("admin", password=PASSWORD)
    client.force_login(admin)
    target = card("suikoden", "901")
    form = {
        "game": target.game_id,
        "key": target.key,
        "number": target.number,
        "kind": "hero",
        "fields": json.dumps({"attack": "strong"}),
        "source": "test",
        "texts-TOTAL_FORMS": "0",
        "texts-INITIAL_FORMS": "0",
        "texts-MIN_NUM_FORMS": "0",
        "texts-MAX_NUM_FORMS": "1000",
    }
    response = client.post(f"/admin/cards/card/{target.pk}/change/", form, HTTP_ACCEPT_LANGUAGE="en")
    assert response.status_code == 200  # the form again, with its errors
    text = response.content.decode()
    assert "“hero” is not a kind of Otome Yuugi Suikoden" in text
    assert "attack: “strong” is not a whole number. Expected: a whole number from 0." in text
    # The same refusal, in the editor's language.
    response = client.post(f"/admin/cards/card/{target.pk}/change/", form, HTTP_ACCEPT_LANGUAGE="ja")
    text = response.content.decode()
    assert "「hero」は乙女遊戯 水滸伝の種類ではありません" in text
    assert "attack: 「strong」は整数ではありません。" in text
    target.refresh_from_db()
    assert target.kind == "character" and target.fields["attack"] == 3


@pytest.mark.usefixtures("synthetic_cards")
@pytest.mark.parametrize("query", ["林沖", "林沖 or 宋江"])
def test_a_page_number_past_any_integer_is_past_the_end(client, query):
    """A page number too large for the database's integers is past the last page, as any page past it: the
    search page shows the last page, and the API answers its 404 for a page that is not one."""
    import re

    def cards_shown(page: str) -> list[str]:
        response = client.get("/search/", {"q": query, "page": page}, HTTP_ACCEPT_LANGUAGE="en")
        assert response.status_code == 200
        shown = response.content.decode()
        assert "could not run this search" not in shown
        return re.findall(r'href="(/games/[^"]+/cards/[^"]+)"', shown)

    huge = "9" * 30
    assert cards_shown(huge) == cards_shown("999") and any(
        "/games/suikoden/cards/" in link for link in cards_shown(huge)
    )
    response = client.get("/api/cards/", {"q": query, "page": huge})
    assert response.status_code == 404
    assert response.json() == client.get("/api/cards/", {"q": query, "page": "999"}).json()
