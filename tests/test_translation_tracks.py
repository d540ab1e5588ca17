"""Translation tracks as readers and contributors meet them, as ygocdb keeps several Chinese translations of a
card: the seed's translation is one track, credited to its seed; a contributor adds another through a change set;
the card page shows the reader's choice first and the others beside it; a change of the original marks its
translations stale (on the card page and on the map of what is missing); search finds every track's words; and
loading the seeds again, as every start of the site does, keeps the community's track.

Every card here is synthetic (keys EB9-…, names marked テスト), in a synthetic seed file written to a temporary
folder.
"""

from __future__ import annotations

import json

import pytest
from django.test import Client

from accounts import services as account_services
from cards.models import Card, CardText, Game, TrackPreference, TranslationTrack
from cards.search.selectors import prepare_search
from cards.services import card_state, state_digest
from contributions import services as contribution_services
from contributions.models import ChangeSet

from .support.clients import signed_in
from .support.html import get, parse, squash
from .support.translation_tracks import SECOND, SEED_CREDITS, SEED_TRACK, load, seed_file
from .users import make_user

pytestmark = [pytest.mark.game("endbreaker"), pytest.mark.django_db]


@pytest.fixture
def seeded(tmp_path, game) -> str:
    path = seed_file(tmp_path)
    load(path)
    return path


def card_page(client: Client, language: str = "en"):
    client.cookies["django_language"] = language
    return parse(get(client, "/games/endbreaker/cards/EB9-901/"))


def track_texts(page) -> list:
    """The Chinese texts of the card page, in the order shown."""
    section = page.find("section", id="text-zh-hant")
    return section.find_all("article", cls="track-text")


def add_second_track(client: Client, text: str = "第二譯本的譯文：抽一張牌") -> None:
    """A player adds a translation of their own through the card's translation form."""
    form = client.get("/contributions/games/endbreaker/cards/EB9-901/translate/?language=zh-hant")
    assert form.status_code == 200
    seen = state_digest(card_state(Card.objects.get(key="EB9-901")))
    existing = TranslationTrack.objects.filter(name=SECOND).first()  # then its text is corrected
    response = client.post(
        "/contributions/games/endbreaker/cards/EB9-901/translate/",
        {
            "language": "zh-hant",
            "track": existing.pk if existing else "new",
            "track_name": SECOND,
            "credits": "テスト translator",
            "name": "第二譯名",
            "text": text,
            "source_kind": ChangeSet.SourceKind.OWN_COPY,
            "seen": seen,
        },
    )
    assert response.status_code == 302, response.content.decode()[:3000]


def accept_all(editor) -> None:
    for change_set in ChangeSet.objects.filter(status=ChangeSet.Status.PENDING):
        contribution_services.accept_change_set(editor=editor, change_set_id=change_set.pk)


def test_the_seeds_translation_is_one_track_credited_to_its_seed(seeded, client):
    text = CardText.objects.get(card__key="EB9-901", language="zh-hant")
    assert text.track.name == SEED_TRACK and text.track.main
    assert text.track.credits == SEED_CREDITS and text.track.status == TranslationTrack.Status.REVIEWED
    assert CardText.objects.get(card__key="EB9-901", language="ja").track is None  # the original is no track's
    (shown,) = track_texts(card_page(client))
    assert SEED_CREDITS in squash(shown.text) and "reviewed" in squash(shown.text)


def test_a_second_track_added_by_a_player_waits_for_review_then_shows_beside_the_seeds(seeded, editor):
    player = signed_in(make_user("player"), None)
    add_second_track(player)
    change_set = ChangeSet.objects.get()
    assert change_set.status == ChangeSet.Status.PENDING
    assert not TranslationTrack.objects.filter(name=SECOND).exists()  # nothing before an editor accepts it
    accept_all(editor)
    track = TranslationTrack.objects.get(name=SECOND)
    assert track.status == TranslationTrack.Status.DRAFT and not track.main and track.credits == "テスト translator"
    seeds, second = track_texts(card_page(Client()))
    assert "測試譯文：抽牌＋１" in squash(seeds.text) and "preferred" in seeds.classes
    assert "第二譯本的譯文：抽一張牌" in squash(second.text) and "テスト translator" in squash(second.text)
    assert "draft" in squash(second.text)
    # the seed's text is untouched, and the card's history says who added the track
    assert CardText.objects.get(card__key="EB9-901", track__main=True).text == "測試譯文：抽牌＋１"
    history = squash(parse(get(Client(), "/games/endbreaker/cards/EB9-901/history/")).text)
    assert SECOND in history and "player" in history


