"""Backups (cardsite/backup.py; ``manage.py backup FILE`` and ``manage.py restore FILE``).

Once per module a synthetic database with rows in every backed-up model is written to a file and
rolled back: the seed data, the clearly synthetic cards of tests/synthetic_decks.py and a 「テスト」
card with awkward text, users with passwords, a group, permissions, an API token, an admin log entry,
a deck, a queued run with its task and a finished one, a session (which is left out). Each test then
restores that file: into the empty test database (in this process), or — for the round trip
SQLite → PostgreSQL → SQLite — into databases of its own, through the commands in subprocesses.
"""

from __future__ import annotations

import gzip
import io
import json
import os
import secrets
import subprocess
import sys
import tempfile
from collections import defaultdict
from collections.abc import Callable
from dataclasses import dataclass
from datetime import timedelta
from pathlib import Path
from typing import Any

import pytest
from axes.models import AccessAttempt, AccessAttemptExpiration, AccessFailureLog, AccessLog
from django.apps import apps
from django.contrib.admin.models import ADDITION, LogEntry
from django.contrib.auth import get_user_model
from django.contrib.auth.models import Group, Permission
from django.contrib.contenttypes.models import ContentType
from django.contrib.sessions.models import Session
from django.core.management import call_command
from django.core.management.base import CommandError
from django.db import transaction
from django.test import Client
from django.utils import timezone

from accounts.services import token_create
from cards import services as card_services
from cards.importing import parse_json
from cards.models import Card, CardFieldValue, SearchDocument, SeedConflict
from cards.search.selectors import prepare_search
from cardsite import backup
from collection import services as collection_services
from decks import services as deck_services
from decks.models import Deck, DeckPlaceholder
from simulator.goldfish import services as simulator_services
from simulator.models import (
    ComparisonChunk,
    ComparisonRun,
    DeckAssumption,
    MovedSetup,
    SeatedGame,
    SimulationRun,
    StrategySearch,
    StrategySearchChunk,
    WrittenStrategy,
)

from .synthetic_decks import SHADOWERA_ALLY, card, game, load_synthetic_cards

ROOT = Path(__file__).resolve().parent.parent
PASSWORD = "テスト-correct-horse-42"
OWNER = "テスト所有者"
TEST_CARD = "TEST-001"
TEST_NAME = "テスト用の札"
DECK_NAME = "テストデッキ"


# --- the synthetic database -----------------------------------------------------------------------


