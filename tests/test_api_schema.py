"""Schema-driven fuzzing: every operation of /api/schema/, fuzzed by schemathesis against the app in-process.

For each operation schemathesis sends its examples, its coverage cases (each boundary of each constraint,
and each constraint broken in turn) and a bounded number of random cases, valid and invalid, and runs
every check it has by default on each answer: no 5xx; the status code, content type, headers and body
as documented; invalid data refused with a 4xx; valid data not refused with a 400; credentials enforced
where the schema requires them; an undeclared method answered 405 with Allow.

The data: the synthetic cards of every game; alice (whose token every request carries) with a public
and a private deck that can be played and an empty one shared by link, in each game; bob with a private
and a public deck of each game, so that alice's requests meet decks she may read but not change and decks
she may not see; a queued run of each; a token of each that may be revoked. Most generated path ids name
these (``before_generate_path_parameters``). Rate limits are off (a 429 is still documented); a user's
limit of waiting Monte Carlo runs stays, so starting runs meets that 429 too.

What the schema cannot state, valid cases are made to know when they are sent (``before_call``):
which modes, options, zones, policies and parameters belong to the game of the deck in the path (the
schema lists every game's), which card keys exist, that a card is named once per zone, and that an extra
draw comes at most after the last turn played. Search queries are drawn from the query language
(``card-query``). Wrong credentials for a token are a 400 as in DRF's token view: such a refusal of a
well-formed request is accepted (``credentials_refusal``), as schemathesis does for OAuth token URLs.

Examples are bounded per operation and derandomized, so every run sends the same requests.
"""

from __future__ import annotations

import io
import json
import re
from collections.abc import Iterator
from typing import Any

import pytest
import schemathesis
from django.contrib.auth import get_user_model
from django.core.serializers.json import DjangoJSONEncoder
from django.core.signals import request_finished, request_started
from django.core.wsgi import get_wsgi_application
from django.db import close_old_connections
from drf_spectacular.generators import SchemaGenerator
from hypothesis import HealthCheck, settings
from hypothesis import strategies as st
from PIL import Image
from schemathesis import GenerationMode

from accounts import services as account_services
from cards.api.games import game_slugs
from cards.gamedefs import get_game
from cards.images import services as services_images
from cards.models import Card
from community import services as community_services
from contributions import services as contribution_services
from contributions.models import ChangeSet, GameRole
from decks import services as deck_services
from decks.models import Deck
from decks.rules import get_rules
from simulator.engines import get_engine
from simulator.goldfish import services as simulation_services
from simulator.models import SimulationRun

from .support.schema_fuzz import align_cards, align_tracks, pick
from .synthetic_decks import game, load_synthetic_cards

MAX_EXAMPLES = 50  # random cases per operation, valid and invalid, on top of the examples and coverage cases

APPLICATION = get_wsgi_application()


# --- the search's query language ------------------------------------------------------------------

# Search terms the parser accepts, combined with AND (a space), OR and negation; display words at the end.
QUERY_TERMS = (
    "テスト",
    "Test",
    '"Test Ally"',
    "game:suikoden",
    "game:shadowera",
    "kind:character",
    "-kind:job",
    "attack>=2",
    "attack<5",
    "cost:PT",
    "has:attack",
    "-has:health",
    "is:translated",
    "lang:ja",
    "number:901",
    "name:test",
    "/Te.t/",
)
TERM = st.sampled_from(QUERY_TERMS) | st.text(alphabet="bcfghkmxyz騎馬林沖", min_size=1, max_size=6)
EITHER = st.tuples(TERM, TERM).map(lambda pair: f"({pair[0]} or {pair[1]})")
DISPLAY = st.sampled_from(["", "order:name", "order:attack direction:desc", "direction:asc"])
QUERY = st.tuples(st.lists(TERM | EITHER, max_size=3), DISPLAY).map(lambda q: " ".join([*q[0], q[1]]).strip())
schemathesis.openapi.format("card-query", QUERY)


# --- what valid cases must know of the data -------------------------------------------------------


def _game_of(case: Any) -> str | None:
    """The game a case's data must belong to: the deck's in the path, else the body's."""
    if case.operation.path.startswith(("/api/decks/{id}/", "/api/simulator/decks/{id}/")):
        pk = str((case.path_parameters or {}).get("id"))
        if pk.isascii() and pk.isdigit() and int(pk) < 2**63:
            return Deck.objects.filter(pk=int(pk)).values_list("game__slug", flat=True).first()
        return None
    body = case.body if isinstance(case.body, dict) else {}
    return body.get("game") if body.get("game") in game_slugs() else None


