"""``python manage.py simulate DECK_ID --games N --turns T --policy P [--seed S] [--param slug=value …]``

Plays a Monte Carlo run of a deck in this process (no task queue, nothing stored) and prints the
summary: per-turn means, wins and the turn of victory, with the stated parameters and policy used.
There is no cap on the games beyond sense: time grows with the games (see benchmarks/simulate.py
for games per second), memory only with the list of victory turns (one integer per game won), so
millions of games fit in memory. Progress goes to stderr every 10,000 games.
"""

from __future__ import annotations

import json
import sys
from typing import Any

from django.core.management.base import BaseCommand, CommandError, CommandParser

from cardsite.labels import pick
from decks.models import Deck

from ... import adapters, inputs
from ...engines import get_engine
from ...goldfish import services
from ...montecarlo import play_many


class Command(BaseCommand):
    help = "Play many goldfish games of a deck and print the summary (no cap on the games)."

    def add_arguments(self, parser: CommandParser) -> None:
        parser.add_argument("deck_id", type=int)
        parser.add_argument("--games", type=int, default=inputs.DEFAULT_GAMES)
        parser.add_argument("--turns", type=int, default=inputs.DEFAULT_TURNS)
        parser.add_argument("--policy", default="default")
        parser.add_argument("--seed", type=int, default=None, help="Game i uses seed + i (default: random).")
        parser.add_argument(
            "--param",
            action="append",
            default=[],
            metavar="SLUG=VALUE",
            help="A stated parameter of the game's engine, e.g. --param opponent_health=25 (repeatable).",
        )
        parser.add_argument("--lang", default="ja", help="Language of card names and labels (ja, zh-hant, en).")
        parser.add_argument("--json", action="store_true", help="Print the summary as JSON.")

    def handle(self, *args: Any, **options: Any) -> None:
        deck = Deck.objects.select_related("game").filter(pk=options["deck_id"]).first()
        if deck is None:
            raise CommandError(f"No deck {options['deck_id']}.")
        engine = get_engine(deck.game.slug)
        if options["games"] < 1:
            raise CommandError("--games must be at least 1.")
        if not 1 <= options["turns"] <= 1000:
            raise CommandError("--turns must be from 1 to 1000.")
        policy, error = inputs.parse_policy(engine, options["policy"])
        if error:
            raise CommandError(error)
        raw: dict[str, str] = {}
        known = {parameter.slug for parameter in engine.parameters}
        for item in options["param"]:
            slug, _, value = item.partition("=")
            if slug not in known:
                raise CommandError(f"{deck.game.slug} has no parameter “{slug}”; it has: {', '.join(known) or 'none'}.")
            raw[slug] = value
        params, errors = inputs.parse_params(engine, raw)
        if errors:
            raise CommandError(" ".join(errors.values()))
        language = options["lang"]
        simdeck = adapters.sim_deck(deck, language)
        readiness = adapters.readiness(simdeck, language)
        if not readiness.ready:
            raise CommandError(f"The deck has no cards in: {', '.join(readiness.missing)}.")
        seed = inputs.new_seed() if options["seed"] is None else options["seed"]

        def progress(done: int) -> bool:
            sys.stderr.write(f"\r{done:,} / {options['games']:,} games")
            sys.stderr.flush()
            return True

        summary = play_many(
            engine, simdeck, options["games"], options["turns"], seed, params, policy, progress, progress_every=10_000
        )
        if options["games"] >= 10_000:
            sys.stderr.write("\n")
        data = services.summary_dict(summary, turns=options["turns"], seed=seed)
        if options["json"]:
            self.stdout.write(json.dumps(data, ensure_ascii=False, indent=2))
            return
        self.print_summary(deck, engine, data, language)

    def print_summary(self, deck: Deck, engine: Any, data: dict[str, Any], language: str) -> None:
        out = self.stdout.write
        out(
            f"{deck.name} ({deck.game.slug}): {data['games']:,} games of up to {data['turns_asked']} turns, "
            f"seed {data['seed']}"
        )
        out(f"policy: {data['policy']}")
        for parameter in engine.parameters:
            value = data["parameters"].get(parameter.slug)
            source = f" — {pick(parameter.source, language)}" if parameter.source else ""
            label = pick(parameter.labels, language)
            out(f"  {label} ({parameter.slug}) = {value} (default {parameter.default}){source}")
        out("")
        out(f"{'turn':>4} {'games':>9} {'resources':>10} {'played':>8} {'damage':>8}")
        for row in data["turns"]:
            out(
                f"{row['turn']:>4} {row['games']:>9,} {row['resources']:>10.2f} "
                f"{row['cards_played']:>8.2f} {row['damage']:>8.2f}"
            )
        out("")
        out(f"won: {data['won']:,} of {data['games']:,} ({100 * data['win_rate']:.1f}%)")
        stats = data["win_turn_stats"]
        if stats:
            out(
                f"turn of victory: mean {stats['mean']:.2f}, median {stats['median']:g}, "
                f"p10 {stats['p10']:g}, p90 {stats['p90']:g}"
            )
            for row in data["win_turn_histogram"]:
                out(f"  turn {row['turn']:>3}: {row['games']:,}")
