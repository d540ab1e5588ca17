"""Contributions as players meet them: a change set is checked as the importer checks a file, waits for an
editor unless its author is trusted, applies as one revision of its cards with its source, never overwrites
someone else's change, and tells its author what became of it.

Every card here is synthetic (keys in the 9xx/EB9 ranges, names marked テスト).
"""

from __future__ import annotations

import sys

import pytest
from django.core import mail
from django.utils import translation

from cards.models import Card, Game
from cards.revisions import card_revisions
from cards.services import card_state
from contributions import selectors, services
from contributions.models import ChangeSet, GameRole
from notifications import selectors as inbox
from notifications.models import Notification

from .support.contributions import _hero
from .users import make_user

pytestmark = pytest.mark.django_db


def submit(author, game, cards, **options):
    options.setdefault("source_kind", ChangeSet.SourceKind.OWN_COPY)
    return services.submit_change_set(author=author, game=game, cards=cards, **options)


def test_a_players_new_card_waits_for_an_editor_and_is_not_in_the_database_meanwhile(player, game):
    change_set = submit(player, game, [_hero()])
    assert change_set.status == ChangeSet.Status.PENDING
    assert not Card.objects.filter(game=game, key="SE9-HERO").exists()


def test_an_editor_accepts_it_and_the_card_appears_as_one_revision_with_its_source(player, editor, game):
    change_set = submit(player, game, [_hero()], source_kind=ChangeSet.SourceKind.PHOTO, source_detail="box 3")
    services.accept_change_set(editor=editor, change_set_id=change_set.pk, reason="checked against my copy")
    card = Card.objects.get(game=game, key="SE9-HERO")
    assert card.fields["health"] == 30
    (revision,) = card_revisions(card)
    assert revision.user == "player"
    assert revision.kind == "contribution"
    assert f"#{change_set.pk}" in revision.detail and "box 3" in revision.detail
    change_set.refresh_from_db()
    assert change_set.status == ChangeSet.Status.ACCEPTED and change_set.decided_by == editor
    assert change_set.revision_id is not None


def test_a_trusted_contributors_change_applies_at_once(player, game):
    GameRole.objects.create(user=player, game=game, role=GameRole.Role.TRUSTED)
    change_set = submit(player, game, [_hero()])
    assert change_set.status == ChangeSet.Status.ACCEPTED
    assert Card.objects.filter(game=game, key="SE9-HERO").exists()
    assert Notification.objects.get(recipient=player, kind="change_set").verb == "applied"


def test_a_value_its_game_does_not_declare_is_refused_naming_the_field_in_the_readers_language(player, game):
    bad = _hero()
    bad["fields"]["health"] = "strong"
    with pytest.raises(services.ContributionError) as refused:
        submit(player, game, [_hero("SE9-OK"), bad])
    with translation.override("ja"):
        errors = {place: [str(message) for message in messages] for place, messages in refused.value.errors.items()}
    assert list(errors) == ["cards[1].fields.health"]
    assert "「strong」は整数ではありません。" in errors["cards[1].fields.health"][0]
    assert not ChangeSet.objects.exists()  # all or nothing


def test_a_blocked_player_may_not_contribute(player, game):
    GameRole.objects.create(user=player, game=game, role=GameRole.Role.BLOCKED)
    with pytest.raises(services.NotAllowed):
        submit(player, game, [_hero()])
    assert not selectors.may_contribute(player, game)


def test_only_an_editor_of_the_game_reviews_it(player, game):
    change_set = submit(player, game, [_hero()])
    other_editor = make_user("suikoden-editor")
    GameRole.objects.create(user=other_editor, game=Game.objects.get(slug="suikoden"), role=GameRole.Role.EDITOR)
    for reviewer in (player, other_editor):
        with pytest.raises(services.NotAllowed):
            services.accept_change_set(editor=reviewer, change_set_id=change_set.pk)
    assert list(selectors.review_queue(other_editor)) == []


