"""``?lang=`` on every API operation: it sets the language of the whole answer, whatever Accept-Language says,
and a value that is not one of the site's languages is refused the same way everywhere (400, code ``invalid``,
under ``errors.lang``), before anything else is read.

The operations are the schema's own (every GET it states), so an endpoint added later is covered.
"""

from __future__ import annotations

import re
from typing import Any

import pytest
from django.test import Client
from drf_spectacular.generators import SchemaGenerator

from cards.models import Card

from .users import make_user

pytestmark = pytest.mark.django_db


def _schema() -> dict[str, Any]:
    return SchemaGenerator().get_schema(request=None, public=True)


def _get_paths() -> list[str]:
    """Every GET of the schema, its path parameters filled with values that match their converters."""
    schema = _schema()
    paths = []
    for template, operations in schema["paths"].items():
        if "get" not in operations:
            continue
        parameters = operations["get"].get("parameters", [])
        integers = {p["name"] for p in parameters if p["in"] == "path" and p["schema"].get("type") == "integer"}
        paths.append(re.sub(r"\{(\w+)\}", lambda m, numbers=integers: "1" if m[1] in numbers else "x", template))
    return sorted(paths)


GET_PATHS = _get_paths()


def test_the_schema_has_the_endpoints_this_test_walks() -> None:
    assert len(GET_PATHS) > 30
    assert {
        "/api/cards/",
        "/api/cards/x/x/",
        "/api/contributions/cards/x/x/history/",
        "/api/contributions/change-sets/1/",
    } <= set(GET_PATHS)


@pytest.mark.parametrize("path", GET_PATHS)
def test_a_language_the_site_does_not_have_is_refused_alike_everywhere(path: str) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    for query in ("?lang=xx", "?lang=", "?lang=EN", "?lang=en&lang=fr"):
        response = client.get(path + query)
        assert response.status_code == 400, (path, query)
        body = response.json()
        assert body["code"] == "invalid", (path, query)
        assert list(body["errors"]) == ["lang"], (path, query)
        # In the reader's language (Accept-Language, as ?lang= cannot be used).
        assert "ja, zh-hant, en" in body["detail"] and "サイトの言語ではありません" in body["detail"], path


@pytest.mark.parametrize("path", GET_PATHS)
def test_the_lang_parameter_sets_the_language_of_every_answer(path: str) -> None:
    asked = Client(HTTP_ACCEPT_LANGUAGE="ja").get(path + "?lang=en")
    reference = Client(HTTP_ACCEPT_LANGUAGE="en").get(path)
    assert asked.status_code == reference.status_code, path
    assert asked["Content-Language"] == "en", path
    if asked["Content-Type"].startswith("application/json") and asked.status_code >= 400:
        assert asked.json() == reference.json(), path  # the error, in English


def test_the_schema_declares_lang_on_every_operation() -> None:
    for template, operations in _schema()["paths"].items():
        for method, operation in operations.items():
            (lang,) = [p for p in operation.get("parameters", []) if p["in"] == "query" and p["name"] == "lang"]
            assert lang["schema"]["enum"] == ["ja", "zh-hant", "en"], (method, template)
            assert "400" in operation["responses"], (method, template)


@pytest.fixture
def card(synthetic_cards: None) -> Card:
    return Card.objects.select_related("game").filter(game__slug="shadowera").order_by("key").first()


def test_card_history_labels_follow_lang(card: Card) -> None:
    path = f"/api/contributions/cards/shadowera/{card.key}/history/"
    labels = {
        language: {
            change["what"]: change["label"]
            for change in Client(HTTP_ACCEPT_LANGUAGE="ja")
            .get(path, {"lang": language})
            .json()["revisions"][-1]["changes"]
        }
        for language in ("en", "zh-hant", "ja")
    }
    assert labels["en"]["number"] == "Number" and labels["ja"]["number"] == "番号"
    assert labels["zh-hant"]["number"] != labels["en"]["number"]


def test_change_sets_and_collection_answer_in_the_asked_language(card: Card) -> None:
    client = Client(HTTP_ACCEPT_LANGUAGE="ja")
    client.force_login(make_user("lang-reader"))
    for path in ("/api/contributions/change-sets/", "/api/collection/shadowera/", f"/api/cards/shadowera/{card.key}/"):
        assert client.get(path, {"lang": "zh-hant"})["Content-Language"] == "zh-hant", path
    # A message of these endpoints, in the language asked for rather than Accept-Language's.
    missing = client.get("/api/contributions/change-sets/999999/", {"lang": "en"})
    english = Client(HTTP_ACCEPT_LANGUAGE="en").get("/api/contributions/change-sets/999999/").json()["detail"]
    assert missing.status_code == 404 and missing.json()["detail"] == english == "There is no change set #999,999."
    refused = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/api/collection/shadowera/", {"lang": "en"})
    assert refused.json()["detail"] == "Authentication credentials were not provided."