def test_a_reader_chooses_a_track_and_it_is_remembered(seeded, editor):
    add_second_track(signed_in(editor, None))  # an editor's change applies at once
    second = TranslationTrack.objects.get(name=SECOND)
    # a reader who is not signed in: a cookie
    reader = Client()
    _seeds, other = track_texts(card_page(reader))
    link = other.find("p", cls="prefer").find("a").attrs["href"]
    response = reader.get(link.replace("&amp;", "&"))
    assert response.status_code == 302 and response["Location"].endswith(
        "/games/endbreaker/cards/EB9-901/#text-zh-hant"
    )
    first, _other = track_texts(card_page(reader))
    assert first.attrs["data-track"] == str(second.pk) and "preferred" in first.classes
    assert track_texts(card_page(Client()))[0].attrs.get("data-track") != str(second.pk)  # others keep the main
    # back to the main text
    reader.get("/games/endbreaker/tracks/prefer/?language=zh-hant&track=main&next=/")
    assert track_texts(card_page(reader))[0].attrs.get("data-track") != str(second.pk)
    # a signed-in reader: kept with their account, in any browser
    user = make_user("reader")
    signed_in(user, None).get(f"/games/endbreaker/tracks/prefer/?language=zh-hant&track={second.pk}&next=/")
    assert TrackPreference.objects.get(user=user).track == second
    assert track_texts(card_page(signed_in(user, None)))[0].attrs["data-track"] == str(second.pk)


def test_a_track_of_another_game_or_language_is_not_found(seeded, editor):
    add_second_track(signed_in(editor, None))
    second = TranslationTrack.objects.get(name=SECOND)
    assert Client().get(f"/games/suikoden/tracks/prefer/?language=zh-hant&track={second.pk}").status_code == 404
    assert Client().get(f"/games/endbreaker/tracks/prefer/?language=ja&track={second.pk}").status_code == 404


def change_original(editor, text: str) -> None:
    card = Card.objects.get(key="EB9-901")
    state = card_state(card)
    record = {
        "key": card.key,
        "kind": state["kind"],
        "fields": state["fields"],
        "source": state["source"],
        "texts": {language: {p: v for p, v in parts.items() if v} for language, parts in state["texts"].items()},
        "translations": state.get("translations", {}),
    }
    record["texts"]["ja"]["text"] = text
    contribution_services.submit_change_set(
        author=editor,
        game=card.game,
        cards=[record],
        source_kind=ChangeSet.SourceKind.OWN_COPY,
        seen={card.key: state_digest(state)},
    )


def stale_row(client: Client) -> str:
    client.cookies["django_language"] = "en"
    page = parse(get(client, "/games/endbreaker/missing/"))
    (row,) = page.find("ul", cls="stale-translations").find_all("li", cls="gap")
    return squash(row.text)


def test_a_change_of_the_original_marks_its_translations_stale_on_the_card_page_and_the_map(seeded, editor):
    add_second_track(signed_in(editor, None))
    assert not [text for text in track_texts(card_page(Client())) if "stale" in text.classes]
    assert "Stale translations in Traditional Chinese (the original changed since): 0" in stale_row(Client())
    change_original(editor, "テスト原文：ドロー＋２")
    texts = track_texts(card_page(Client()))
    assert all("stale" in text.classes for text in texts)
    assert all(text.find("p", cls="stale-warning") is not None for text in texts)
    row = stale_row(Client())
    assert "Stale translations in Traditional Chinese (the original changed since): 2" in row
    assert f"EB9-901 ({SECOND})" in row
    # the second track brought up to date: only the seed's translation is stale now
    add_second_track(signed_in(editor, None), text="第二譯本的新譯文：抽兩張牌")
    seeds, second = track_texts(card_page(Client()))
    assert "stale" in seeds.classes and "stale" not in second.classes
    assert "(the original changed since): 1" in stale_row(Client())
    # a change of the original's source alone is no change of what it says
    (api,) = [
        item
        for item in Client().get("/api/cards/endbreaker/EB9-901/").json()["translations"]
        if item["track"] == SECOND
    ]
    assert api["stale"] is False and api["pinned_revision"] is not None


def test_search_finds_a_word_only_a_second_track_holds(seeded, editor):
    add_second_track(signed_in(editor, None), text="第二譯本獨有的鏡像詞 quuxtrackword")
    for query in ("鏡像詞", "quuxtrackword", "lang:zh-hant 獨有", "text:鏡像"):
        outcome = prepare_search(query, "en")
        assert outcome.error is None, outcome.error
        assert [card.key for card in outcome.cards] == ["EB9-901"], query
    # the main text is still found as before, and the card once
    outcome = prepare_search("抽牌", "en")
    assert [card.key for card in outcome.cards] == ["EB9-901"]
    page = parse(get(Client(), "/search/?q=quuxtrackword"))
    assert "quuxtrackword" in squash(page.find("main").text)


