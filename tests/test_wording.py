"""Words a reader met wrong: each slip as the reader saw it on the page, in the reader's language."""

from __future__ import annotations

import re

import pytest
from django.test import Client
from django.utils import translation

from cards.presentation import field_label
from community import services as community_services
from community.models import Comment
from contributions import services as contribution_services
from contributions.models import ChangeSet, GameRole
from decks import services as deck_services

from .synthetic_decks import card, game
from .users import make_editor, make_user


def signed_in(user, language: str) -> Client:
    client = Client(HTTP_ACCEPT_LANGUAGE=language)
    client.force_login(user)
    return client


def text_of(html: str) -> str:
    return re.sub(r"\s+", " ", re.sub(r"<[^>]+>", " ", html))


def shadowera_deck(owner):
    entries = [("hero", card("shadowera", "Test Hero 01"), 1), ("deck", card("shadowera", "Test Ally 01"), 11)]
    return deck_services.create_deck(owner=owner, game=game("shadowera"), name="テストデッキ", entries=entries)


@pytest.mark.parametrize(
    ("language", "heading", "wrong"), [("ja", "コピー数", "枚数"), ("zh-hant", "複製次數", "張數")]
)
def test_the_published_list_heads_times_copied_as_copies_made_not_cards_held(
    synthetic_cards, owner, language, heading, wrong
):
    with translation.override("en"):
        community_services.publish(shadowera_deck(owner), user=owner, title="テスト公開")
    page = Client(HTTP_ACCEPT_LANGUAGE=language).get("/community/decks/published/").content.decode()
    heads = re.findall(r"<th>([^<]*)</th>", page)
    assert heading in heads and wrong not in heads


@pytest.mark.parametrize(
    ("language", "shown"),
    [("ja", "(繁体字中国語, 下書き)"), ("zh-hant", "(繁體中文, 草稿)"), ("en", "(Traditional Chinese, draft)")],
)
def test_a_change_sets_new_track_names_its_language_and_state_in_words(synthetic_cards, owner, language, shown):
    proposed = {"key": "SE9-WORDS", "kind": "hero", "fields": {"health": 30}, "texts": {"ja": {"name": "テスト"}}}
    with translation.override("en"):
        change_set = contribution_services.submit_change_set(
            author=owner,
            game=game("shadowera"),
            cards=[proposed],
            source_kind="own_copy",
            tracks=[{"language": "zh-hant", "name": "テスト譯本", "credits": "テスト"}],
        )
    assert change_set.status == ChangeSet.Status.PENDING
    page = text_of(signed_in(owner, language).get(f"/contributions/{change_set.pk}/").content.decode())
    assert f"テスト譯本 {shown}" in page
    assert "zh-hant," not in page


def test_the_japanese_form_offers_the_japanese_form_of_a_specialty(synthetic_cards, owner):
    page = signed_in(owner, "ja").get("/contributions/games/suikoden/contribute/?kind=character").content.decode()
    block = page[page.index('name="field_specialties"') - 400 : page.rindex('name="field_specialties"') + 400]
    assert "射撃" in text_of(block) and "射擊" not in text_of(block)
    chinese = (
        signed_in(owner, "zh-hant").get("/contributions/games/suikoden/contribute/?kind=character").content.decode()
    )
    assert "射擊" in text_of(chinese[chinese.index('name="field_specialties"') - 400 :])


@pytest.mark.parametrize("language", ["ja", "zh-hant", "en"])
def test_the_site_notes_on_a_game_read_in_the_readers_language(seeded_db, language):
    """The site's own sentences about a game (from the public sources) are not English on other pages."""
    for slug, english in (("endbreaker", "Publisher and contents"), ("shadowera", "Card types")):
        page = Client(HTTP_ACCEPT_LANGUAGE=language).get(f"/games/{slug}/").content.decode()
        rules = page[page.index('class="rules"') :]
        assert (english in rules) == (language == "en"), (slug, language)
    japanese = Client(HTTP_ACCEPT_LANGUAGE="ja").get("/games/endbreaker/").content.decode()
    assert "発行元と内容" in japanese and "with Tommy Walker and Broccoli" not in japanese