def _align_entries(entries: list[Any], slug: str) -> list[Any]:
    zones = [zone.slug for zone in get_rules(slug).zones if not zone.fixed]
    keys = list(Card.objects.filter(game__slug=slug).order_by("key").values_list("key", flat=True))
    aligned, seen = [], set()
    for entry in entries:
        if isinstance(entry, dict) and isinstance(entry.get("zone"), str) and isinstance(entry.get("card"), str):
            zone = entry["zone"] if entry["zone"] in zones else pick(zones, entry["zone"])
            entry = {**entry, "zone": zone, "card": pick(keys, entry["card"])}
            if (entry["zone"], entry["card"]) in seen:
                continue  # a card once per zone: counts of a repeated one add up past 99, a patch refuses it
            seen.add((entry["zone"], entry["card"]))
        aligned.append(entry)
    return aligned


def _align_body(body: dict[str, Any], slug: str) -> dict[str, Any]:
    rules, engine = get_rules(slug), get_engine(slug)
    body = dict(body)
    if "game" in body:
        body["game"] = slug
    if isinstance(body.get("mode"), str) and rules.mode(body["mode"]) is None:
        body["mode"] = pick([mode.slug for mode in rules.modes], body["mode"])
    if isinstance(body.get("options"), dict):
        body["options"] = {k: v for k, v in body["options"].items() if k in rules.default_options()}
    if isinstance(body.get("entries"), list):
        body["entries"] = _align_entries(body["entries"], slug)
    if isinstance(body.get("policy"), str) and body["policy"] not in engine.policies:
        body["policy"] = pick(list(engine.policies), body["policy"])
    if isinstance(body.get("parameters"), dict):
        own = {parameter.slug for parameter in engine.parameters}
        body["parameters"] = {k: v for k, v in body["parameters"].items() if k in own}
    if isinstance(body.get("cards"), list):
        body["cards"] = align_cards(body["cards"], slug)
    if isinstance(body.get("tracks"), list):
        body["tracks"] = align_tracks(body["tracks"], slug)
    if "source_kind" in body:
        body = _align_pictures(body, slug)
    if isinstance(body.get("folder"), int):
        body["folder"] = _fuzzing_users_folder()
    if isinstance(body.get("assumptions"), list):
        body["assumptions"] = [_align_assumption(item, slug) for item in body["assumptions"]]
    if {"key", "field", "value"} <= body.keys():
        body = _align_assumption(body, slug)
    return body


def _align_assumption(item: Any, slug: str) -> Any:
    """An assumed value made to fit the game: a value its cards have, given as that value's type takes it (the
    schema cannot say which names and values a game's cards take)."""
    if not isinstance(item, dict):
        return item
    numbers = []
    for spec in get_game(slug).fields:
        try:
            spec.type.clean(1)
        except Exception:  # not a whole-number value
            continue
        numbers.append(spec.name)
    return {**item, "field": pick(numbers, item.get("field")), "value": 1}


def _fuzzing_users_folder() -> int:
    """A folder of the user the requests are sent as (made again when a case deleted it)."""
    from decks.models import DeckFolder

    alice = get_user_model().objects.get(username="alice")
    return DeckFolder.objects.get_or_create(owner=alice, name="Fuzz folder")[0].pk


def _align_pictures(body: dict[str, Any], slug: str) -> dict[str, Any]:
    """A change set's pictures made to name what exists: an upload, the game's cards; no removal (a picture
    taken off by one case is not there for the next); and something in it (the schema cannot say "a card or
    a picture")."""
    keys = list(Card.objects.filter(game__slug=slug).order_by("key").values_list("key", flat=True))
    if isinstance(body.get("source_photo"), int):
        body["source_photo"] = EXISTING["upload"][0]
    if isinstance(body.get("images"), list):
        body["images"] = [
            {**item, "card": pick(keys, item.get("card")), "image": EXISTING["upload"][0]}
            if isinstance(item, dict)
            else item
            for item in body["images"]
        ]
    if isinstance(body.get("remove_images"), list):
        body["remove_images"] = []
    if not body.get("cards") and not body.get("images"):
        body["images"] = [{"card": pick(keys, body.get("comment")), "image": EXISTING["upload"][0]}]
    return body


def _picture() -> bytes:
    buffer = io.BytesIO()
    Image.new("RGB", (60, 84), (120, 30, 30)).save(buffer, "PNG")
    return buffer.getvalue()


