"""URLs of the goldfish API, included under ``api/simulator/`` with the namespace ``simulator_api``.

``decks/<pk>/goldfish/`` a sample game (GET), ``decks/<pk>/odds/`` exact draw odds (GET),
``decks/<pk>/simulations/`` start a Monte Carlo run (POST), ``simulations/<id>/`` a run (GET),
``simulations/<id>/cancel/`` cancel it (POST). Whole games' comparisons: ``games/<game>/comparisons/setup/``
(GET), ``games/<game>/comparisons/`` (POST), ``comparisons/<id>/`` (GET), ``comparisons/<id>/cancel/`` (POST).
A deck's assumed values: ``decks/<pk>/assumptions/`` (GET, POST one, DELETE one), ``decks/<pk>/assumptions/bulk/``
(POST many, all or nothing).
"""

from django.urls import path

from ..assumptions import api as assumption_views
from ..comparisons import api as comparison_views
from ..goldfish import api as views
from ..searches import api as search_views
from ..seated import api as seated_views
from ..strategies import api as strategy_views

app_name = "simulator_api"

urlpatterns = [
    path("decks/<int:pk>/goldfish/", views.GoldfishView.as_view(), name="goldfish"),
    path("decks/<int:pk>/odds/", views.OddsView.as_view(), name="odds"),
    path("decks/<int:pk>/simulations/", views.SimulationCreateView.as_view(), name="simulations"),
    path("decks/<int:pk>/assumptions/", assumption_views.AssumptionsView.as_view(), name="assumptions"),
    path("decks/<int:pk>/assumptions/bulk/", assumption_views.AssumptionsBulkView.as_view(), name="assumptions-bulk"),
    path("simulations/<int:run_id>/", views.SimulationView.as_view(), name="simulation"),
    path("simulations/<int:run_id>/cancel/", views.SimulationCancelView.as_view(), name="simulation-cancel"),
    path(
        "games/<slug:game>/comparisons/setup/",
        comparison_views.ComparisonSetupView.as_view(),
        name="comparison-setup",
    ),
    path("games/<slug:game>/comparisons/", comparison_views.ComparisonCreateView.as_view(), name="comparisons"),
    path("comparisons/<int:run_id>/", comparison_views.ComparisonView.as_view(), name="comparison"),
    path("games/<slug:game>/strategies/", strategy_views.StrategyListView.as_view(), name="strategies"),
    path("games/<slug:game>/strategies/check/", strategy_views.StrategyCheckView.as_view(), name="strategy-check"),
    path("strategies/<int:pk>/", strategy_views.StrategyView.as_view(), name="strategy"),
    path("games/<slug:game>/plays/", seated_views.SeatedCreateView.as_view(), name="plays"),
    path("plays/<int:pk>/", seated_views.SeatedView.as_view(), name="play"),
    path("plays/<int:pk>/answers/", seated_views.SeatedAnswerView.as_view(), name="play-answers"),
    path("plays/<int:pk>/play-hand/", seated_views.SeatedPlayHandView.as_view(), name="play-hand"),
    path("plays/<int:pk>/undo/", seated_views.SeatedUndoView.as_view(), name="play-undo"),
    path("games/<slug:game>/searches/", search_views.SearchCreateView.as_view(), name="searches"),
    path("searches/<int:run_id>/", search_views.SearchView.as_view(), name="search"),
    path("searches/<int:run_id>/cancel/", search_views.SearchCancelView.as_view(), name="search-cancel"),
    path("comparisons/<int:run_id>/cancel/", comparison_views.ComparisonCancelView.as_view(), name="comparison-cancel"),
]
