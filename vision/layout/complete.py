"""A concealed hand that is no winning hand as read, made one by its doubtful tiles' runner-ups.

A player lays down a hand to have it scored because it won, so a reading that is no winning hand
holds a misread. Where the classifier was unsure of a tile and its next guess turns the hand into
a winning one, that guess is what the tile most likely shows (as ``melds.type_meld`` does for a
meld). Only doubtful tiles change (``low_confidence`` ones with runner-ups), at most
``MAX_CHANGES`` of them, and every change is reported for a person to check: the scoring rules
decide what wins, through the ``wins`` callback, so no rule is repeated here.
"""

from __future__ import annotations

from collections.abc import Callable, Sequence
from dataclasses import dataclass
from itertools import combinations, product

from vision.layout.tiles import LayoutTile

MAX_CHANGES = 1
"""The most tiles read as their runner-up at once. On winning hands built from the real photos'
reads (benchmarks/hand_completion.py), one change reads 2.6 points more Taiwan hands right and
completes 1.1% wrong; two read 0.2 more right and complete 1.5% wrong: beyond one, a winning hand
is found by trying, not read from the photo."""

MAX_DOUBTFUL = 6
"""The least sure tiles tried (with two runner-ups each, 12 hands to check at most)."""


@dataclass(frozen=True)
class Completion:
    codes: tuple[str, ...]
    """The concealed tiles' codes, in the order given, with the runner-ups in."""
    swaps: tuple[tuple[LayoutTile, str], ...]
    """Each tile read again and the code it is now read as."""


def complete(
    concealed: Sequence[LayoutTile], wins: Callable[[tuple[str, ...]], bool]
) -> Completion | None:
    """The fewest runner-up reads of doubtful tiles that make ``wins(codes)`` true, or None
    when the hand wins as read or no such reads do.

    Among as many changes, the tiles' first runner-ups go before their second ones, and less
    sure tiles before surer ones: the likeliest misread is tried first.
    """
    codes = tuple(tile.code or "" for tile in concealed)
    if wins(codes):
        return None
    doubtful = sorted(
        (
            (position, tile)
            for position, tile in enumerate(concealed)
            if tile.low_confidence and _runner_ups(tile)
        ),
        key=lambda item: item[1].confidence,
    )[:MAX_DOUBTFUL]
    for changes in range(1, MAX_CHANGES + 1):
        tries = []
        for chosen in combinations(doubtful, changes):
            for ranks in product(*(range(len(_runner_ups(tile))) for _, tile in chosen)):
                doubt = sum(tile.confidence for _, tile in chosen)
                tries.append((sum(ranks), doubt, chosen, ranks))
        tries.sort(key=lambda t: (t[0], t[1]))
        for _, _, chosen, ranks in tries:
            new = list(codes)
            swaps = []
            for (position, tile), rank in zip(chosen, ranks, strict=True):
                new[position] = _runner_ups(tile)[rank]
                swaps.append((tile, new[position]))
            if wins(tuple(new)):
                return Completion(tuple(new), tuple(swaps))
    return None


def _runner_ups(tile: LayoutTile) -> tuple[str, ...]:
    """The tile's other readings that name a tile (not a back, not itself)."""
    return tuple(
        code
        for code in tile.alternatives
        if code != tile.code and LayoutTile(tile.index, code, tile.box).tile is not None
    )
