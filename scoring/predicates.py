"""Small facts about a reading that several rule sets ask: triplets of a kind, suits used, and so on.

Each takes a ``Reading`` (or tiles) and answers one question; rule tables combine them.
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.reading import Reading
from scoring.tiles import Suit, Tile


def suits_used(tiles: Iterable[Tile]) -> set[Suit]:
    """The numbered suits among the tiles (honours not included)."""
    return {t.suit for t in set(tiles) if t.is_suited}


def has_honors(tiles: Iterable[Tile]) -> bool:
    return any(t.is_honor for t in tiles)


def count_wind_triplets(reading: Reading) -> int:
    return reading.wind_triplets


def count_dragon_triplets(reading: Reading) -> int:
    return reading.dragon_triplets


def has_triplet_of(reading: Reading, tile: Tile) -> bool:
    return tile in reading.triplet_tiles


def pair_is_wind(reading: Reading) -> bool:
    return reading.pair is not None and reading.pair.first.is_wind


def pair_is_dragon(reading: Reading) -> bool:
    return reading.pair is not None and reading.pair.first.is_dragon


def is_all_triplets(reading: Reading) -> bool:
    """Every set is a triplet or a kong (the pair aside)."""
    return reading.all_triplets


def is_all_sequences(reading: Reading) -> bool:
    return reading.all_sequences


def count_kongs(reading: Reading, *, concealed: bool) -> int:
    return sum(
        1
        for g in reading.sets
        if g.meld is not None and g.meld.is_kong and g.concealed == concealed
    )