def test_the_goldfish_breadcrumb_goes_from_the_game_to_the_deck(synthetic_cards, owner):
    deck = shadowera_deck(owner)
    page = signed_in(owner, "en").get(f"/simulator/decks/{deck.pk}/goldfish/?seed=1").content.decode()
    crumbs = page[page.index('class="breadcrumbs"') : page.index("</nav>", page.index('class="breadcrumbs"'))]
    assert crumbs.index("/games/shadowera/") < crumbs.index(f"/decks/{deck.pk}/")
    assert text_of(crumbs).split("›")[1].strip() == "テストデッキ"


def test_a_comments_report_is_not_inside_its_reply_disclosure(synthetic_cards, owner, other):
    with translation.override("en"):
        publication = community_services.publish(shadowera_deck(owner), user=owner, title="テスト")
        community_services.add_comment(publication, author=other, body="テストのコメント")
    assert Comment.objects.count() == 1
    page = signed_in(other, "en").get(f"/community/decks/published/{publication.pk}/").content.decode()
    comment = page[page.index('class="comment') :]
    reply = comment[comment.index("<details") : comment.index("</details>")]
    assert "Reply" in reply and "report" not in reply.lower()
    report = comment[comment.index("<details", comment.index("</details>")) :]
    assert report.index("<summary>Report</summary>") < report.index("Report this comment") < report.index("</details>")


def test_an_editor_finds_the_review_queue_in_the_header(synthetic_cards):
    editor = make_editor(game("suikoden"))
    header = signed_in(editor, "en").get("/").content.decode().split("</header>", 1)[0]
    assert 'href="/contributions/review/"' in header
    reader = make_user("reader")
    header = signed_in(reader, "en").get("/").content.decode().split("</header>", 1)[0]
    assert 'href="/contributions/review/"' not in header
    assert GameRole.objects.filter(user=reader).count() == 0


def builder_buttons(owner, language: str, query: str) -> dict[str, list[str]]:
    deck = deck_services.create_deck(
        owner=owner,
        game=game("epicbattles"),
        name="テストデッキ",
        entries=[("character", card("epicbattles", "Test-Zero"), 1)],
    )
    client = signed_in(owner, language)
    html = client.get(f"/decks/{deck.pk}/edit/search/?q={query}", headers={"HX-Request": "true"}).content.decode()
    rows = re.findall(r'<li class="search-row" data-card="([^"]+)">(.*?)</li>', html, flags=re.S)
    return {
        key: [text_of(words).strip() for words in re.findall(r'name="zone"[^>]*>(.*?)</button>', row)]
        for key, row in rows
    }


@pytest.mark.parametrize(
    ("language", "character", "attack"),
    [
        ("en", ["Add as character"], ["Add to deck", "Add to side deck"]),
        ("ja", ["キャラクターとして追加"], ["デッキに追加", "サイドデッキに追加"]),
        ("zh-hant", ["加入為角色"], ["加入牌組", "加入副牌"]),
    ],
)
def test_the_builders_buttons_put_a_character_in_its_slot_and_an_attack_in_a_pile(
    synthetic_cards, owner, language, character, attack
):
    buttons = builder_buttons(owner, language, "Test")
    assert buttons["Test-Zero"] == character
    assert buttons["Test Punch"] == attack


def test_english_names_the_sites_own_fields_in_british_spelling_and_quotes_a_sources_as_written(synthetic_cards):
    suikoden = text_of(Client(HTTP_ACCEPT_LANGUAGE="en").get("/games/suikoden/cards/901/").content.decode())
    assert "Defence" in suikoden and "Defense" not in suikoden  # 防御力, the site's own translation
    assert field_label(game("shadowera"), "defense", "en") == "Defense"  # the armour field as its wiki writes it