PICTURE = _picture()


# What exists while an operation is fuzzed (Fuzzing), by path parameter: the ids drawn for a path are
# mostly these, so that the requests reach real decks, runs and tokens rather than 404s.
EXISTING: dict[str, list[Any]] = {}


def _valid_path_value(name: str, value: Any) -> bool:
    """Whether ``value`` is what the schema allows for the path parameter ``name``."""
    if name in ("id", "run_id"):
        return isinstance(value, int) and not isinstance(value, bool) and 0 <= value < 2**63
    if name == "game":
        return value in game_slugs()
    return isinstance(value, str) and value != "" and "/" not in value and "\x00" not in value


@schemathesis.hook
def before_generate_path_parameters(context: Any, strategy: Any) -> Any:
    """Three paths in four name something that exists. Only a valid value is replaced: an invalid one is
    what an invalid case is about."""

    def pick_existing(drawn: tuple[dict[str, Any], int]) -> dict[str, Any]:
        parameters, choice = drawn
        if not isinstance(parameters, dict) or choice % 4 == 3:
            return parameters
        return {
            name: EXISTING[name][choice % len(EXISTING[name])]
            if EXISTING.get(name) and _valid_path_value(name, value)
            else value
            for name, value in parameters.items()
        }

    return st.tuples(strategy, st.integers(min_value=0, max_value=1000)).map(pick_existing)


@schemathesis.hook
def before_call(context: Any, case: Any, kwargs: dict[str, Any]) -> None:
    """Valid cases made to fit the data (module docstring); invalid ones are sent as generated.

    At the call, not when the case is made: schemathesis makes the coverage cases while collecting the
    tests, before there is any data.
    """
    if case.meta is not None and any(not part.mode.is_positive for part in case.meta.components.values()):
        # A case with one part invalid is invalid, whatever schemathesis calls it: its coverage phase, when it
        # can only make an invalid body for a strict object schema, sends that body with each valid parameter
        # and calls the case valid.
        case.meta.generation.mode = GenerationMode.NEGATIVE
    if case.meta is None or not case.meta.generation.mode.is_positive:
        return
    if case.operation.path == "/api/contributions/images/" and isinstance(case.body, dict):
        case.body = {**case.body, "file": PICTURE}  # a picture: random bytes are not one, whatever the schema
        return
    if case.operation.path == "/api/readings/" and isinstance(case.body, dict):
        case.body = {**case.body, "photo": [PICTURE]}  # as for /api/contributions/images/: a picture, to be read
        return
    if case.operation.path.startswith("/api/collection/{game}/"):
        _align_collection(case)
        return
    slug = _game_of(case)
    if slug is None:
        return
    if case.operation.path.startswith("/api/decks/{id}/placeholders/") and isinstance(case.body, dict):
        case.body = _align_placeholder(case.body, slug)
        return
    if isinstance(case.body, dict):
        case.body = _align_body(case.body, slug)
    query = case.query or {}
    if isinstance(query.get("policy"), str) and query["policy"] not in get_engine(slug).policies:
        query["policy"] = pick(list(get_engine(slug).policies), query["policy"])
    if isinstance(query.get("draws"), str) and isinstance(query.get("turns", 0), int):
        turns = query.get("turns", 0)
        # from 0 to the turn and in order, as the parameter's description says
        draws = sorted(min(int(part), turns) for part in query["draws"].split(","))
        query["draws"] = ",".join(map(str, draws))


def _align_placeholder(body: dict[str, Any], slug: str) -> dict[str, Any]:
    """A kind the deck's game declares (a game that declares none answers 409), and only values it states."""
    declared = get_rules(slug).placeholders
    if not declared:
        return body
    kinds = {placeholder.kind: placeholder for placeholder in declared}
    body = dict(body)
    kind = body.get("kind")
    if isinstance(kind, str) and kind not in kinds:
        body["kind"] = kind = pick(list(kinds), kind)
    if isinstance(body.get("values"), dict):
        # a patch keeps the placeholder's kind: the values every declared kind states (the cost)
        stated = kinds[kind].fields if kind in kinds else set.intersection(*(set(p.fields) for p in declared))
        body["values"] = {name: value for name, value in body["values"].items() if name in stated}
    return body


