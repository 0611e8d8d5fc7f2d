"""Text notation of tiles, in and out: compact mpsz (``"123m456p11z"``) plus piece characters.

>>> [t.code for t in parse_tiles("12m0p 東將")]
['1m', '2m', '0p', '1z', '1b']
>>> format_tiles(parse_tiles("3m1m2m55z"))
'123m55z'
"""

from __future__ import annotations

from collections.abc import Iterable

from scoring.errors import TileError
from scoring.tiles import ALL_TILES, Suit, Tile, tile_from_code

_SUFFIXES = {s.value for s in Suit}
_ORDER = {tile: i for i, tile in enumerate(ALL_TILES)}
_SUIT_ORDER = [Suit.MAN, Suit.PIN, Suit.SOU, Suit.HONOR, Suit.FLOWER, Suit.BLACK, Suit.RED]


def parse_tiles(text: str) -> tuple[Tile, ...]:
    """Tiles from compact notation: digits then a suit letter, or single characters (將, 東, 春).

    Spaces, commas and ``+`` separate nothing and are ignored. Anything else is an error that
    names the bad part.
    """
    tiles: list[Tile] = []
    digits: list[str] = []
    for position, char in enumerate(text):
        if char.isspace() or char in ",+":
            continue
        if char.isascii() and char.isdigit():
            digits.append(char)
        elif char in _SUFFIXES:
            if not digits:
                raise TileError(f"unknown tile code {text!r}: suit letter {char!r} with no number")
            tiles += [tile_from_code(d + char) for d in digits]
            digits = []
        elif not char.isascii():
            if digits:
                raise TileError(f"unknown tile code {text!r}: numbers before {char!r}")
            tiles.append(tile_from_code(char))
        else:
            raise TileError(f"unknown tile code {text!r}: unexpected {char!r} at {position}")
    if digits:
        raise TileError(f"unknown tile code {text!r}: numbers {''.join(digits)!r} with no suit")
    return tuple(tiles)


def sort_tiles(tiles: Iterable[Tile]) -> list[Tile]:
    """Tiles in the order players sort them: 萬 筒 索, honours, flowers, pieces; a red five is a five."""
    return sorted(tiles, key=lambda t: (_SUIT_ORDER.index(t.suit), t.rank, t.number))


def format_tiles(tiles: Iterable[Tile], *, sort: bool = True) -> str:
    """Compact notation; pieces are written with their characters (``將士士``)."""
    ordered = sort_tiles(tiles) if sort else list(tiles)
    out: list[str] = []
    run: list[str] = []
    run_suit: Suit | None = None
    for tile in ordered:
        if tile.is_piece:
            if run:
                out.append("".join(run) + run_suit.value)  # type: ignore[union-attr]
                run, run_suit = [], None
            out.append(tile.name)
            continue
        if run_suit is not None and tile.suit is not run_suit:
            out.append("".join(run) + run_suit.value)
            run = []
        run_suit = tile.suit
        run.append(str(tile.number))
    if run and run_suit is not None:
        out.append("".join(run) + run_suit.value)
    return "".join(out)


def format_tile_names(tiles: Iterable[Tile]) -> str:
    """Chinese names separated by spaces, for people."""
    return " ".join(t.name for t in tiles)