def test_a_rejection_needs_a_reason_and_the_author_reads_it_in_the_inbox_and_by_mail(
    player, editor, game, django_capture_on_commit_callbacks
):
    change_set = submit(player, game, [_hero()])
    with pytest.raises(services.ContributionError):
        services.reject_change_set(editor=editor, change_set_id=change_set.pk, reason=" ")
    with django_capture_on_commit_callbacks(execute=True):
        services.reject_change_set(editor=editor, change_set_id=change_set.pk, reason="Health is 25 on my copy.")
    notice = Notification.objects.get(recipient=player)
    assert notice.verb == "rejected" and notice.read_at is None
    assert inbox.unread_count(player) == 1
    (message,) = mail.outbox
    assert message.to == ["player@example.com"]
    assert f"#{change_set.pk}" in message.subject and "Health is 25 on my copy." in message.body
    assert not Card.objects.filter(key="SE9-HERO").exists()
    with pytest.raises(services.ContributionError):  # reviewed once only
        services.accept_change_set(editor=editor, change_set_id=change_set.pk)


def test_a_stale_form_is_refused_with_the_other_change_shown(player, editor, game):
    GameRole.objects.create(user=player, game=game, role=GameRole.Role.TRUSTED)
    submit(player, game, [_hero(health=30)])
    card = Card.objects.get(key="SE9-HERO")
    seen = services.state_digest(card_state(card))
    # Someone else corrects the card after the player opened the form…
    submit(editor, game, [_hero(health=28)])
    # …so the player's change, made on what they saw, is refused and the card keeps the other change.
    with pytest.raises(services.CardChangedSince) as refused:
        submit(player, game, [_hero(health=31)], seen={"SE9-HERO": seen})
    assert refused.value.cards["SE9-HERO"]["fields"]["health"] == 28
    assert Card.objects.get(key="SE9-HERO").fields["health"] == 28


def test_accepting_a_change_set_whose_card_changed_since_is_refused(player, editor, game):
    GameRole.objects.create(user=make_user("trusted"), game=game, role=GameRole.Role.TRUSTED)
    waiting = submit(player, game, [_hero(health=30)])
    submit(GameRole.objects.get(role="trusted").user, game, [_hero(health=29)])
    with pytest.raises(services.CardChangedSince):
        services.accept_change_set(editor=editor, change_set_id=waiting.pk)
    waiting.refresh_from_db()
    assert waiting.status == ChangeSet.Status.PENDING
    assert Card.objects.get(key="SE9-HERO").fields["health"] == 29


def test_a_change_that_changes_nothing_is_refused(player, editor, game):
    submit(editor, game, [_hero()])
    with pytest.raises(services.ContributionError) as refused:
        submit(player, game, [_hero()])
    assert refused.value.code == "no_change"


# --- the pages --------------------------------------------------------------------------------------------


def _form_data(**values) -> dict:
    data = {"kind": "hero", "source_kind": "own_copy", "seen": ""}
    data.update(values)
    return data


