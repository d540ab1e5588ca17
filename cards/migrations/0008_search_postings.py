"""PostgreSQL: a table of (token, position) postings kept by triggers from the search documents' vectors.

A query of one token (one CJK character, a facet such as at>=5) reads its count and first page from the
table's primary key in position order (cards.search.backends), rather than fetching every matching
document through the GIN index to count and sort them. Statement-level triggers with transition tables
keep it in step with cards_searchdocument (inserts, deletes and updates); SQLite has its FTS5 table and
leaves this one empty.
"""

from django.db import migrations, models

from cards.migration_sql import run_on as _on

# The statements of the trigger functions: postings of the documents added, and of those removed.
ADD = """INSERT INTO cards_searchposting (token, position)
    SELECT lexeme, added.position FROM added_documents AS added, unnest(added.vector)
    ON CONFLICT DO NOTHING;"""
REMOVE = """DELETE FROM cards_searchposting AS posting
    USING removed_documents AS removed, unnest(removed.vector)
    WHERE posting.token = lexeme AND posting.position = removed.position;"""


def _trigger_function(name: str, *statements: str) -> str:
    body = "\n".join(statements)
    return f"CREATE FUNCTION {name}() RETURNS trigger LANGUAGE plpgsql AS $$ BEGIN {body} RETURN NULL; END $$"


POSTGRESQL_CREATE = [
    _trigger_function("cards_searchposting_add", ADD),
    _trigger_function("cards_searchposting_remove", REMOVE),
    _trigger_function("cards_searchposting_replace", REMOVE, ADD),
    """CREATE TRIGGER cards_searchposting_insert AFTER INSERT ON cards_searchdocument
        REFERENCING NEW TABLE AS added_documents FOR EACH STATEMENT EXECUTE FUNCTION cards_searchposting_add()""",
    """CREATE TRIGGER cards_searchposting_delete AFTER DELETE ON cards_searchdocument
        REFERENCING OLD TABLE AS removed_documents FOR EACH STATEMENT EXECUTE FUNCTION cards_searchposting_remove()""",
    """CREATE TRIGGER cards_searchposting_update AFTER UPDATE ON cards_searchdocument
        REFERENCING OLD TABLE AS removed_documents NEW TABLE AS added_documents
        FOR EACH STATEMENT EXECUTE FUNCTION cards_searchposting_replace()""",
    """INSERT INTO cards_searchposting (token, position)
        SELECT lexeme, document.position FROM cards_searchdocument AS document, unnest(document.vector)
        ON CONFLICT DO NOTHING""",
    "ANALYZE cards_searchposting",
]

POSTGRESQL_DROP = [
    "DROP TRIGGER IF EXISTS cards_searchposting_update ON cards_searchdocument",
    "DROP TRIGGER IF EXISTS cards_searchposting_delete ON cards_searchdocument",
    "DROP TRIGGER IF EXISTS cards_searchposting_insert ON cards_searchdocument",
    "DROP FUNCTION IF EXISTS cards_searchposting_replace()",
    "DROP FUNCTION IF EXISTS cards_searchposting_remove()",
    "DROP FUNCTION IF EXISTS cards_searchposting_add()",
]


class Migration(migrations.Migration):
    dependencies = [("cards", "0007_card_revisions")]

    operations = [
        migrations.CreateModel(
            name="SearchPosting",
            fields=[
                (
                    "pk",
                    models.CompositePrimaryKey(
                        "token", "position", blank=True, editable=False, primary_key=True, serialize=False
                    ),
                ),
                ("token", models.TextField()),
                ("position", models.BigIntegerField()),
            ],
        ),
        migrations.RunPython(_on("postgresql", POSTGRESQL_CREATE), _on("postgresql", POSTGRESQL_DROP)),
    ]
