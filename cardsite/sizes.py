"""A size in bytes as a person reads it: in megabytes (plain Python).

Limits are set in bytes (``IMAGE_MAX_BYTES``, ``DATA_UPLOAD_MAX_MEMORY_SIZE``); a message that names one says
"10 MB", as the reader's file manager does, not "10,000,000 bytes". A megabyte is 1,000,000 bytes here, as the
limits are written.
"""

from __future__ import annotations

MEGABYTE = 1_000_000


def megabytes(count: int) -> str:
    """``count`` bytes in megabytes, to the thousandth where needed: 10_000_000 → "10 MB", 1_500_000 →
    "1.5 MB", 5_000 → "0.005 MB"; a size under a thousandth keeps its bytes shown in MB to more places."""
    value = count / MEGABYTE
    places = 3 if count >= 1_000 or count == 0 else 6
    shown = f"{value:,.{places}f}".rstrip("0").rstrip(".")
    return f"{shown} MB"
