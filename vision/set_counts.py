"""What one set holds, and a photo's reads that say more than it holds.

A set has four of each mahjong tile (a red five is one of its suit's four fives, and the only red
one), one of each flower, and a xiangqi set its 32 pieces. A photo of one table that reads five
8p has misread at least one of them. The shipped classifier does this on 4 of the 30 real photos
(8 "8p" on IMG_3088, where 1s, 9s, 9p and 7p were read as 8p), so the surplus reads are read
again: each time the read that costs least to change (its probability over the best one left for
it) takes the best one left, until every tile fits the set.
"""

from __future__ import annotations

import math
from collections import Counter
from collections.abc import Sequence
from functools import cache

import numpy as np

from scoring.hand import COPIES_IN_A_SET
from scoring.tiles import tile_from_code
from scoring.variants.xiangqi_shapes import copies_in_set


@cache
def groups_of(code: str | None) -> tuple[tuple[str, int], ...]:
    """The counts a tile with this code is part of, each with what one set holds: a tile is one
    of its kind's copies; a red five is also one of its suit's fives. No code (a back, no tile):
    none."""
    if code is None:
        return ()
    tile = tile_from_code(code)
    if tile.is_piece:
        return ((tile.code, copies_in_set(tile)),)
    if tile.is_flower:
        return ((tile.code, 1),)
    if tile.is_red_five:
        return ((tile.plain.code, COPIES_IN_A_SET), (tile.code, 1))
    return ((tile.code, COPIES_IN_A_SET),)


def surplus_reads(
    reads: Sequence[int], probabilities: np.ndarray, class_codes: Sequence[str | None]
) -> dict[int, int]:
    """Which reads to change so no count exceeds the set's, and to which class.

    ``reads`` is each tile's class, ``probabilities`` one row a tile (classes it may not be
    already zeroed), ``class_codes`` each class's tile code. Returns {tile: new class} for the
    tiles to change; a tile never goes back to a class it was moved off.
    """
    current = list(reads)
    refused: list[set[int]] = [set() for _ in current]
    changed: dict[int, int] = {}
    for _ in range(3 * len(current) + 1):  # each pass refuses one more class to one tile
        over = _over_the_count(current, class_codes)
        if over is None:
            return changed
        members = [i for i, c in enumerate(current) if over in _group_names(class_codes[c])]
        best: tuple[float, int, int] | None = None
        for tile in members:
            row = probabilities[tile].copy()
            row[list(refused[tile] | {current[tile]})] = 0.0
            other = int(row.argmax())
            if row[other] <= 0.0:
                continue  # nothing else it could be
            cost = math.log(max(float(probabilities[tile][current[tile]]), 1e-9)) - math.log(
                float(row[other])
            )
            if best is None or cost < best[0]:
                best = (cost, tile, other)
        if best is None:
            return changed
        _, tile, other = best
        refused[tile].add(current[tile])
        current[tile] = other
        changed[tile] = other
    return changed


def _group_names(code: str | None) -> set[str]:
    return {name for name, _ in groups_of(code)}


def _over_the_count(reads: Sequence[int], class_codes: Sequence[str | None]) -> str | None:
    """A count the reads hold more of than a set does (the alphabetically first, so the
    answer does not hang on the tiles' order), or None."""
    counts: Counter[str] = Counter()
    limits: dict[str, int] = {}
    for read in reads:
        for name, limit in groups_of(class_codes[read]):
            counts[name] += 1
            limits[name] = limit
    over = [name for name, count in counts.items() if count > limits[name]]
    return min(over) if over else None
