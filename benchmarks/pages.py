"""How fast the pages come on a phone: largest contentful paint and bytes transferred, against a bare page.

    python benchmarks/pages.py [--rounds 3] [--workers 2] [--database-url postgres://…/cardsite_pages]

Starts the site as production serves it (gunicorn with the project's config, WhiteNoise, DEBUG off, static
files collected, the seed cards loaded; ``benchmarks.load``'s start-up), on a database of its own, and opens
each page in Debian's Chromium through Playwright (``CHROMIUM`` or the ``chromium`` on PATH; no browser is
downloaded), as a phone on a slow 4G network would:

- a viewport 390 px wide (a phone's, at device scale 3, touch, mobile);
- the network throttled through the DevTools protocol (``Network.emulateNetworkConditions``): 150 ms
  round trip, 1.6 Mbit/s down, 750 kbit/s up;
- the CPU slowed 4× (``Emulation.setCPUThrottlingRate``).

For each page it reports the largest contentful paint (the browser's own ``largest-contentful-paint``
entry) and the bytes transferred (every response's encoded length with its headers, as the DevTools
protocol counts them), for a first visit (a fresh browser context: empty cache, no cookies but the
session) and a repeat visit (the same context opening the page again, its cache warm). Beside them,
in the same run and under the same server, a bare HTML page (``/__bare_page__/``: a heading and a
paragraph, no style sheet, no script) served through the same middleware: the floor of this stack.

The builder and the deck page are the owner's (signed in, as only the owner sees them); the others are
read as a visitor. Every page is measured in pairs with the bare page: bare page, page, bare page, page…, each
visit in a fresh context, ``--rounds`` pairs per page (5 by default). The ratio a page is judged by is the
median of its pairs' ratios (the page's LCP over the bare page's measured just before it), so that a burst of
other work on the machine slows both sides of a pair. Beside it the old figure is printed from the same visits:
the page's median LCP over the median of all the bare page's visits.

Goal: each page's LCP at most 2× the bare page's and under 2.5 s, and at most 100 KB transferred on a
repeat visit.

The machine's load average is printed before and after the run. The CPU slowdown is emulated on top of whatever
else the machine runs, and a page does more work than the bare page, so other work slows the page more than the
bare page and its ratio grows: figures are comparable only from a quiet machine. The report says how much of the
machine's CPU time, over the measured visits, went to other work than this benchmark's own processes (its server,
its browser and their children; from ``/proc``), and warns when that was more than a third.
"""

from __future__ import annotations

import argparse
import os
import shutil
import statistics
import sys
from dataclasses import dataclass
from pathlib import Path

ROOT = Path(__file__).resolve().parent.parent
sys.path.insert(0, str(ROOT))

from benchmarks.load import production_server  # noqa: E402

# Slow 4G, as Lighthouse's mobile preset throttles it.
LATENCY_MS = 150
DOWNLOAD_BYTES_PER_SECOND = 1.6 * 1024 * 1024 / 8
UPLOAD_BYTES_PER_SECOND = 750 * 1024 / 8
CPU_SLOWDOWN = 4
VIEWPORT = {"width": 390, "height": 844}

LCP_LIMIT_MS = 2500
LCP_OVER_BARE = 2.0
REPEAT_LIMIT_BYTES = 100 * 1024

SETUP = """
import json
from django.contrib.auth import get_user_model
from django.test import Client
from cards.models import Card, Game
from decks import services

owner = get_user_model().objects.create_user("pages", password="pages-benchmark-password-1")
game = Game.objects.get(slug="suikoden")
characters = list(Card.objects.filter(game=game, kind="character"))  # the seed's few: every one
lands = list(Card.objects.filter(game=game, kind="land"))
entries = [("characters", card, 1) for card in characters] + [("lands", card, 2) for card in lands]
deck = services.create_deck(owner=owner, game=game, name="速度テスト", entries=entries)
client = Client()
client.force_login(owner)
print(json.dumps({"deck": deck.pk, "session": client.cookies["sessionid"].value}))
"""

# Kept by the page from its first byte: every largest-contentful-paint candidate the browser reports.
LCP_OBSERVER = """
window.__lcp = 0;
new PerformanceObserver((list) => {
  for (const entry of list.getEntries()) { window.__lcp = entry.startTime; }
}).observe({type: "largest-contentful-paint", buffered: true});
"""


@dataclass
class Target:
    name: str
    path: str
    signed_in: bool = False


@dataclass
class Visit:
    lcp_ms: float
    transferred: int


def chromium() -> str:
    found = os.environ.get("CHROMIUM") or shutil.which("chromium") or shutil.which("chromium-browser")
    if not found:
        sys.exit("pages: Chromium is needed (Debian package chromium, or CHROMIUM=/path/to/it)")
    return found


