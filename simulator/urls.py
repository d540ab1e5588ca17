"""The simulator's pages, included under ``simulator/``: each feature's URLconf under its own path, with its own
namespace (``goldfish``, ``comparisons``, ``strategies``, ``seated``, ``searches``, ``setups``).

The goldfish pages of a deck are ``simulator/decks/<pk>/…`` (and ``simulator/decks/shared/<token>/…``); the whole
games' tools are ``simulator/games/<game>/…``. Their old addresses (``decks/<pk>/goldfish/``,
``games/<game>/compare/`` …: each route without ``simulator/``) redirect here (``cardsite.moved``, from the
root URLconf).
"""

from django.urls import include, path

# (where the feature's pages are under simulator/, the feature's URLconf)
FEATURES = [
    ("decks/", "simulator.goldfish.urls"),
    ("games/<slug:game>/compare/", "simulator.comparisons.urls"),
    ("games/<slug:game>/strategies/", "simulator.strategies.urls"),
    ("games/<slug:game>/play/", "simulator.seated.urls"),
    ("games/<slug:game>/search/", "simulator.searches.urls"),
    ("games/<slug:game>/setups/", "simulator.setups.urls"),
]

urlpatterns = [path(route, include(urlconf)) for route, urlconf in FEATURES]
