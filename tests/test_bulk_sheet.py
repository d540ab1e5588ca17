"""The bulk sheet a player fills in: downloaded with its columns, what each takes in the reader's language and
the cards as they are; read back with kinds and choices by their names, corrections by key or number without
the name, and every problem named by row and column. Synthetic cards only; SQLite and PostgreSQL alike."""

from __future__ import annotations

from cards.models import Card
from cardsite import csvfiles
from contributions.models import ChangeSet


def _sheet(client, game: str, language: str) -> list[list[str]]:
    client.cookies["django_language"] = language
    response = client.get(f"/contributions/games/{game}/contribute/bulk/sheet.csv")
    assert response.status_code == 200
    assert response["Content-Type"].startswith("text/csv")
    return list(csvfiles.Reader(response.content.decode("utf-8").lstrip("\ufeff")))


def _preview(client, game: str, text: str, language: str = "ja"):
    client.cookies["django_language"] = language
    data = {"text": text, "source_kind": "own_copy", "action": "preview"}
    return client.post(f"/contributions/games/{game}/contribute/bulk/", data).context["preview"]


def test_the_sheet_names_its_columns_and_their_values_in_the_readers_language(seeded_db, client):
    header, note, *rows = _sheet(client, "suikoden", "ja")
    assert header[:4] == ["game", "key", "number", "kind"]
    assert note[0].startswith("#")
    assert "人物 / 土地" in note[header.index("kind")]
    assert "義" in note[header.index("field:colour")] and "属性" in note[header.index("field:colour")]
    keys = set(Card.objects.filter(game__slug="suikoden").values_list("key", flat=True))
    assert {row[header.index("key")] for row in rows} == keys
    assert {row[header.index("kind")] for row in rows} == {"人物", "土地"}


def test_the_sheet_as_downloaded_reads_back_without_a_change(seeded_db, client, player):
    client.force_login(player)
    for slug in ("suikoden", "shadowera", "epicbattles", "endbreaker"):
        text = csvfiles.dumps(*_split(_sheet(client, slug, "ja")))
        preview = _preview(client, slug, text)
        assert not preview.problems, (slug, preview.problems)
        assert all(row.problems == [] for row in preview.rows), slug
        assert preview.counts["changed"] == 0 and preview.counts["new"] == 0, (slug, preview.counts)


def _split(rows: list[list[str]]):
    return rows[0], rows[1:]


def test_a_new_card_takes_its_kind_and_choices_by_their_names_in_any_language(db, client, player):
    from cards.services import sync_games

    sync_games()
    client.force_login(player)
    text = (
        "game,key,kind,field:faction,field:class,field:health,name:en\n"
        "shadowera,TEST-H1,ヒーロー,ヒューマン,Warrior|メイジ,30,Test Hero One\n"
        "shadowera,TEST-H2,英雄,暗影,rogue,28,Test Hero Two\n"
    )
    preview = _preview(client, "shadowera", text)
    assert not preview.problems and preview.can_submit, preview.problems
    client.post(
        "/contributions/games/shadowera/contribute/bulk/", {"text": text, "source_kind": "own_copy", "action": "submit"}
    )
    change_set = ChangeSet.objects.get(author=player)
    proposed = {change.key: change.proposed for change in change_set.changes.all()}
    assert proposed["TEST-H1"]["kind"] == "hero" and proposed["TEST-H2"]["kind"] == "hero"
    assert proposed["TEST-H1"]["fields"]["class"] == ["warrior", "mage"]
    assert proposed["TEST-H2"]["fields"]["faction"] == "shadow"


def test_a_correction_row_names_a_card_by_its_number_alone_without_its_name(seeded_db, client, player):
    client.force_login(player)
    card = Card.objects.filter(game__slug="endbreaker").exclude(number=None).order_by("pk").first()
    text = f"game,key,number,field:at\nendbreaker,,{card.number},9\n"
    preview = _preview(client, "endbreaker", text)
    assert not preview.problems, preview.problems
    (row,) = preview.rows
    assert row.key == card.key and row.status == "changed" and row.problems == []


def test_a_bad_kind_is_named_by_row_and_column_with_the_kinds_in_the_readers_language(db, client, player):
    from cards.services import sync_games

    sync_games()
    client.force_login(player)
    text = "game,key,kind,name:ja\nsuikoden,テスト札,武将,テスト札\n"
    preview = _preview(client, "suikoden", text)
    (row,) = preview.rows
    ((place, message),) = row.problems
    assert place == "2行目 · 種類 (kind)"
    assert "人物 (character)" in message and "土地 (land)" in message