def visit(context, url: str) -> Visit:
    """One navigation under the throttled network and CPU: its LCP and the bytes it transferred."""
    page = context.new_page()
    session = context.new_cdp_session(page)
    session.send("Network.enable")
    session.send(
        "Network.emulateNetworkConditions",
        {
            "offline": False,
            "latency": LATENCY_MS,
            "downloadThroughput": DOWNLOAD_BYTES_PER_SECOND,
            "uploadThroughput": UPLOAD_BYTES_PER_SECOND,
        },
    )
    session.send("Emulation.setCPUThrottlingRate", {"rate": CPU_SLOWDOWN})
    transferred: list[int] = []
    session.on("Network.loadingFinished", lambda event: transferred.append(int(event["encodedDataLength"])))
    page.add_init_script(LCP_OBSERVER)
    page.goto(url, wait_until="load")
    page.wait_for_load_state("networkidle")
    # LCP is final at the first input; until then a later, larger paint may replace it. The page is idle here.
    lcp = page.evaluate("window.__lcp")
    session.detach()
    page.close()
    return Visit(float(lcp), sum(transferred))


def measure(browser, base: str, target: Target, session_cookie: str) -> tuple[Visit, Visit]:
    """A first visit (fresh context, empty cache) and a repeat visit (the same context, the page again)."""
    context = browser.new_context(viewport=VIEWPORT, device_scale_factor=3, is_mobile=True, has_touch=True)
    context.add_cookies([{"name": "django_language", "value": "ja", "url": base}])
    if target.signed_in:
        context.add_cookies([{"name": "sessionid", "value": session_cookie, "url": base}])
    try:
        first = visit(context, base + target.path)
        repeat = visit(context, base + target.path)
    finally:
        context.close()
    return first, repeat


def median_visit(visits: list[Visit]) -> Visit:
    """The median of the runs; a run in which the browser reported no LCP (0: seen now and then on a loaded
    machine) counts for its bytes only."""
    painted = [v.lcp_ms for v in visits if v.lcp_ms > 0] or [0.0]
    return Visit(statistics.median(painted), round(statistics.median(v.transferred for v in visits)))


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=5, help="pairs (bare page, page) for every page (default 5)")
    parser.add_argument("--workers", type=int, default=2, help="gunicorn processes (default 2)")
    parser.add_argument("--database-url", default="", help="a PostgreSQL URL (database created and dropped)")
    parser.add_argument("--port", type=int, default=0, help="the server's port (default: a free one)")
    arguments = parser.parse_args()
    executable = chromium()

    with production_server(
        "pages", SETUP, workers=arguments.workers, database_url=arguments.database_url, port=arguments.port
    ) as (url, prepared, _temporary):
        report(executable, url, prepared, arguments)


def report(executable: str, url: str, prepared: dict, arguments: argparse.Namespace) -> None:
    from playwright.sync_api import sync_playwright

    deck = prepared["deck"]
    targets = [
        Target("bare page (floor)", "/__bare_page__/"),
        Target("home", "/"),
        Target("game page", "/games/endbreaker/"),
        Target("search results", "/search/?q=%E3%83%89%E3%83%AD%E3%83%BC"),
        Target("card page", "/games/endbreaker/cards/EB1-010/"),
        Target("builder (owner)", f"/decks/{deck}/edit/", signed_in=True),
        Target("deck page (owner)", f"/decks/{deck}/", signed_in=True),
    ]
    bare, pages = targets[0], targets[1:]
    runs: dict[str, list[tuple[Visit, Visit]]] = {target.name: [] for target in targets}
    # For each page, its pairs' bare-page visits, in the same order as its own: pair i is (bare[i], page[i]).
    paired_bare: dict[str, list[tuple[Visit, Visit]]] = {target.name: [] for target in pages}
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(
            executable_path=executable,
            headless=True,
            args=["--no-sandbox", "--disable-gpu", "--no-first-run", "--disable-background-networking"],
        )
        before = cpu_ticks()
        try:
            for target in targets:  # once unmeasured: every process's caches filled (the page cache too)
                measure(browser, url, target, prepared["session"])
            for _ in range(arguments.rounds):  # in rounds, so a burst of other work slows one pair of every row
                for target in pages:
                    floor = measure(browser, url, bare, prepared["session"])
                    paired_bare[target.name].append(floor)
                    runs[bare.name].append(floor)
                    runs[target.name].append(measure(browser, url, target, prepared["session"]))
            after = cpu_ticks()  # before the browser closes: its reaped renderers are counted in its own times
        finally:
            browser.close()
    print_report(arguments, targets, runs, paired_bare)
    print_other_work(before, after)


OTHER_WORK_WARNING = 1 / 3


def cpu_ticks() -> tuple[int, int] | None:
    """The machine's busy CPU time and this process's with all its descendants' (the server, the browser and
    the children they reaped), in clock ticks (``/proc``); None where ``/proc`` is not there."""
    try:
        fields = [int(value) for value in Path("/proc/stat").read_text().split("\n", 1)[0].split()[1:]]
        machine = sum(fields) - fields[3] - (fields[4] if len(fields) > 4 else 0)  # all but idle and I/O wait
        parents: dict[int, int] = {}
        times: dict[int, int] = {}
        for entry in Path("/proc").iterdir():
            if not entry.name.isdigit():
                continue
            try:
                stat = (entry / "stat").read_text()
            except OSError:
                continue  # a process that ended meanwhile
            after_name = stat.rsplit(")", 1)[1].split()  # the name, in brackets, may hold spaces
            parents[int(entry.name)] = int(after_name[1])
            times[int(entry.name)] = sum(int(value) for value in after_name[11:15])  # utime, stime, cutime, cstime
    except (OSError, ValueError, IndexError):
        return None
    ours, frontier = {os.getpid()}, [os.getpid()]
    while frontier:
        parent = frontier.pop()
        children = [pid for pid, ppid in parents.items() if ppid == parent and pid not in ours]
        ours.update(children)
        frontier.extend(children)
    return machine, sum(times.get(pid, 0) for pid in ours)


