"""The database's own text index over SearchDocument.document (see cards.search.tokens).

SQLite: an FTS5 table with external content, kept in step by triggers.
PostgreSQL: a generated tsvector column with a GIN index.
"""

from django.db import migrations

SQLITE_CREATE = [
    """CREATE VIRTUAL TABLE cards_search_fts USING fts5(
        document, content='cards_searchdocument', content_rowid='card_id', tokenize='unicode61'
    )""",
    """CREATE TRIGGER cards_search_fts_insert AFTER INSERT ON cards_searchdocument BEGIN
        INSERT INTO cards_search_fts(rowid, document) VALUES (new.card_id, new.document);
    END""",
    """CREATE TRIGGER cards_search_fts_delete AFTER DELETE ON cards_searchdocument BEGIN
        INSERT INTO cards_search_fts(cards_search_fts, rowid, document) VALUES ('delete', old.card_id, old.document);
    END""",
    """CREATE TRIGGER cards_search_fts_update AFTER UPDATE ON cards_searchdocument BEGIN
        INSERT INTO cards_search_fts(cards_search_fts, rowid, document) VALUES ('delete', old.card_id, old.document);
        INSERT INTO cards_search_fts(rowid, document) VALUES (new.card_id, new.document);
    END""",
]
SQLITE_DROP = [
    "DROP TRIGGER IF EXISTS cards_search_fts_update",
    "DROP TRIGGER IF EXISTS cards_search_fts_delete",
    "DROP TRIGGER IF EXISTS cards_search_fts_insert",
    "DROP TABLE IF EXISTS cards_search_fts",
]
POSTGRES_CREATE = [
    """ALTER TABLE cards_searchdocument ADD COLUMN vector tsvector
        GENERATED ALWAYS AS (to_tsvector('simple'::regconfig, document)) STORED""",
    "CREATE INDEX cards_searchdocument_vector ON cards_searchdocument USING gin (vector)",
]
POSTGRES_DROP = [
    "DROP INDEX IF EXISTS cards_searchdocument_vector",
    "ALTER TABLE cards_searchdocument DROP COLUMN IF EXISTS vector",
]


def _run(statements_by_vendor):
    def run(apps, schema_editor):
        statements = statements_by_vendor.get(schema_editor.connection.vendor)
        if statements is None:
            raise RuntimeError(f"no text index for database {schema_editor.connection.vendor}")
        for statement in statements:
            schema_editor.execute(statement)

    return run


class Migration(migrations.Migration):
    dependencies = [("cards", "0002_search_index")]

    operations = [
        migrations.RunPython(
            _run({"sqlite": SQLITE_CREATE, "postgresql": POSTGRES_CREATE}),
            _run({"sqlite": SQLITE_DROP, "postgresql": POSTGRES_DROP}),
        )
    ]
