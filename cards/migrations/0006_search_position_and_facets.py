"""Search documents get a position in number order and facet tokens (cards.search.indexing).

SQLite's FTS5 table is recreated with the position as its rowid, so matches come
out of the index in number order. Every document is rebuilt with the current
tokenizer from the historical models.
"""

from django.db import migrations, models

from cards.migration_sql import run_on as _on

SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS cards_search_fts_update",
    "DROP TRIGGER IF EXISTS cards_search_fts_delete",
    "DROP TRIGGER IF EXISTS cards_search_fts_insert",
    "DROP TABLE IF EXISTS cards_search_fts",
]


def _sqlite_create(rowid: str) -> list[str]:
    return [
        f"""CREATE VIRTUAL TABLE cards_search_fts USING fts5(
            document, content='cards_searchdocument', content_rowid='{rowid}', tokenize='unicode61'
        )""",
        f"""CREATE TRIGGER cards_search_fts_insert AFTER INSERT ON cards_searchdocument BEGIN
            INSERT INTO cards_search_fts(rowid, document) VALUES (new.{rowid}, new.document);
        END""",
        f"""CREATE TRIGGER cards_search_fts_delete AFTER DELETE ON cards_searchdocument BEGIN
            INSERT INTO cards_search_fts(cards_search_fts, rowid, document)
                VALUES ('delete', old.{rowid}, old.document);
        END""",
        f"""CREATE TRIGGER cards_search_fts_update AFTER UPDATE ON cards_searchdocument BEGIN
            INSERT INTO cards_search_fts(cards_search_fts, rowid, document)
                VALUES ('delete', old.{rowid}, old.document);
            INSERT INTO cards_search_fts(rowid, document) VALUES (new.{rowid}, new.document);
        END""",
        "INSERT INTO cards_search_fts(cards_search_fts) VALUES ('rebuild')",
    ]


def rebuild_documents(apps, schema_editor):
    from cards.search.indexing import IndexModels, index_cards

    index_cards(
        models=IndexModels(
            apps.get_model("cards", "Card"),
            apps.get_model("cards", "SearchDocument"),
            apps.get_model("cards", "CardFieldValue"),
        ),
        merge_index=False,  # the text index is built afresh below
    )


def forget_documents(apps, schema_editor):
    apps.get_model("cards", "SearchDocument").objects.all().delete()


class Migration(migrations.Migration):
    dependencies = [("cards", "0005_term_text_updated_at")]

    operations = [
        migrations.RunPython(_on("sqlite", SQLITE_DROP), _on("sqlite", SQLITE_DROP + _sqlite_create("card_id"))),
        # Emptied so that the new column needs no value; rebuilt below (going back, run reindexcards).
        migrations.RunPython(forget_documents, migrations.RunPython.noop),
        migrations.AddField(
            model_name="searchdocument",
            name="position",
            field=models.BigIntegerField(unique=True, default=0),
            preserve_default=False,
        ),
        # PostgreSQL: documents and vectors are kept out of the table's rows (TOAST), so that
        # counting matches, which visits each matching row, reads a small table.
        migrations.RunPython(
            _on("postgresql", ["ALTER TABLE cards_searchdocument SET (toast_tuple_target = 128)"]),
            _on("postgresql", ["ALTER TABLE cards_searchdocument RESET (toast_tuple_target)"]),
        ),
        migrations.RunPython(rebuild_documents, forget_documents),
        migrations.RunPython(_on("sqlite", _sqlite_create("position")), _on("sqlite", SQLITE_DROP)),
    ]
