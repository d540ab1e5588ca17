"""The production settings plus one bare view (benchmarks/load.py's ceiling): nothing else differs."""

from cardsite.settings import *  # noqa: F403

ROOT_URLCONF = "benchmarks.load_urls"
