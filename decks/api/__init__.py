"""The deck API (``/api/decks/``): list, create, read, change and delete decks, and their verdicts.

Thin DRF views over ``decks.services`` (every write) and ``decks.selectors`` (who may see
and change what, the verdict). Authentication: a session (the site's login, with its CSRF
token) or a token (``POST /api/accounts/token/`` with username and password, then
``Authorization: Token <key>``). The same permissions as the pages: a deck others may not
see answers 404; a change by someone who may see it but does not own it answers 403.
"""
