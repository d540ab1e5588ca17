"""``python manage.py urlmap``: every URL pattern, its name and the module whose view answers it."""

from django.core.management.base import BaseCommand, CommandError, no_translations

from cardsite.urlmap import declared_prefixes, doubly_declared, misplaced, url_map

WIDEST = 72  # a longer route (the admin's patterns) pushes its own line's columns, not every line's


class Command(BaseCommand):
    help = (
        "Print every URL pattern of the site, in the order they are tried, with its name and the module that "
        "answers it; old addresses that redirect to where a page moved are marked 'moved'. With --check, fail "
        "when a URL's first segment (after api/ for the API) does not belong to the app that answers it."
    )

    def add_arguments(self, parser):
        parser.add_argument("--check", action="store_true", help="fail on a pattern outside its app's prefixes")
        parser.add_argument("--prefixes", action="store_true", help="print each first segment and its app only")

    @no_translations  # an operator's command: its output in English
    def handle(self, *args, check: bool = False, prefixes: bool = False, **options):
        if prefixes:
            for segment, app in sorted(declared_prefixes().items()):
                self.stdout.write(f"/{segment + '/' if segment else '':<20}{app}")
            return
        routes = url_map()
        width = min(max(len(route.route) for route in routes), WIDEST) + 2
        name_width = min(max(len(route.name) for route in routes), WIDEST // 2) + 2
        for route in routes:
            mark = "  moved" if route.is_moved else ""
            self.stdout.write(f"/{route.route:<{width}}{route.name or '-':<{name_width}}{route.module}{mark}")
        if check:
            problems = doubly_declared() + misplaced(routes)
            if problems:
                raise CommandError("URLs outside their app's prefixes:\n" + "\n".join(problems))
            self.stdout.write(f"{len(routes)} patterns; each first segment belongs to the app that answers it")
