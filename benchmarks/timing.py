"""Timing helpers the benchmarks share: each call's best time of several runs, and percentiles."""

from __future__ import annotations

import time
from collections.abc import Callable
from typing import Any


def best_times(function: Callable[[Any], Any], arguments: list, repeat: int) -> tuple[list[float], list]:
    """Each argument's best time of ``repeat`` calls in milliseconds (the machine is shared: the best is the least
    disturbed), and each call's answer."""
    times, answers = [], []
    for argument in arguments:
        best = float("inf")
        for _ in range(repeat):
            started = time.perf_counter()
            answer = function(argument)
            best = min(best, (time.perf_counter() - started) * 1000)
        times.append(best)
        answers.append(answer)
    return times, answers


def percentile(values: list[float], fraction: float) -> float:
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, round(fraction * (len(ordered) - 1)))]
