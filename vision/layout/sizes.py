"""How many tiles a winning hand of each variant has (each meld counted as three), and which
tiles it plays."""

from __future__ import annotations

from collections.abc import Sequence

from scoring.errors import TilescoreError
from scoring.tiles import tile_from_code

# Used when a variant module is not installed; the variant's own ``hand_size`` wins otherwise.
FALLBACK = {"taiwan": 17, "riichi": 14, "mingjiang": 14, "xiangqi": 5}


def expected_size(variant: str | None, hand: Sequence[str] = ()) -> int | None:
    """The hand size of a variant; with none named, 5 for xiangqi pieces, else unknown.

    >>> expected_size("taiwan"), expected_size(None, ["1b"]), expected_size(None, ["1m"])
    (17, 5, None)
    """
    if variant is None:
        return 5 if holds_pieces(hand) else None
    try:
        from scoring.variant import find_variant

        return find_variant(variant).hand_size
    except (TilescoreError, ImportError):
        # A variant whose module (or its library) is missing still has a known size.
        return FALLBACK.get(variant)


def not_played(variant: str | None, code: str) -> str | None:
    """Why a variant's hands hold no such tile (a flower where it plays none, a xiangqi piece in
    a mahjong hand, a mahjong tile in a hand of pieces), or None where they may; with no variant
    named (or one whose module is missing), every tile is taken as it lies."""
    if variant is None:
        return None
    try:
        from scoring.variant import find_variant

        rules = find_variant(variant)
        tile = tile_from_code(code)
    except (TilescoreError, ImportError):
        return None
    if tile.is_flower and not rules.uses_flowers:
        return f"is a flower, and {variant} is played without flowers"
    if tile.is_piece != rules.uses_pieces:
        return "is a xiangqi piece" if tile.is_piece else "is no xiangqi piece"
    return None


def holds_pieces(hand: Sequence[str]) -> bool:
    """Whether a hand's codes hold xiangqi pieces (codes no tile has are passed over)."""
    return any(_is_piece(code) for code in hand)


def _is_piece(code: str) -> bool:
    try:
        return tile_from_code(code).is_piece
    except TilescoreError:
        return False
