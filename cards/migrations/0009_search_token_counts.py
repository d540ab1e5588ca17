"""PostgreSQL: how many documents hold each token, kept by the postings' triggers (migration 0008), so that a
query of one token reads its count from one row rather than counting its postings.

The trigger functions of 0008 are replaced by ones that also keep the counts. Counts are locked in token
order, so two statements writing documents at once wait for each other rather than deadlock.
"""

import importlib

from django.db import migrations, models

from cards.migration_sql import run_on

postings = importlib.import_module("cards.migrations.0008_search_postings")

COUNT_ADD = """INSERT INTO cards_searchtokencount (token, documents)
    SELECT lexeme, COUNT(*) FROM added_documents AS added, unnest(added.vector) GROUP BY lexeme ORDER BY lexeme
    ON CONFLICT (token) DO UPDATE SET documents = cards_searchtokencount.documents + EXCLUDED.documents;"""
COUNT_REMOVE = """PERFORM 1 FROM cards_searchtokencount
    WHERE token IN (SELECT lexeme FROM removed_documents AS removed, unnest(removed.vector))
    ORDER BY token FOR UPDATE;
UPDATE cards_searchtokencount AS counted SET documents = counted.documents - gone.documents
    FROM (SELECT lexeme, COUNT(*) AS documents FROM removed_documents AS removed, unnest(removed.vector)
          GROUP BY lexeme) AS gone
    WHERE counted.token = gone.lexeme;"""


def _replaced(name: str, *statements: str) -> str:
    return postings._trigger_function(name, *statements).replace("CREATE FUNCTION", "CREATE OR REPLACE FUNCTION", 1)


POSTGRESQL_CREATE = [
    _replaced("cards_searchposting_add", postings.ADD, COUNT_ADD),
    _replaced("cards_searchposting_remove", COUNT_REMOVE, postings.REMOVE),
    _replaced("cards_searchposting_replace", COUNT_REMOVE, postings.REMOVE, postings.ADD, COUNT_ADD),
    """INSERT INTO cards_searchtokencount (token, documents)
        SELECT lexeme, COUNT(*) FROM cards_searchdocument AS document, unnest(document.vector) GROUP BY lexeme""",
    "ANALYZE cards_searchtokencount",
]

POSTGRESQL_DROP = [
    _replaced("cards_searchposting_add", postings.ADD),
    _replaced("cards_searchposting_remove", postings.REMOVE),
    _replaced("cards_searchposting_replace", postings.REMOVE, postings.ADD),
]


class Migration(migrations.Migration):
    dependencies = [("cards", "0008_search_postings")]

    operations = [
        migrations.CreateModel(
            name="SearchTokenCount",
            fields=[
                ("token", models.TextField(primary_key=True, serialize=False)),
                ("documents", models.BigIntegerField()),
            ],
        ),
        migrations.RunPython(run_on("postgresql", POSTGRESQL_CREATE), run_on("postgresql", POSTGRESQL_DROP)),
    ]
