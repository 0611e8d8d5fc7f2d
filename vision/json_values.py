"""Numbers as JSON input gives them (label files, saved detections, a detect --json piped on)."""

from __future__ import annotations

import math
from numbers import Real


def finite_number(value: object) -> float | None:
    """``value`` as a finite float, or None when it is no number JSON can hold: text, a list,
    true or false (a bool is an int to Python), NaN and Infinity (Python's json reads them, but
    what it writes back from them is no JSON, and a NaN box compares false with everything), and
    a whole number too long for a float."""
    if isinstance(value, bool) or not isinstance(value, Real):
        return None
    try:
        number = float(value)
    except OverflowError:
        return None
    return number if math.isfinite(number) else None