def test_a_player_adds_a_card_through_the_form_generated_from_the_games_declarations(client, player, editor, game):
    client.force_login(player)
    page = client.get("/contributions/games/shadowera/contribute/?kind=hero", HTTP_ACCEPT_LANGUAGE="ja")
    text = page.content.decode()
    assert page.status_code == 200
    assert 'name="field_health"' in text and 'min="' in text  # a number box for a number field
    assert 'value="human"' in text and "ヒューマン" in text  # a choice by its label
    assert 'name="field_attack"' not in text  # an ally's value is not a hero's
    response = client.post(
        "/contributions/games/shadowera/contribute/",
        _form_data(key="SE9-HERO", field_health="30", field_faction="human", text_en_name="Test Hero"),
    )
    change_set = ChangeSet.objects.get()
    assert response.status_code == 302 and response["Location"] == f"/contributions/{change_set.pk}/"
    assert not Card.objects.filter(key="SE9-HERO").exists()
    # The editor sees it in the queue, reads the diff and accepts it.
    client.force_login(editor)
    assert f"/contributions/{change_set.pk}/" in client.get("/contributions/review/").content.decode()
    page = client.get(f"/contributions/{change_set.pk}/", HTTP_ACCEPT_LANGUAGE="ja").content.decode()
    assert "Test Hero" in page and 'value="accept"' in page
    client.post(f"/contributions/{change_set.pk}/review/", {"decision": "accept", "reason": ""})
    assert Card.objects.get(key="SE9-HERO").fields == {"faction": "human", "health": 30}
    history = client.get("/games/shadowera/cards/SE9-HERO/history/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f'<a href="/contributions/{change_set.pk}/"><span class="name" lang="zxx">#{change_set.pk}' in history
    assert "contribution by" in history


def test_a_wrong_value_in_the_form_is_refused_beside_its_field_in_the_readers_language(client, player, game):
    client.force_login(player)
    response = client.post(
        "/contributions/games/shadowera/contribute/",
        _form_data(key="SE9-HERO", field_health="たくさん", text_ja_name="テスト英雄"),
        HTTP_ACCEPT_LANGUAGE="zh-hant",
    )
    assert response.status_code == 200
    form = response.context["form"]
    assert "「たくさん」不是整數。" in form.errors["field_health"][0]
    assert not ChangeSet.objects.exists()


def test_a_stale_edit_form_is_refused_and_shows_the_card_as_it_is_now(client, player, editor, game):
    submit(editor, game, [_hero(health=30)])
    client.force_login(player)
    page = client.get("/contributions/games/shadowera/cards/SE9-HERO/edit/")
    seen = page.context["form"].initial["seen"]
    submit(editor, game, [_hero(health=28)])  # meanwhile, an editor corrects it
    response = client.post(
        "/contributions/games/shadowera/cards/SE9-HERO/edit/",
        _form_data(seen=seen, field_health="31", field_faction="human", text_en_name="テスト英雄"),
        HTTP_ACCEPT_LANGUAGE="en",
    )
    text = response.content.decode()
    assert response.status_code == 200
    assert "Someone changed SE9-HERO after you opened it" in text
    assert "The card as it is now" in text and ">28<" in text
    assert Card.objects.get(key="SE9-HERO").fields["health"] == 28


def test_contributing_needs_an_account_and_reviewing_needs_the_editor_role(client, player, game):
    assert client.get("/contributions/games/shadowera/contribute/").status_code == 302  # to the login page
    client.force_login(player)
    assert client.get("/contributions/review/").status_code == 403
    change_set = submit(player, game, [_hero()])
    page = client.get(f"/contributions/{change_set.pk}/").content.decode()
    assert 'value="accept"' not in page
    client.post(f"/contributions/{change_set.pk}/review/", {"decision": "accept"})
    change_set.refresh_from_db()
    assert change_set.status == ChangeSet.Status.PENDING


def test_the_inbox_shows_what_became_of_a_change_set_once(client, player, editor, game):
    change_set = submit(player, game, [_hero()])
    services.reject_change_set(editor=editor, change_set_id=change_set.pk, reason="No source.")
    client.force_login(player)
    page = client.get("/notifications/", HTTP_ACCEPT_LANGUAGE="en").content.decode()
    assert f"Your change set #{change_set.pk} of" in page and "was rejected" in page and " unread" in page
    client.post("/notifications/read/")
    assert "unread" not in client.get("/notifications/").content.decode().split("<ul", 1)[1]


# --- bulk contributions -----------------------------------------------------------------------------------

TABLE = (
    "game\tkey\tkind\tfield:health\tfield:faction\tname:ja\n"
    "shadowera\tSE9-A\thero\t30\thuman\tテスト甲\n"
    "shadowera\tSE9-B\thero\t{health_b}\tshadow\tテスト乙\n"
    "shadowera\tSE9-HERO\thero\t29\thuman\tテスト英雄\n"
)


def _bulk(client, text: str, action: str, language: str = "en"):
    data = {"text": text, "source_kind": "own_copy", "action": action}
    return client.post("/contributions/games/shadowera/contribute/bulk/", data, HTTP_ACCEPT_LANGUAGE=language)


def test_a_pasted_table_is_previewed_row_by_row_and_submitted_as_one_change_set(client, player, editor, game):
    submit(editor, game, [_hero(health=30)])  # SE9-HERO exists; the table corrects its health
    waiting = submit(make_user("someone"), game, [_hero(health=31)])  # and someone else's change waits
    client.force_login(player)
    page = _bulk(client, TABLE.format(health_b="25"), "preview")
    preview = page.context["preview"]
    assert preview.counts == {"new": 2, "changed": 1, "unchanged": 0} and preview.can_submit
    hero = next(row for row in preview.rows if row.key == "SE9-HERO")
    # The row changes the health and adds a Japanese name; the values it leaves out are kept.
    assert [(change.label, change.before, change.after) for change in hero.changes] == [
        ("Health", "30", "29"),
        ("Japanese: name", None, "テスト英雄"),
    ]
    assert hero.pending == [waiting.pk]
    assert not ChangeSet.objects.filter(author=player).exists()  # a preview writes nothing
    response = _bulk(client, TABLE.format(health_b="25"), "submit")
    change_set = ChangeSet.objects.get(author=player)
    assert response.status_code == 302 and change_set.changes.count() == 3


def test_a_bad_row_is_named_with_its_field_and_nothing_can_be_submitted(client, player, game):
    client.force_login(player)
    page = _bulk(client, TABLE.format(health_b="たくさん"), "submit", language="ja")
    preview = page.context["preview"]
    row = next(row for row in preview.rows if row.key == "SE9-B")
    assert row.problems == [
        ("3行目 · 体力 (field:health)", "「たくさん」は整数ではありません。 入力できる値：0 以上の整数。")
    ]
    assert not preview.can_submit
    assert not ChangeSet.objects.exists()  # all or nothing, even when asked to submit


@pytest.mark.parametrize(
    ("text", "place"),
    [
        ("key\tname:ja\nSE9-A\tテスト", "1行目"),  # a table without its game column
        ('{"game": "shadowera", "cards": [', "1行目、33列目"),  # JSON cut short
    ],
)
def test_a_problem_of_the_whole_file_names_its_place_in_the_readers_language(client, player, game, text, place):
    client.force_login(player)
    page = _bulk(client, text, "preview", language="ja")
    places = [where for where, _field, _message in page.context["preview"].problems]
    assert places and places[0].startswith(place), places
    assert "line" not in page.content.decode().split('class="bulk-preview"')[-1]


@pytest.mark.parametrize(
    ("text", "language", "problem"),
    [
        (
            '{"game": "shadowera", "cards": [1 2]}',
            "ja",
            ("1行目、35列目", "", "有効な JSON ではありません（ここに項目を区切るカンマが必要です）。"),
        ),
        (
            '{"game": "shadowera", "cards": [{"key": "SE9-A\\q"}]}',
            "zh-hant",
            ("第1行、第47欄", "", "這不是有效的 JSON（此處的反斜線開始了JSON沒有的跳脫序列）。"),
        ),
        (
            '{"game": "shadowera", "cards": [{"key": "SE9-A", "number": 1' + "0" * 5000 + "}]}",
            "ja",
            ("ファイル全体", "", f"ファイルを読めません：{sys.get_int_max_str_digits()}桁を超える数値が入っています。"),
        ),
        (
            '{"game": "shadowera", "cards": ' + "[" * 40 + "]" * 40 + "}",
            "zh-hant",
            ("整個檔案", "", "無法讀取檔案：巢狀層數超過32層。"),
        ),
    ],
)
def test_a_broken_json_file_is_explained_in_the_readers_language(client, player, game, text, language, problem):
    client.force_login(player)
    preview = _bulk(client, text, "submit", language=language).context["preview"]
    assert preview.problems == [problem]
    assert not preview.can_submit
    assert not ChangeSet.objects.exists()  # asked to submit, it wrote nothing


def test_a_bulk_file_carries_cards_of_this_game_only(client, player, game):
    client.force_login(player)
    other_game = '{"game": "suikoden", "cards": [{"key": "999", "texts": {"ja": {"name": "テスト"}}}]}'
    assert not _bulk(client, other_game, "preview").context["preview"].can_submit
    with_terms = (
        '{"game": "shadowera", "cards": [{"key": "SE9-A", "texts": {"ja": {"name": "テスト"}}}],'
        ' "terms": [{"key": "t", "texts": {"ja": {"name": "テスト"}}}]}'
    )
    preview = _bulk(client, with_terms, "preview", language="en").context["preview"]
    assert (
        "the whole file",
        "",
        "A contribution holds cards only; glossary terms and rules are for the editors' import.",
    ) in (preview.problems)


def test_card_states_read_in_one_query_agree_with_each_cards_own_state(player, editor, game):
    from cards.services import card_states

    submit(editor, game, [_hero("SE9-HERO"), {"key": "SE9-BARE", "texts": {"ja": {"name": "テスト"}}}])
    Card.objects.filter(key="SE9-BARE").first().texts.all().delete()  # a card left without texts
    states = card_states(game, ["SE9-HERO", "SE9-BARE", "SE9-NONE"])
    assert set(states) == {"SE9-HERO", "SE9-BARE"}
    for key, state in states.items():
        assert state == card_state(Card.objects.get(key=key))


# --- the Shadow Era flow, end to end -----------------------------------------------------------------------


def test_a_new_player_fills_shadow_era_then_builds_a_legal_deck_whose_goldfish_wins(client, editor, game):
    """Sign up, add a hero through the form and ten allies through a pasted table; an editor accepts both;
    the deck of the hero and four of each ally is legal, and its goldfish deals damage and wins."""
    from decks import selectors as deck_selectors
    from decks import services as deck_services
    from simulator import adapters
    from simulator.core import play_game
    from simulator.engines import get_engine

    from .users import PASSWORD

    signed_up = client.post(
        "/accounts/signup/", {"username": "newplayer", "password1": PASSWORD, "password2": PASSWORD}
    )
    assert signed_up.status_code == 302
    hero_form = {
        "key": "SE9-HERO",
        "kind": "hero",
        "field_faction": "human",
        "field_class": ["warrior"],
        "field_health": "30",
        "text_en_name": "テスト英雄",
        "source_kind": "own_copy",
    }
    assert client.post("/contributions/games/shadowera/contribute/", hero_form).status_code == 302
    # Every value the deck rules read is given: an ally of unknown class would leave the deck unchecked.
    rows = ["game\tkey\tkind\tfield:cost\tfield:faction\tfield:class\tfield:attack\tfield:health\tname:en"]
    rows += [
        f"shadowera\tSE9-A{index:02d}\tally\t{1 + index % 3}\thuman\twarrior\t{2 + index % 2}\t3\tテスト{index}"
        for index in range(10)
    ]
    table = "\n".join(rows) + "\n"
    submitted = client.post(
        "/contributions/games/shadowera/contribute/bulk/",
        {"text": table, "source_kind": "own_copy", "action": "submit"},
    )
    assert submitted.status_code == 302
    waiting = list(ChangeSet.objects.filter(status=ChangeSet.Status.PENDING).order_by("pk"))
    assert [change_set.changes.count() for change_set in waiting] == [1, 10]
    assert not Card.objects.filter(key__startswith="SE9-").exists()

    client.force_login(editor)
    for change_set in waiting:
        client.post(f"/contributions/{change_set.pk}/review/", {"decision": "accept", "reason": ""})
    assert Card.objects.filter(key__startswith="SE9-").count() == 11

    player = ChangeSet.objects.first().author
    cards = {card.key: card for card in Card.objects.filter(key__startswith="SE9-")}
    entries = [("hero", cards["SE9-HERO"], 1)] + [("deck", cards[f"SE9-A{index:02d}"], 4) for index in range(10)]
    deck = deck_services.create_deck(owner=player, game=game, name="テスト", entries=entries)
    verdict = deck_selectors.verdict(deck, "en")
    assert verdict.legal, verdict
    engine = get_engine("shadowera")
    results = [play_game(engine, adapters.sim_deck(deck), seed=seed, turns=20) for seed in range(5)]
    assert all(sum(turn.damage for turn in result.turns) > 0 for result in results)
    assert any(result.won_on_turn is not None for result in results)


def test_the_card_form_names_each_text_box_with_a_capital_in_english(client, player, game):
    """Seen on the screenshot review: "name:", "rules text:" among "Values from:" and "Comment for the editors:"."""
    client.force_login(player)
    page = client.get("/contributions/games/shadowera/contribute/", HTTP_ACCEPT_LANGUAGE="en")
    body = page.content.decode().split("</head>", 1)[1]
    assert ">Rules text:<" in body and ">Translator&#x27;s notes:<" in body
    assert ">rules text:<" not in body and ">name:<" not in body