def fill_every_model() -> None:
    """Rows in every model that a backup holds (a model added to the site needs rows here, or an exclusion)."""
    call_command("loadcards", verbosity=0)
    load_synthetic_cards()
    awkward = 'テスト用の架空のカード。\n二行目："引用"、\\ 逆斜線、\t タブ、𠮷、🃏、\u2028 段落。'
    test_card = {
        "key": TEST_CARD,
        "number": TEST_CARD,
        "kind": "ally",
        "fields": SHADOWERA_ALLY,
        "source": "test",
        "texts": {
            "ja": {"name": TEST_NAME, "text": awkward, "source": "test"},
            "zh-hant": {"name": "測試用的牌", "text": "測試用的虛構卡片。", "source": "test"},
            "en": {"name": 'Test card "quoted"', "text": "A made-up card for tests.", "source": "test"},
        },
    }
    bundle, problems = parse_json(json.dumps({"game": "shadowera", "cards": [test_card]}), "test")
    assert not problems, problems
    card_services.import_bundle(bundle)
    # A seed that changed a card changed since: kept for an editor (cards.services._seed_card).
    conflicted = Card.objects.get(key=TEST_CARD)
    SeedConflict.objects.create(card=conflicted, base=None, seed=card_services.card_state(conflicted))

    users = get_user_model()
    owner = users.objects.create_user(OWNER, email="owner@example.test", password=PASSWORD)
    admin = users.objects.create_superuser("test-admin", password=PASSWORD)
    group = Group.objects.create(name="テストグループ")
    group.permissions.add(Permission.objects.get(codename="view_deck"))
    owner.groups.add(group)
    owner.user_permissions.add(Permission.objects.get(codename="change_deck"))
    token_create(user=owner)
    attempt = AccessAttempt.objects.create(
        username=OWNER, ip_address="127.0.0.1", user_agent="test", path_info="/accounts/login/", failures_since_start=1
    )
    AccessAttemptExpiration.objects.create(access_attempt=attempt, expires_at=timezone.now() + timedelta(minutes=15))
    AccessLog.objects.create(username=OWNER, ip_address="127.0.0.1", user_agent="test", path_info="/accounts/login/")
    AccessFailureLog.objects.create(
        username=OWNER, ip_address="127.0.0.1", user_agent="test", path_info="/accounts/login/", locked_out=False
    )
    Session.objects.create(session_key="test" * 8, session_data="test", expire_date=timezone.now() + timedelta(days=1))
    # A contribution waiting for review, one applied at once by a trusted contributor, and the notice it sent.
    from contributions import services as contribution_services
    from contributions.models import GameRole

    proposed = {"key": "SE9-BACKUP", "kind": "hero", "fields": {"health": 30}, "texts": {"ja": {"name": "テスト"}}}
    contribution_services.submit_change_set(
        author=owner, game=game("shadowera"), cards=[proposed], source_kind="own_copy", comment="テスト"
    )
    GameRole.objects.create(user=admin, game=game("shadowera"), role=GameRole.Role.TRUSTED, granted_by=admin)
    contribution_services.submit_change_set(
        author=admin, game=game("shadowera"), cards=[{**proposed, "key": "SE9-APPLIED"}], source_kind="photo"
    )
    # A second translation track, made by a change set, with a card's text in it, and a reader who prefers it.
    translated = {**proposed, "key": "SE9-APPLIED", "translations": {"zh-hant": {"テスト譯本": {"text": "測試。"}}}}
    contribution_services.submit_change_set(
        author=admin,
        game=game("shadowera"),
        cards=[translated],
        source_kind="own_copy",
        tracks=[{"language": "zh-hant", "name": "テスト譯本", "credits": "テスト"}],
    )
    # A picture of a card, uploaded and shown by a trusted contributor's change set (the files stay in the
    # media storage: a backup holds their rows, not the files).
    from django.test import override_settings
    from PIL import Image

    from cards.images.services import image_store

    picture = io.BytesIO()
    Image.new("RGB", (60, 84), (20, 90, 160)).save(picture, "PNG")
    picture.seek(0)
    with override_settings(MEDIA_ROOT=str(Path(tempfile.mkdtemp(prefix="backup-media-")))):
        stored = image_store(uploader=admin, stream=picture)
        contribution_services.submit_change_set(
            author=admin,
            game=game("shadowera"),
            cards=[],
            source_kind="photo",
            images=[contribution_services.ImageProposal(key="SE9-APPLIED", image=stored.pk, side="face", language="")],
        )
        # Photos read as cards (readings): a batch with one photo read, its lines and proposals kept as JSON.
        from readings.models import PhotoReading, ReadingBatch

        batch = ReadingBatch.objects.create(
            user=owner, game=game("shadowera"), status="done", finished_at=timezone.now()
        )
        PhotoReading.objects.create(
            batch=batch,
            index=1,
            image=stored,
            status="done",
            progress=100,
            reading={"lines": [{"text": "テスト"}]},
            proposals=[{"field": "number", "value": "SE9-APPLIED"}],
            card=Card.objects.get(key="SE9-APPLIED"),
            card_key="SE9-APPLIED",
            matched_by="number",
        )
    card_services.track_preference_set(
        user=owner,
        cookie="",
        game=game("shadowera"),
        language="zh-hant",
        track=game("shadowera").tracks.get(name="テスト譯本"),
    )

    deck = deck_services.create_deck(
        owner=owner,
        game=game("shadowera"),
        name=DECK_NAME,
        description="テスト用。",
        visibility=Deck.Visibility.LINK,
        entries=[
            ("hero", card("shadowera", "Test Hero 01"), 1),
            ("deck", card("shadowera", "Test Ally 01"), 4),
            ("deck", card("shadowera", TEST_CARD), 2),
        ],
    )
    # The owner's organisation: a folder, tags (the many-to-many rows too) and the archive.
    from decks.organise import services as organise_services

    organise_services.organise(
        deck,
        folder=organise_services.create_folder(owner, "テスト用フォルダ"),
        tags=["テスト", "budget"],
        archived=True,
    )
    LogEntry.objects.create(
        user=admin,
        content_type=ContentType.objects.get_for_model(Deck),
        object_id=str(deck.pk),
        object_repr=deck.name,
        action_flag=ADDITION,
        change_message='[{"added": {}}]',
    )
    # A published deck (community): liked, kept, commented and replied to (notifications), reported, moderated,
    # and a blocked user.
    from community import services as community_services

    publication = community_services.publish(deck, user=owner, title="テスト公開", description="**テスト** 𠮷\n\n- 一")
    community_services.set_like(publication, admin, True)
    community_services.set_favourite(publication, admin, True)
    remark = community_services.add_comment(publication, author=admin, body="テスト：コメント")
    community_services.add_comment(publication, author=owner, body="返信", parent=remark)
    reported = community_services.report(publication, reporter=admin, reason="other", note="テスト", comment=remark)
    community_services.moderate(moderator=admin, action="hide", reason="テスト", report=reported)
    troll = users.objects.create_user("テスト荒らし", password=PASSWORD)
    community_services.moderate(moderator=admin, action="block", reason="テスト", user=troll)
    # The inbox's e-mail choice of a kind (notifications.emailpreference); the comments above made its rows.
    from notifications import services as inbox_services

    inbox_services.set_email_preferences(owner, {"comment": True})
    # Queued: the site's database task backend stores its task (django_tasks_db.dbtaskresult).
    simulator_services.start_run(
        deck=deck, requester=owner, games=100, turns=5, policy="default", params={}, language="ja", seed=7
    )
    SimulationRun.objects.create(
        deck=deck,
        requester=owner,
        games=1000,
        turns=3,
        seed=2**40 + 1,
        params={"opening_hand": 6},
        status=SimulationRun.Status.DONE,
        progress=1000,
        result={"games": 1000, "win_rate": 0.1234567890123, "turns": [{"turn": 1, "damage": 1.5e-7}]},
        started_at=timezone.now() - timedelta(seconds=3),
        finished_at=timezone.now(),
    )
    comparison = ComparisonRun.objects.create(
        game=deck.game,
        requester=owner,
        strategies=["big_darc", "build_then_resolve"],
        setup={"knight": {"key": "城塞騎士", "fields": {"skill": "P", "at": 1}}},
        games=200,
        seed=2**33 + 5,
        sequential=True,
        looks=[1, 2],
        planned=200,
        status=ComparisonRun.Status.DONE,
        progress=200,
        result={"wins": [0.51234567890123, 0.48765432109877]},
    )
    ComparisonChunk.objects.create(
        run=comparison, index=0, first_block=0, last_block=2, status=ComparisonChunk.Status.DONE, result={"games": 2}
    )
    WrittenStrategy.objects.create(
        owner=owner, game=deck.game, name="テスト戦略", text="gain *  # 𠮷\nresolve always\n", visibility="link"
    )
    MovedSetup.objects.create(setup_id=2**40 + 3, deck=deck, choices=["EB9-910"])
    DeckAssumption.objects.create(deck=deck, key="assumed:scenario:1", field="payout", value="2", author=owner)
    DeckPlaceholder.objects.create(
        deck=deck, zone="characters", kind="character", values={"cost": 3}, name="仮 𠮷", count=4
    )
    SeatedGame.objects.create(
        owner=owner,
        game=deck.game,
        seats=["person", "big_darc"],
        setup={"knight": {"key": "城塞騎士", "fields": {"skill": "P", "at": 1}}},
        seed=2**40 + 1,
        answers=["EB1-001", "yes", "stop"],
        source={"comparison": comparison.pk, "percentile": 50},
    )
    search = StrategySearch.objects.create(
        game=deck.game,
        requester=owner,
        seed=9,
        setup={"knight": {"key": "城塞騎士"}},
        config={"offspring": 3},
        status=StrategySearch.Status.DONE,
        progress=4,
        result={"best": {"text": "gain *\n", "against": {"big_darc": [0.5, 0.4, 0.6, 100]}}},
    )
    StrategySearchChunk.objects.create(
        run=search, index=0, island=0, round=0, status=StrategySearchChunk.Status.DONE, played=4, state={"played": 4}
    )
    # A collection: the bound and a CJK-keyed card.
    collection_services.set_count(owner, card("shadowera", "Test Ally 01"), 999)
    collection_services.set_count(owner, card("suikoden", "テスト人物03"), 2)


