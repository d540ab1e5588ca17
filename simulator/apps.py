from django.apps import AppConfig


class SimulatorConfig(AppConfig):
    name = "simulator"

    def ready(self) -> None:
        from cardsite import jobs

        from .comparisons import COMPARISONS
        from .searches import SEARCHES
        from .services import MONTE_CARLO

        # The simulator's kinds of job, for the workers' recovery passes.
        for kind in (MONTE_CARLO, COMPARISONS, SEARCHES):
            jobs.register(kind)