def _align_collection(case: Any) -> None:
    """A collection case made to fit alice's collection: a card of the game in the path, as many copies as the case
    adds (none) or removes (the most), lists and CSV naming the game's cards, her own decks of the game."""
    from collection import services as collection_services
    from collection.models import MAX_OWNED

    slug = (case.path_parameters or {}).get("game")
    if slug not in game_slugs() or not isinstance(case.body, dict):
        return
    body = dict(case.body)
    keys = list(Card.objects.filter(game__slug=slug).order_by("key").values_list("key", flat=True))
    alice = get_user_model().objects.get(username="alice")
    if isinstance(body.get("card"), str):
        body["card"] = pick(keys, body["card"])
        if case.operation.path.endswith("/add/"):
            collection_services.set_count(alice, Card.objects.get(game__slug=slug, key=body["card"]), 0)
        if case.operation.path.endswith("/remove/"):
            collection_services.set_count(alice, Card.objects.get(game__slug=slug, key=body["card"]), MAX_OWNED)
    chosen = [pick(keys, (body.get("text") or body.get("csv"), n)) for n in range(3)]
    if isinstance(body.get("text"), str):
        body["text"] = "".join(f"1 {key}\n" for key in chosen)
    if isinstance(body.get("csv"), str):
        body["csv"] = "key,count\n" + "".join(f'"{key}",1\n' for key in chosen)
    if isinstance(body.get("decks"), list):
        own = list(Deck.objects.filter(owner=alice, game__slug=slug).order_by("pk").values_list("pk", flat=True))
        body["decks"] = [pick(own, (deck, n)) for n, deck in enumerate(body["decks"])] or own[:1]
    case.body = body


@schemathesis.hook
def filter_failure(context: Any, failure: Any, case: Any, response: Any) -> bool:
    """Keep every failure but a token refused for wrong credentials (``credentials_refusal``)."""
    return not credentials_refusal(failure, case, response)


def credentials_refusal(failure: Any, case: Any, response: Any) -> bool:
    if case.operation.path != "/api/accounts/token/" or response.status_code != 400:
        return False
    if type(failure).__name__ != "RejectedPositiveData":
        return False
    try:
        return response.json().get("code") == "invalid_credentials"
    except ValueError:
        return False


# --- the data and the schema ----------------------------------------------------------------------


class Fuzzing:
    """The seeded data the cases run against, and the headers every request carries."""

    def __init__(self) -> None:
        load_synthetic_cards()
        users = get_user_model().objects
        self.alice = users.create_user("alice", password="fuzzing-password-1234")
        self.bob = users.create_user("bob", password="fuzzing-password-1234")
        # identity: the cases are called through the WSGI application, which does not undo the gzip that the site
        # gives a client asking for it (requests' default Accept-Encoding); the compression has its own tests.
        self.headers = {
            "Authorization": f"Token {account_services.token_create(user=self.alice)[1]}",
            "Accept-Encoding": "identity",
        }
        decks = []
        for slug in game_slugs():
            playable = [(zone, key, 1) for zone, key in PLAYABLE[slug]]
            decks += [
                self.deck(self.alice, slug, Deck.Visibility.LINK, playable),
                self.deck(self.alice, slug, Deck.Visibility.PRIVATE, playable),
                self.deck(self.alice, slug, Deck.Visibility.LINK, []),
                self.deck(self.bob, slug, Deck.Visibility.PRIVATE, playable),
                self.deck(self.bob, slug, Deck.Visibility.LINK, playable),
            ]
        # Published decks (community): the first of alice's and the last of bob's decks of each game, a comment of
        # bob's on alice's.
        publications = [
            community_services.publish(deck, user=deck.owner, title=deck.name)
            for index, deck in enumerate(decks)
            if index % 5 in (0, 4)
        ]
        community_services.add_comment(publications[0], author=self.bob, body="Test comment")
        runs = [
            simulation_services.start_run(
                deck=deck, requester=deck.owner, games=10, turns=2, policy="default", params={}, language="en"
            )
            for deck in (decks[0], decks[3])  # alice's and bob's
        ]
        # Change sets: alice edits 水滸伝's cards; bob's wait in every game, one of alice's in Shadow Era.
        GameRole.objects.create(user=self.alice, game=game("suikoden"), role=GameRole.Role.EDITOR)
        change_sets = [self.change_set(self.bob, slug) for slug in game_slugs()]
        change_sets.append(self.change_set(self.alice, "shadowera"))
        EXISTING.clear()
        EXISTING["change_set_id"] = [change_set.pk for change_set in change_sets]
        EXISTING["id"] = [deck.pk for deck in decks] + [publication.pk for publication in publications]
        EXISTING["run_id"] = [run.pk for run in runs]
        EXISTING["game"] = game_slugs()
        EXISTING["key"] = sorted(Card.objects.values_list("key", flat=True))
        # Tokens that may be revoked: another of alice's, and one of bob's (not hers: 404). Never the one sent.
        # alice's own upload: another user's is not hers to attach (400 no_such_upload, as a missing one).
        EXISTING["upload"] = [services_images.image_store(uploader=self.alice, stream=io.BytesIO(PICTURE)).pk]
        EXISTING["token_key"] = [
            account_services.token_create(user=user)[0].token_key for user in (self.alice, self.bob)
        ]

    @staticmethod
    def change_set(author: Any, slug: str) -> ChangeSet:
        card = {"key": f"Fuzz {author.username}", "texts": {"en": {"name": f"Test Card of {author.username}"}}}
        return contribution_services.submit_change_set(
            author=author, game=game(slug), cards=[card], source_kind=ChangeSet.SourceKind.OTHER
        )

    @staticmethod
    def deck(owner: Any, slug: str, visibility: str, entries: list[tuple[str, str, int]]) -> Deck:
        cards = {card.key: card for card in Card.objects.filter(game__slug=slug)}
        return deck_services.create_deck(
            owner=owner,
            game=game(slug),
            name=f"{owner.username} {slug} {visibility}",
            visibility=visibility,
            entries=[(zone, cards[key], count) for zone, key, count in entries],
        )