def snapshot() -> dict[str, list[dict[str, Any]]]:
    """Every column of every backed-up row, read with the ORM (independently of the file)."""
    return {
        backup.label(model): list(
            model._base_manager.order_by("pk").values(*(f.attname for f in model._meta.local_concrete_fields))
        )
        for model in backup.backed_up_models()
    }


def row_counts() -> dict[str, Any]:
    """Rows of every table, with the ids of the content types and permissions (which a restore replaces)."""
    counts = {backup.label(model): model._base_manager.count() for model in backup.table_models()}
    counts["content type ids"] = sorted(ContentType.objects.values_list("pk", "app_label", "model"))
    counts["permission ids"] = sorted(Permission.objects.values_list("pk", "codename"))
    return counts


def read_file(path: Path) -> tuple[dict[str, Any], dict[str, list[dict[str, Any]]]]:
    """A backup's header and its rows per model."""
    rows: dict[str, list[dict[str, Any]]] = defaultdict(list)
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        header = json.loads(next(lines))
        for line in lines:
            record = json.loads(line)
            rows[record["model"]].append(record["fields"])
    return header, dict(rows)


@dataclass(frozen=True)
class Source:
    path: Path
    rows: dict[str, list[dict[str, Any]]]  # snapshot() of the synthetic database
    header: dict[str, Any]
    lines: list[str]  # the file's lines, decompressed

    def line_of(self, model: str, nth: int = 0) -> int:
        """The index in ``lines`` of the nth row of ``model`` (its line number is one more)."""
        return [i for i, line in enumerate(self.lines) if line.startswith(f'{{"model":"{model}"')][nth]


