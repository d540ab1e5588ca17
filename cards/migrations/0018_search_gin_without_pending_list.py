"""PostgreSQL: the text index's GIN index takes each document as it is written, with no pending list.

With GIN's default ``fastupdate``, new documents wait in a pending list that every search reads from start to end,
until a VACUUM or a list of 4 MB moves them into the index. Autovacuum runs for a table that only grows after a
thousand inserts, more than a game of a few hundred cards, added by contributors one at a time, ever makes: every
search then read every card's document. Measured on 400 synthetic cards, all of them pending (200 pages): a
two-token GIN scan took 1.35 ms, against 0.12 ms once the list was moved into the index. Writing a card into the
index directly cost about the same as before at that size (one card 7-9 ms either way, a full rebuild of 400 cards
0.44-0.63 s; the search benchmark's 10,000 cards indexed in 60.0 s against 59.4 s). PostgreSQL's documentation
recommends it where steady response time matters more than write speed, as it does here. The migration also moves
what is pending now into the index.
"""

from django.db import migrations

from cards.migration_sql import run_on as _on

INDEX = "cards_searchdocument_vector"


class Migration(migrations.Migration):
    dependencies = [("cards", "0017_searchdocument_phrase_text")]

    operations = [
        migrations.RunPython(
            _on(
                "postgresql",
                [
                    f"ALTER INDEX {INDEX} SET (fastupdate = off)",
                    f"SELECT gin_clean_pending_list('{INDEX}'::regclass)",
                ],
            ),
            _on("postgresql", [f"ALTER INDEX {INDEX} RESET (fastupdate)"]),
        ),
    ]