# A card in each zone a game's goldfish needs, so that the decks can be played (an empty one is a 409).
PLAYABLE = {
    "endbreaker": [("supply", "EB9-001")],
    "shadowera": [("hero", "Test Hero 01"), ("deck", "Test Ally 01")],
    "suikoden": [("characters", "901"), ("lands", "903")],
    "epicbattles": [("character", "Test-Zero"), ("deck", "Test Punch")],
}


@pytest.fixture
def fuzzing(db, settings: Any, tmp_path: Any) -> Iterator[Fuzzing]:
    settings.RATE_LIMITS = {scope: None for scope in settings.RATE_LIMITS}
    settings.MEDIA_ROOT = str(tmp_path / "media")
    # Monte Carlo runs are queued and never played: the API's answers are the subject, not the games.
    settings.TASKS = {"default": {"BACKEND": "django_tasks.backends.dummy.DummyBackend"}}
    # Log-in attempts (POST /api/accounts/token/) hash a password each: the fastest hasher keeps hundreds cheap.
    settings.PASSWORD_HASHERS = ["django.contrib.auth.hashers.MD5PasswordHasher"]
    # The requests go through the WSGI handler, which closes the database connection after each one; the
    # test's transaction (and its data) must outlive them, as Django's test client arranges for itself.
    request_started.disconnect(close_old_connections)
    request_finished.disconnect(close_old_connections)
    try:
        yield Fuzzing()
    finally:
        request_started.connect(close_old_connections)
        request_finished.connect(close_old_connections)


# The schema /api/schema/ serves (test_the_fuzzed_schema_is_the_served_one), made while the tests are
# collected, so that each operation is a test of its own.
RAW_SCHEMA = SchemaGenerator().get_schema(request=None, public=True)
schema = schemathesis.openapi.from_dict(json.loads(json.dumps(RAW_SCHEMA, cls=DjangoJSONEncoder)))
schema.app = APPLICATION


def test_the_fuzzed_schema_is_the_served_one(client: Any) -> None:
    served = client.get("/api/schema/?format=json")
    assert served.status_code == 200
    assert served.json() == schema.raw_schema


@schema.parametrize()
@settings(
    max_examples=MAX_EXAMPLES,
    derandomize=True,
    database=None,
    deadline=None,
    # The data is made once per operation, not per example (``fuzzing``): the examples of one operation
    # run one after another against it, as requests to a server would.
    suppress_health_check=[
        HealthCheck.function_scoped_fixture,
        HealthCheck.too_slow,
        HealthCheck.filter_too_much,
        HealthCheck.data_too_large,
    ],
)
def test_every_operation_answers_as_its_schema_says(case: Any, fuzzing: Fuzzing) -> None:
    case.call_and_validate(headers=fuzzing.headers)


# --- what the fuzzing found before, each pinned down ------------------------------------------------