@pytest.fixture(scope="module")
def source(django_db_setup, django_db_blocker, tmp_path_factory) -> Source:
    path = tmp_path_factory.mktemp("backup") / "source.jsonl.gz"
    with django_db_blocker.unblock():
        with transaction.atomic():
            fill_every_model()
            backup.write_backup(path)
            rows = snapshot()
            transaction.set_rollback(True)
        ContentType.objects.clear_cache()
    with gzip.open(path, "rt", encoding="utf-8") as lines:
        text = list(lines)
    return Source(path=path, rows=rows, header=json.loads(text[0]), lines=text)


def restore(path: Path) -> str:
    out = io.StringIO()
    call_command("restore", str(path), stdout=out)
    return out.getvalue()


# --- what a backup holds ------------------------------------------------------------------------------


def test_every_model_is_backed_up_with_rows_or_excluded_with_a_reason(source):
    every_table = {m._meta.label_lower for m in apps.get_models(include_auto_created=True) if not m._meta.proxy}
    assert set(backup.EXCLUDED) <= every_table, "EXCLUDED names a model the site no longer has"
    assert all(reason.strip() for reason in backup.EXCLUDED.values())
    assert set(source.header["counts"]) == every_table - set(backup.EXCLUDED)
    without_rows = sorted(name for name, count in source.header["counts"].items() if count == 0)
    assert not without_rows, (
        f"no rows of {without_rows} in the synthetic database: give the model rows in fill_every_model() "
        "(tests/test_backup.py) so that its backup is tested, or add it to cardsite.backup.EXCLUDED with the reason"
    )
    # After a restore an excluded table is empty (or rebuilt), so no backed-up row may point into one.
    for model in backup.backed_up_models():
        for field in model._meta.local_concrete_fields:
            if field.is_relation:
                assert field.related_model._meta.label_lower not in backup.EXCLUDED, field


def test_the_file_has_a_header_and_one_row_per_line(source):
    header = source.header
    assert (header["format"], header["version"]) == ("cardsite-backup", 1)
    assert header["migrations"]["cards"][0] == "0001_initial"
    assert header["counts"]["cards.card"] == len(source.rows["cards.card"]) > 80
    assert sum(header["counts"].values()) == len(source.lines) - 1
    assert header["excluded"] == backup.EXCLUDED
    assert not any('"model":"sessions.session"' in line for line in source.lines)
    assert not any('"model":"cards.searchdocument"' in line for line in source.lines)


# --- restoring ----------------------------------------------------------------------------------------