def print_other_work(before: tuple[int, int] | None, after: tuple[int, int] | None) -> None:
    """How much of the machine's CPU time went to other work during the visits, and a warning when it was not
    a quiet machine."""
    if before is None or after is None or after[0] <= before[0]:
        return
    machine, ours = after[0] - before[0], after[1] - before[1]
    other = max(0, machine - ours) / machine
    print(f"other work than this benchmark's took {other:.0%} of the machine's busy CPU time during the visits")
    if other > OTHER_WORK_WARNING:
        print(
            "the machine was not quiet: other work slows a page more than the bare page, so these ratios overstate"
            " the pages; measure again on a quiet machine"
        )


def pair_ratio(floor: Visit, visit: Visit) -> float | None:
    """A page's LCP over the bare page's in one pair; None when either reported no LCP."""
    return visit.lcp_ms / floor.lcp_ms if floor.lcp_ms > 0 and visit.lcp_ms > 0 else None


def median_ratio(floors: list[Visit], visits: list[Visit]) -> float:
    ratios = [r for r in map(pair_ratio, floors, visits) if r is not None]
    return statistics.median(ratios) if ratios else 0.0


def print_report(
    arguments: argparse.Namespace,
    targets: list[Target],
    runs: dict[str, list[tuple[Visit, Visit]]],
    paired_bare: dict[str, list[tuple[Visit, Visit]]],
) -> None:
    print(
        f"Chromium {VIEWPORT['width']} px wide, {LATENCY_MS} ms RTT, {DOWNLOAD_BYTES_PER_SECOND * 8 / 1e6:.2f} Mbit/s"
        f" down, {UPLOAD_BYTES_PER_SECOND * 8 / 1e3:.0f} kbit/s up, CPU ÷{CPU_SLOWDOWN};"
        f" {arguments.workers} gunicorn processes; {arguments.rounds} pairs (bare page, page) for every page"
    )
    print("× pair: the median of the pairs' ratios (judged); × med: median LCP over all bare visits' median (old)")
    print(
        f"\n{'page':<22}{'LCP ms':>8}{'× pair':>8}{'× med':>7}{'KB':>7}"
        f"{'rep. LCP':>10}{'× pair':>8}{'× med':>7}{'rep. KB':>9}"
    )
    failures: list[str] = []
    bare = targets[0]
    bare_first = median_visit([first for first, _repeat in runs[bare.name]])
    bare_repeat = median_visit([repeat for _first, repeat in runs[bare.name]])
    for target in targets:
        first = median_visit([first for first, _repeat in runs[target.name]])
        repeat = median_visit([repeat for _first, repeat in runs[target.name]])
        med_first, med_repeat = first.lcp_ms / bare_first.lcp_ms, repeat.lcp_ms / bare_repeat.lcp_ms
        if target is bare:
            pair_first = pair_repeat = 1.0
        else:
            floors = paired_bare[target.name]
            pair_first = median_ratio([f for f, _r in floors], [f for f, _r in runs[target.name]])
            pair_repeat = median_ratio([r for _f, r in floors], [r for _f, r in runs[target.name]])
        print(
            f"{target.name:<22}{first.lcp_ms:>8.0f}{pair_first:>8.2f}{med_first:>7.2f}{first.transferred / 1024:>7.1f}"
            f"{repeat.lcp_ms:>10.0f}{pair_repeat:>8.2f}{med_repeat:>7.2f}{repeat.transferred / 1024:>9.1f}"
        )
        if target is bare:
            continue
        for label, shown, over in (("first", first, pair_first), ("repeat", repeat, pair_repeat)):
            if over > LCP_OVER_BARE:
                failures.append(f"{target.name}, {label} visit: LCP {over:.2f}× the bare page's (pairs' median)")
            if shown.lcp_ms > LCP_LIMIT_MS:
                failures.append(f"{target.name}, {label} visit: LCP {shown.lcp_ms:.0f} ms")
        if repeat.transferred > REPEAT_LIMIT_BYTES:
            failures.append(f"{target.name}: {repeat.transferred / 1024:.0f} KB on a repeat visit")
    print(
        "\ngoal: LCP ≤ 2× the bare page's (median of the pairs' ratios) and < 2.5 s (first and repeat visits);"
        " ≤ 100 KB on a repeat visit"
    )
    print("met" if not failures else "not met:\n  " + "\n  ".join(failures))


if __name__ == "__main__":
    main()
