"""Search documents gain the ``is:incomplete`` facet (cards.search.tokens): every document is rebuilt.

A card is incomplete when a value its game declares for it is unknown or it lacks a text in one of its
game's languages (``GameDefinition.completeness``); the documents written before did not say so. The
rebuild is migration 0006's, from the historical models.
"""

import importlib

from django.db import migrations

positions = importlib.import_module("cards.migrations.0006_search_position_and_facets")


class Migration(migrations.Migration):
    dependencies = [("cards", "0010_revision_source_contribution")]

    # Going back leaves the facet in the documents: older code never asks for it.
    operations = [migrations.RunPython(positions.rebuild_documents, migrations.RunPython.noop)]