def test_restore_brings_back_every_row_and_rebuilds_the_search_index(source, db, tmp_path):
    output = restore(source.path)

    assert f"{len(source.lines) - 1} rows" in output
    assert snapshot() == source.rows
    assert not Session.objects.exists()  # sessions are not backed up
    assert SearchDocument.objects.count() == Card.objects.count() > 0
    assert CardFieldValue.objects.filter(card__key=TEST_CARD).exists()
    again = backup.write_backup(tmp_path / "again.jsonl.gz")
    assert read_file(again.path)[1] == read_file(source.path)[1]


def test_a_restored_site_works_logins_deck_addresses_search_and_new_ids(source, db):
    restore(source.path)
    client = Client()

    response = client.post("/accounts/login/", {"username": OWNER, "password": PASSWORD})
    assert response.status_code == 302, "the restored password hash lets the user log in"
    deck = Deck.objects.get(name=DECK_NAME)
    assert deck.pk == next(row["id"] for row in source.rows["decks.deck"] if row["name"] == DECK_NAME)
    page = client.get(f"/decks/{deck.pk}/")
    assert page.status_code == 200 and DECK_NAME in page.content.decode()
    assert [found.key for found in prepare_search(TEST_NAME, "ja").cards] == [TEST_CARD]
    assert TEST_CARD in [found.key for found in prepare_search("game:shadowera attack>=2 測試用", "ja").cards]

    # Sequences start after the restored ids (PostgreSQL needs them reset).
    new_deck = deck_services.create_deck(owner=deck.owner, game=deck.game, name="テスト新デッキ")
    assert new_deck.pk > max(row["id"] for row in source.rows["decks.deck"])
    new_user = get_user_model().objects.create_user("テスト新人", password=PASSWORD)
    assert new_user.pk > max(row["id"] for row in source.rows["auth.user"])


def test_restore_refuses_a_database_that_is_not_empty(source, db):
    get_user_model().objects.create_user("テスト先客")
    before = row_counts()

    with pytest.raises(CommandError, match=r"the database is not empty \(auth\.user: 1 rows[,)]") as refused:
        restore(source.path)

    assert "\n" not in str(refused.value)
    assert row_counts() == before


@pytest.mark.parametrize(
    ("app", "migrations", "message"),
    [
        ("decks", ["0001_initial", "0002_future"], r"the migrations of app 'decks' differ \(the file has 0002_future"),
        ("cards", ["0001_initial"], r"the migrations of app 'cards' differ \(the database has 0002_search_index, "),
        ("not_an_app", ["0001_initial"], r"the file has migrations of app 'not_an_app', which is not installed here"),
    ],
)
def test_restore_refuses_a_file_of_another_migration_state(source, db, tmp_path, app, migrations, message):
    header = {**source.header, "migrations": {**source.header["migrations"], app: migrations}}
    path = tmp_path / "other.jsonl.gz"
    path.write_bytes(gzip.compress((json.dumps(header) + "\n" + "".join(source.lines[1:])).encode()))
    before = row_counts()

    with pytest.raises(CommandError, match=message):
        restore(path)

    assert row_counts() == before


# --- damaged files: refused with one line naming the place, nothing written ----------------------------


def _gzip(lines: list[str]) -> bytes:
    return gzip.compress("".join(lines).encode())


def _edit_row(source: Source, model: str, change: Callable[[dict[str, Any]], None], nth: int = 0):
    index = source.line_of(model, nth)
    record = json.loads(source.lines[index])
    change(record)
    lines = [*source.lines]
    lines[index] = json.dumps(record, ensure_ascii=False) + "\n"
    return lines, index + 1


def not_gzip(source):
    return "".join(source.lines).encode(), r"source\.jsonl\.gz: not a backup file: it is not gzip-compressed"


