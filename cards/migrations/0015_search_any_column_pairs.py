"""PostgreSQL: search documents gain every column's bigrams under the any-column code (cards.search.tokens).

A two-character term is then one token, counted and paged from the postings (cards.search.backends), and a
longer one is one phrase instead of one per column. SQLite's documents do not change, so only PostgreSQL's
are rebuilt (migration 0006's rebuild, from the historical models); the postings follow by their triggers.
"""

import importlib

from django.db import migrations

positions = importlib.import_module("cards.migrations.0006_search_position_and_facets")


def rebuild_on_postgresql(apps, schema_editor):
    if schema_editor.connection.vendor == "postgresql":
        positions.rebuild_documents(apps, schema_editor)
        with schema_editor.connection.cursor() as cursor:
            cursor.execute("ANALYZE cards_searchdocument")
            cursor.execute("ANALYZE cards_searchposting")


class Migration(migrations.Migration):
    dependencies = [("cards", "0014_translation_tracks")]

    # Going back leaves the extra tokens in the documents: older code never asks for them.
    operations = [migrations.RunPython(rebuild_on_postgresql, migrations.RunPython.noop)]
