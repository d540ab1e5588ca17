"""The read-only REST API: games, glossaries, card search and card detail (``/api/``).

Thin DRF views over ``cards.selectors``; every GET carries an ETag (see ``caching``);
the OpenAPI schema is at ``/api/schema/`` and its Swagger UI at ``/api/docs/``.
"""