def truncated(source):
    data = _gzip(source.lines)
    return data[: len(data) * 2 // 3], r"truncated: the compressed data ends after line \d+"


def empty(source):
    return b"", r"the file is empty"


def not_a_backup(source):
    return _gzip(['{"model": "cards.card"}\n']), r"line 1: not a cardsite-backup header"


def newer_version(source):
    header = {**source.header, "version": 2}
    return _gzip([json.dumps(header) + "\n", *source.lines[1:]]), r"line 1: format version 2; this site reads version 1"


def bad_json(source):
    index = source.line_of("cards.cardtext", 5)
    lines = [*source.lines]
    lines[index] = lines[index][:40] + "\n"
    return _gzip(lines), rf"line {index + 1}: not valid JSON \(Expecting ':' delimiter at column 41\)"


def not_utf8(source):
    index = source.line_of("cards.card", 3)
    data = "".join(source.lines[:index]).encode() + b'{"model":"\xff"}\n' + "".join(source.lines[index + 1 :]).encode()
    return gzip.compress(data), rf"line {index + 1}: not UTF-8 text"


def unknown_model(source):
    lines, number = _edit_row(source, "cards.term", lambda record: record.update(model="cards.nosuch"))
    return _gzip(lines), rf"line {number}: model 'cards\.nosuch' is unknown"


def not_a_row(source):
    index = source.line_of("cards.game", 2)
    lines = [*source.lines]
    lines[index] = '["cards.game", {"id": 3}]\n'
    return _gzip(lines), rf"line {index + 1}: not a row: expected"


def model_not_a_name(source):
    lines, number = _edit_row(source, "cards.term", lambda record: record.update(model=["cards", "term"]))
    return _gzip(lines), rf"line {number}: model \['cards', 'term'\] is unknown"


def excluded_model(source):
    lines, number = _edit_row(source, "auth.user", lambda record: record.update(model="sessions.session"))
    return _gzip(lines), rf"line {number}: model 'sessions\.session' is excluded from backups"


def unknown_field(source):
    lines, number = _edit_row(source, "decks.deck", lambda record: record["fields"].update(colour="red"))
    return _gzip(lines), rf"line {number}: decks\.deck has no field 'colour'"


def missing_field(source):
    lines, number = _edit_row(source, "decks.deck", lambda record: record["fields"].pop("name"))
    return _gzip(lines), rf"line {number}: the decks\.deck row lacks its field 'name'"


def bad_value(source):
    lines, number = _edit_row(source, "cards.card", lambda record: record["fields"].update(updated_at="yesterday"), 40)
    return _gzip(lines), rf"line {number}: cards\.card\.updated_at: .*invalid format"


def duplicate_key(source):
    index = source.line_of("decks.deckentry", 1)
    lines = [*source.lines[: index + 1], source.lines[index], *source.lines[index + 1 :]]
    header = json.loads(lines[0])
    header["counts"]["decks.deckentry"] += 1
    lines[0] = json.dumps(header) + "\n"
    return _gzip(lines), rf"line {index + 2}: the database refused this decks\.deckentry row \(\d+\): .*(UNIQUE|unique)"


def check_constraint(source):
    lines, number = _edit_row(source, "decks.deckentry", lambda record: record["fields"].update(count=0), 2)
    return _gzip(lines), rf"line {number}: the database refused this decks\.deckentry row .*entry_count_positive"


def huge_number(source):
    lines, number = _edit_row(source, "simulator.simulationrun", lambda record: record["fields"].update(seed=10**30))
    return _gzip(lines), rf"line {number}: the database refused this simulator\.simulationrun row"


def outside_choices(source):
    lines, number = _edit_row(source, "cards.cardtext", lambda record: record["fields"].update(language="xx"), 9)
    return _gzip(lines), rf"line {number}: cards\.cardtext\.language: 'xx' is not one of the field's choices"


def missing_parent(source):
    lines, number = _edit_row(source, "decks.deck", lambda record: record["fields"].update(owner_id=999999))
    return _gzip(lines), rf"line {number}: decks\.deck\.owner_id is 999999, but the file has no auth\.user row with it"


def fewer_rows(source):
    return _gzip(source.lines[:-1]), r"the file ends at line \d+ with \d+ rows of \S+, but its header counts \d+"


@pytest.mark.parametrize(
    "damage",
    [
        not_gzip,
        truncated,
        empty,
        not_a_backup,
        newer_version,
        bad_json,
        not_utf8,
        not_a_row,
        unknown_model,
        model_not_a_name,
        excluded_model,
        unknown_field,
        missing_field,
        bad_value,
        duplicate_key,
        check_constraint,
        huge_number,
        outside_choices,
        missing_parent,
        fewer_rows,
    ],
)
def test_a_damaged_file_is_refused_with_one_line_and_nothing_is_written(source, db, tmp_path, damage):
    data, message = damage(source)
    path = tmp_path / "source.jsonl.gz"
    path.write_bytes(data)
    before = row_counts()

    with pytest.raises(CommandError, match=message) as refused:
        restore(path)

    assert "\n" not in str(refused.value)
    assert str(refused.value).endswith("; nothing was restored")
    assert row_counts() == before


def test_backup_refuses_a_place_it_cannot_write_and_leaves_no_file(db, tmp_path):
    with pytest.raises(CommandError, match=r"cannot write .*missing/x\.jsonl\.gz: No such file or directory"):
        call_command("backup", str(tmp_path / "missing" / "x.jsonl.gz"))
    assert list(tmp_path.iterdir()) == []


# --- SQLite → PostgreSQL → SQLite, through the commands in subprocesses -----------------------------------


def _postgres_server() -> str:
    """The PostgreSQL server of the test run (DATABASE_URL or TEST_DATABASE_URL), else the local one."""
    for name in ("DATABASE_URL", "TEST_DATABASE_URL"):
        url = os.environ.get(name, "")
        if url.startswith(("postgres://", "postgresql://")):
            return url.rsplit("/", 1)[0]
    return "postgres://postgres@127.0.0.1:5432"


@pytest.fixture
def postgres_database():
    """A new, empty PostgreSQL database (cardsite_backup_<random>), dropped afterwards."""
    import psycopg

    server = _postgres_server()
    try:
        admin = psycopg.connect(f"{server}/postgres", autocommit=True, connect_timeout=5)
    except psycopg.OperationalError as error:
        message = f"PostgreSQL not reachable at {server}: {' '.join(str(error).split())}"
        if os.environ.get("CI"):
            pytest.fail(f"the backup round trip needs PostgreSQL under CI: {message}")
        pytest.skip(f"SKIPPED the SQLite → PostgreSQL → SQLite backup round trip: {message}")
    name = f"cardsite_backup_{secrets.token_hex(6)}"
    with admin:
        admin.execute(f'CREATE DATABASE "{name}"')
        try:
            yield f"{server}/{name}"
        finally:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')


# migrate, restore FILE, backup FILE in one process per database (the commands as manage.py runs them,
# without starting Python three times); manage.py itself is run below for its exit status.
_MIGRATE_RESTORE_BACKUP = """
import sys
import django
from django.core.management import call_command
django.setup()
call_command("migrate", verbosity=0)
call_command("restore", sys.argv[1])
call_command("backup", sys.argv[2])
"""


def _run(database_url: str, *args: str) -> subprocess.CompletedProcess:
    env = {**os.environ, "DATABASE_URL": database_url, "DJANGO_SETTINGS_MODULE": "cardsite.test_settings"}
    return subprocess.run(
        [sys.executable, *args], cwd=ROOT, env=env, capture_output=True, text=True, timeout=300, check=False
    )


def test_sqlite_to_postgresql_to_sqlite_gives_identical_data(source, tmp_path, postgres_database):
    chain = [
        ("sqlite", f"sqlite:///{tmp_path / 'first.sqlite3'}"),
        ("postgresql", postgres_database),
        ("sqlite", f"sqlite:///{tmp_path / 'second.sqlite3'}"),
    ]
    files = [source.path]
    for step, (_engine, url) in enumerate(chain):
        files.append(tmp_path / f"step{step}.jsonl.gz")
        done = _run(url, "-c", _MIGRATE_RESTORE_BACKUP, str(files[-2]), str(files[-1]))
        assert done.returncode == 0, done.stderr

    headers, rows = zip(*(read_file(path) for path in files), strict=True)
    assert [header["engine"] for header in headers[1:]] == [engine for engine, _url in chain]
    assert rows[1] == rows[0], "SQLite holds what the source held"
    assert rows[2] == rows[1], "PostgreSQL holds what SQLite held"
    assert rows[3] == rows[1], "back on SQLite: the same data"
    assert headers[3]["counts"] == headers[1]["counts"] == source.header["counts"]
    assert headers[3]["migrations"] == headers[1]["migrations"]

    # The command as an operator runs it: a refusal is one line and exit status 1, never a traceback.
    refused = _run(postgres_database, "manage.py", "restore", str(files[0]))
    assert refused.returncode == 1
    assert refused.stderr.startswith("CommandError: the database is not empty (")
    assert refused.stderr.count("\n") == 1 and "Traceback" not in refused.stderr
