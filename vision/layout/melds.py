"""What kind of meld a group of tiles shows: chi, pon, kong, added kong, concealed kong."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from itertools import product

from scoring.errors import TilescoreError
from scoring.tiles import Tile, tile_from_code
from scoring.variants.xiangqi_shapes import is_chi
from vision.layout.tiles import LayoutTile


@dataclass(frozen=True)
class MeldGuess:
    """A typed group: ``type`` is None when the tiles make no meld."""

    type: str | None
    codes: tuple[str, ...]
    substituted: tuple[tuple[str, str], ...] = ()
    """(read, used) pairs where a doubtful tile's second reading made the meld whole."""


def _tile(code: str) -> Tile | None:
    try:
        return tile_from_code(code)
    except TilescoreError:
        return None


def is_sequence(tiles: Sequence[Tile]) -> bool:
    """Three of one suit in a row (mahjong), or the xiangqi scorer's own 吃 (車馬包/俥傌炮): a
    group typed chi that the scorer refuses would stop the runner-up readings that make one."""
    if len(tiles) != 3 or len({t.suit for t in tiles}) != 1:
        return False
    if all(t.is_suited for t in tiles):
        ranks = sorted(t.rank for t in tiles)
        return ranks == [ranks[0], ranks[0] + 1, ranks[0] + 2]
    return is_chi(tiles)


def _alike(tiles: Sequence[Tile]) -> bool:
    return len({t.plain for t in tiles}) == 1


def type_face_up(codes: Sequence[str], stacked: bool = False) -> str | None:
    tiles = [_tile(c) for c in codes]
    if any(t is None for t in tiles):
        return None
    known = [t for t in tiles if t is not None]
    if len(known) == 3:
        if _alike(known):
            return "pon"
        return "chi" if is_sequence(known) else None
    if len(known) == 4 and _alike(known):
        return "added_kong" if stacked else "kong"
    return None


def _readings(tile: LayoutTile) -> list[str]:
    options = [tile.code] if tile.code else []
    if tile.low_confidence:
        options += [a for a in tile.alternatives if a not in options]
    return options


def type_meld(tiles: Sequence[LayoutTile], stacked: bool = False) -> MeldGuess:
    """The meld these tiles (in row order, plus a stacked fourth if ``stacked``) show.

    A concealed kong lies back, face, face, back (or with any of its four face down but one,
    the faces alike). A doubtful tile may be read as its second
    guess when that, and only that, makes a meld ("7s 8s 8s?" with 9s as runner-up is a chi).
    """
    backs = [t.face_down for t in tiles]
    if len(tiles) == 4 and any(backs) and not all(backs):
        # Back, face, face, back as a rule; a player may show one face, or lay the faces at
        # the ends: four tiles, the faces alike, are a concealed kong whichever lie down.
        shown = [t.code or "" for t in tiles if not t.face_down]
        faces = [_tile(c) for c in shown]
        if all(faces) and _alike([f for f in faces if f is not None]):
            # The backs hide their faces; they are the plain tile (a red five would show).
            plain = next(f for f in faces if f is not None).plain.code
            return MeldGuess(
                "concealed_kong", tuple(plain if t.face_down else t.code or "" for t in tiles)
            )
        return MeldGuess(None, tuple(shown))
    if any(backs):
        return MeldGuess(None, tuple(t.label for t in tiles))
    codes = tuple(t.code or "?" for t in tiles)
    stacked = stacked or bool(stacked_pair(tiles))
    kind = type_face_up(codes, stacked)
    if kind is not None:
        return MeldGuess(kind, codes)
    # Try the runner-up readings of doubtful tiles, fewest changes first.
    for combo in sorted(product(*[_readings(t) for t in tiles]), key=lambda c: _changes(codes, c)):
        kind = type_face_up(combo, stacked)
        if kind is not None:
            swaps = tuple((a, b) for a, b in zip(codes, combo, strict=True) if a != b)
            return MeldGuess(kind, tuple(combo), swaps)
    return MeldGuess(None, codes)


def _changes(a: Sequence[str], b: Sequence[str]) -> int:
    return sum(x != y for x, y in zip(a, b, strict=True))


SEATS = ("E", "S", "W", "N")


def claimed_from(
    tiles: Sequence[LayoutTile], seat: str | None, kind: str | None = None
) -> str | None:
    """The seat a claimed tile came from, by where the sideways tile lies (riichi custom):
    left end = the player on the left (who plays just before), middle = across, right end =
    the player on the right. A chi comes from the player just before whichever tile lies
    sideways (the scorer refuses one from another seat). None when the winner's seat is
    unknown or no tile lies sideways, and for a concealed kong, claimed from nobody (a tile
    of it taken for sideways would have the scorer refuse the hand)."""
    if seat not in SEATS or kind == "concealed_kong":
        return None
    pair = stacked_pair(tiles)
    if pair:  # an added kong laid in the row: its two turned tiles are the claimed one's place
        tiles = [t for i, t in enumerate(tiles) if i != pair[1]]
    sideways = [i for i, t in enumerate(tiles) if t.rotated]
    if len(sideways) != 1:
        return None
    position = 0 if kind == "chi" else sideways[0]
    steps = 3 if position == 0 else 1 if position == len(tiles) - 1 else 2
    return SEATS[(SEATS.index(seat) + steps) % 4]


def stacked_pair(tiles: Sequence[LayoutTile]) -> tuple[int, int] | None:
    """The two tiles lying sideways side by side (or one on the other) in a group of four
    alike: an added kong's claimed tile and the one added to it, found in the row itself (a
    claimed kong turns one tile). None for any other group."""
    turned = [i for i, t in enumerate(tiles) if t.rotated and not t.is_piece]
    if len(tiles) != 4 or len(turned) != 2 or turned[1] != turned[0] + 1:
        return None
    return turned[0], turned[1]