@pytest.mark.django_db
def test_an_api_path_that_matches_nothing_is_json_even_in_debug(client: Any, settings: Any) -> None:
    settings.DEBUG = True  # Django's own 404 page for DEBUG is HTML
    for path in ("/api/decks//entries/", "/api/cards/suikoden//", "/api/nothing/here/"):
        response = client.get(path)
        assert response.status_code == 404, path
        assert response.json()["code"] == "not_found"


def test_an_empty_parameter_is_refused_where_the_schema_says_it_cannot_be(fuzzing: Fuzzing, client: Any) -> None:
    deck = Deck.objects.filter(owner=fuzzing.alice, publications__isnull=False).first()
    for url in (f"/api/decks/{deck.pk}/?lang=", "/api/cards/?lang=", "/api/decks/?game=", "/api/cards/?page="):
        response = client.get(url)
        assert response.status_code in (400, 404), url
        assert set(response.json()) >= {"detail", "code", "errors"}


def test_a_whole_number_in_the_query_is_written_as_one(fuzzing: Fuzzing, client: Any) -> None:
    """DRF's IntegerField reads "0.0" as 0; the schema says integer, and a client writing 0.0 for a seed gets a
    400 naming the seed rather than a game it did not ask for."""
    deck = Deck.objects.filter(owner=fuzzing.alice, publications__isnull=False).first()
    headers = {"HTTP_AUTHORIZATION": fuzzing.headers["Authorization"]}
    for written in ("0.0", "7.", "1e3"):
        response = client.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed={written}", **headers)
        assert response.status_code == 400, written
        assert set(response.json()["errors"]) == {"seed"}
    assert client.get(f"/api/simulator/decks/{deck.pk}/goldfish/?seed=+7", **headers).status_code == 200


def test_a_body_that_is_not_json_is_a_415_and_starts_nothing(fuzzing: Fuzzing, client: Any) -> None:
    deck = Deck.objects.filter(owner=fuzzing.alice, publications__isnull=False).first()
    headers = {"HTTP_AUTHORIZATION": fuzzing.headers["Authorization"]}
    response = client.post(f"/api/simulator/decks/{deck.pk}/simulations/", {"garbage": "x"}, **headers)  # multipart
    assert response.status_code == 415
    assert response.json()["code"] == "unsupported_media_type"
    assert not SimulationRun.objects.filter(deck=deck, games=10_000).exists()
    broken = client.post("/api/decks/validate/", "{", content_type="application/json")
    assert broken.status_code == 400 and broken.json()["errors"] == {}


def test_the_schema_states_the_constraints_and_who_may_call(client: Any) -> None:
    paths = client.get("/api/schema/?format=json").json()["paths"]
    assert {} in paths["/api/decks/validate/"]["post"]["security"]  # anonymous use allowed
    assert {} in paths["/api/decks/{id}/"]["get"]["security"]
    assert {} in paths["/api/cards/"]["get"]["security"]  # credentials optional: owned: reads them
    assert "security" not in paths["/api/cards/{game}/{key}/"]["get"]  # reads no credentials at all
    assert {} not in paths["/api/decks/"]["post"]["security"]
    for method, path in (("post", "/api/decks/"), ("post", "/api/simulator/decks/{id}/simulations/")):
        assert list(paths[path][method]["requestBody"]["content"]) == ["application/json"]
        assert {"400", "401", "415", "429", "503"} <= set(paths[path][method]["responses"])
    assert "Retry-After" in paths["/api/cards/"]["get"]["responses"]["429"]["headers"]


@pytest.mark.django_db
def test_the_schema_refuses_the_white_space_alone_that_the_api_refuses(client: Any) -> None:
    """DRF trims strings and refuses what is left blank; the schema's pattern says the same, exactly (its class is
    what Python's str.strip() removes, not JSON Schema's \\s). A deck's tag is such a string."""
    schemas = client.get("/api/schema/?format=json").json()["components"]["schemas"]
    # the tags a request writes (an answer's tags state no pattern)
    tag_items = [
        schema["properties"]["tags"]["items"]
        for schema in schemas.values()
        if "pattern" in schema.get("properties", {}).get("tags", {}).get("items", {})
    ]
    assert tag_items and len({item["pattern"] for item in tag_items}) == 1
    pattern = re.compile(tag_items[0]["pattern"])
    for text in ("\r", " ", "\u3000\x85\x1c", "\t\n"):
        assert not pattern.search(text), repr(text)
    for text in ("テスト", " a "):
        assert pattern.search(text), repr(text)
    assert not pattern.search("\ufeff")  # not trimmed, but refused: a name holds no invisible character