def test_loading_the_seeds_again_keeps_the_community_track(seeded, editor, tmp_path):
    add_second_track(signed_in(editor, None))
    summary = load(seeded)  # as the next start of the site does
    assert summary.unchanged == 1 and summary.conflicts == 0
    assert CardText.objects.get(card__key="EB9-901", track__name=SECOND).text == "第二譯本的譯文：抽一張牌"
    # a seed that changes a value of the card applies, and keeps the track as it is
    summary = load(seed_file(tmp_path, at=2))
    assert summary.updated == 1 and summary.conflicts == 0
    card = Card.objects.get(key="EB9-901")
    assert card.fields["at"] == 2
    assert CardText.objects.get(card=card, track__name=SECOND).text == "第二譯本的譯文：抽一張牌"
    assert TranslationTrack.objects.get(name=SECOND).credits == "テスト translator"
    assert len(track_texts(card_page(Client()))) == 2


def test_a_translation_names_a_track_the_game_has_or_the_change_set_makes(seeded):
    player = make_user("player")
    game = Game.objects.get(slug="endbreaker")
    state = card_state(Card.objects.get(key="EB9-901"))
    record = {
        "key": "EB9-901",
        "kind": state["kind"],
        "fields": state["fields"],
        "texts": {language: {p: v for p, v in parts.items() if v} for language, parts in state["texts"].items()},
        "translations": {"zh-hant": {"無此譯本": {"text": "測試"}}},
    }
    with pytest.raises(contribution_services.ContributionError) as refused:
        contribution_services.submit_change_set(
            author=player, game=game, cards=[record], source_kind=ChangeSet.SourceKind.OWN_COPY
        )
    assert list(refused.value.errors) == ["cards[0].translations.zh-hant.無此譯本"]
    original = {**record, "translations": {"ja": {"テスト": {"text": "テスト"}}}}
    with pytest.raises(contribution_services.ContributionError) as refused:
        contribution_services.submit_change_set(
            author=player, game=game, cards=[original], source_kind=ChangeSet.SourceKind.OWN_COPY
        )
    assert list(refused.value.errors) == ["cards[0].translations.ja"]
    main = {**record, "translations": {"zh-hant": {SEED_TRACK: {"text": "測試"}}}}
    with pytest.raises(contribution_services.ContributionError) as refused:
        contribution_services.submit_change_set(
            author=player, game=game, cards=[main], source_kind=ChangeSet.SourceKind.OWN_COPY
        )
    assert list(refused.value.errors) == [f"cards[0].translations.zh-hant.{SEED_TRACK}"]
    # a new track of a name the game has is a conflict with what is there, not a second one
    again = {**record, "translations": {}, "texts": {**record["texts"], "ja": {"name": "テスト技", "text": "別"}}}
    with pytest.raises(contribution_services.TrackExists) as refused:
        contribution_services.submit_change_set(
            author=player,
            game=game,
            cards=[again],
            source_kind=ChangeSet.SourceKind.OWN_COPY,
            tracks=[{"language": "zh-hant", "name": SEED_TRACK}],
        )
    assert refused.value.status == 409 and list(refused.value.errors) == ["tracks[0].name"]
    assert not ChangeSet.objects.exists()


def test_the_api_adds_a_track_with_the_same_review(seeded, editor):
    player = make_user("player")
    token = account_services.token_create(user=player)[1]
    client = Client(HTTP_AUTHORIZATION=f"Token {token}")
    card = client.get("/api/cards/endbreaker/EB9-901/").json()
    assert [item["track"] for item in card["translations"]] == [SEED_TRACK]
    body = {
        "game": "endbreaker",
        "source_kind": "own_copy",
        "seen": {"EB9-901": card["state_digest"]},
        "tracks": [{"language": "zh-hant", "name": SECOND, "credits": "テスト API translator"}],
        "cards": [
            {
                "key": "EB9-901",
                "kind": card["kind"],
                "fields": card["fields"],
                "source": card["source"],
                "texts": {code: {p: v for p, v in parts.items() if v} for code, parts in card["texts"].items()},
                "translations": {"zh-hant": {SECOND: {"text": "API 的譯文"}}},
            }
        ],
    }
    response = client.post(
        "/api/contributions/change-sets/", json.dumps(body, ensure_ascii=False), content_type="application/json"
    )
    assert response.status_code == 201, response.json()
    assert response.json()["status"] == "pending" and response.json()["tracks"][0]["name"] == SECOND
    accept_all(editor)
    tracks = {item["track"]: item for item in client.get("/api/cards/endbreaker/EB9-901/").json()["translations"]}
    assert tracks[SECOND]["text"] == "API 的譯文" and tracks[SECOND]["status"] == "draft"
    assert tracks[SECOND]["credits"] == "テスト API translator" and not tracks[SECOND]["stale"]
