"""The one tile model every rule set, the vision models and the app share.

A tile is named by its text code, the compact notation riichi players write:

* suits ``1m``-``9m`` (萬), ``1p``-``9p`` (筒), ``1s``-``9s`` (索/條); ``0m 0p 0s`` are red fives;
* honours ``1z``-``7z`` = 東 南 西 北 白 發 中;
* flowers ``1f``-``8f`` = 春 夏 秋 冬 梅 蘭 菊 竹;
* xiangqi pieces ``1b``-``7b`` = 將 士 象 車 馬 包 卒 (black) and ``1r``-``7r`` = 帥 仕 相 俥 傌 炮 兵 (red).
  The piece characters themselves are accepted everywhere a code is.

Tiles are small integers inside the engine (fast to count); the code is the only name a user sees.
"""

from __future__ import annotations

import enum
from dataclasses import dataclass
from functools import cache

from scoring.errors import TileError


class Suit(enum.Enum):
    """The family a tile belongs to; the letter is its notation suffix."""

    MAN = "m"
    PIN = "p"
    SOU = "s"
    HONOR = "z"
    FLOWER = "f"
    BLACK = "b"
    RED = "r"


NUMBERED_SUITS = (Suit.MAN, Suit.PIN, Suit.SOU)
XIANGQI_SUITS = (Suit.BLACK, Suit.RED)

HONOR_NAMES = ("東", "南", "西", "北", "白", "發", "中")
FLOWER_NAMES = ("春", "夏", "秋", "冬", "梅", "蘭", "菊", "竹")
BLACK_PIECES = ("將", "士", "象", "車", "馬", "包", "卒")
RED_PIECES = ("帥", "仕", "相", "俥", "傌", "炮", "兵")
SUIT_NAMES = {Suit.MAN: "萬", Suit.PIN: "筒", Suit.SOU: "索"}
CHINESE_NUMERALS = ("", "一", "二", "三", "四", "五", "六", "七", "八", "九")

# Piece ranks inside a colour, in the order of the rule text: 將士象車馬包卒.
PIECE_RANK_NAMES = ("general", "advisor", "elephant", "chariot", "horse", "cannon", "soldier")


@dataclass(frozen=True, order=True, eq=True)
class Tile:
    """One tile kind. ``number`` is 1-9 for suits (0 = red five), 1-7 honours/pieces, 1-8 flowers."""

    suit: Suit
    number: int

    def __post_init__(self) -> None:
        limit = {Suit.HONOR: 7, Suit.FLOWER: 8, Suit.BLACK: 7, Suit.RED: 7}.get(self.suit, 9)
        low = 0 if self.suit in NUMBERED_SUITS else 1
        if not low <= self.number <= limit:
            raise TileError(f"unknown tile code {self.code!r}")

    @property
    def code(self) -> str:
        return f"{self.number}{self.suit.value}"

    @property
    def is_red_five(self) -> bool:
        return self.suit in NUMBERED_SUITS and self.number == 0

    @property
    def rank(self) -> int:
        """The number as play sees it: a red five plays as a five."""
        return 5 if self.is_red_five else self.number

    @property
    def plain(self) -> Tile:
        """The tile with a red five turned into an ordinary five (what hand shapes use)."""
        return Tile(self.suit, 5) if self.is_red_five else self

    @property
    def is_suited(self) -> bool:
        return self.suit in NUMBERED_SUITS

    @property
    def is_honor(self) -> bool:
        return self.suit is Suit.HONOR

    @property
    def is_wind(self) -> bool:
        return self.suit is Suit.HONOR and self.number <= 4

    @property
    def is_dragon(self) -> bool:
        return self.suit is Suit.HONOR and self.number >= 5

    @property
    def is_terminal(self) -> bool:
        return self.is_suited and self.rank in (1, 9)

    @property
    def is_terminal_or_honor(self) -> bool:
        return self.is_terminal or self.is_honor

    @property
    def is_flower(self) -> bool:
        return self.suit is Suit.FLOWER

    @property
    def is_piece(self) -> bool:
        return self.suit in XIANGQI_SUITS

    @property
    def name(self) -> str:
        """The Chinese name a player reads: 五萬, 東, 春, 將."""
        if self.is_suited:
            prefix = "赤五" if self.is_red_five else CHINESE_NUMERALS[self.number]
            return prefix + SUIT_NAMES[self.suit]
        table = {
            Suit.HONOR: HONOR_NAMES,
            Suit.FLOWER: FLOWER_NAMES,
            Suit.BLACK: BLACK_PIECES,
            Suit.RED: RED_PIECES,
        }[self.suit]
        return table[self.number - 1]

    def __hash__(self) -> int:
        # The generated hash would hash the Suit enum, which is slow Python code; tiles are hashed
        # in every count and cache lookup.
        return ord(self.suit._value_) * 16 + self.number

    def __str__(self) -> str:
        return self.code

    def __repr__(self) -> str:
        return f"Tile({self.code})"


def _all_tiles() -> tuple[Tile, ...]:
    tiles: list[Tile] = []
    for suit in NUMBERED_SUITS:
        tiles += [Tile(suit, n) for n in range(1, 10)]
    tiles += [Tile(Suit.HONOR, n) for n in range(1, 8)]
    tiles += [Tile(suit, 0) for suit in NUMBERED_SUITS]
    tiles += [Tile(Suit.FLOWER, n) for n in range(1, 9)]
    for suit in XIANGQI_SUITS:
        tiles += [Tile(suit, n) for n in range(1, 8)]
    return tuple(tiles)


ALL_TILES: tuple[Tile, ...] = _all_tiles()
"""Every tile kind, in a fixed order: 34 mahjong tiles, 3 red fives, 8 flowers, 14 pieces."""

MAHJONG_TILES: tuple[Tile, ...] = ALL_TILES[:34]
"""The 34 kinds of the 136-tile set, in index order (the engine's tile index 0-33)."""

RED_FIVES: tuple[Tile, ...] = ALL_TILES[34:37]
FLOWERS: tuple[Tile, ...] = ALL_TILES[37:45]
PIECES: tuple[Tile, ...] = ALL_TILES[45:59]

_BY_CODE: dict[str, Tile] = {t.code: t for t in ALL_TILES}
_BY_CHARACTER: dict[str, Tile] = {t.name: t for t in FLOWERS + PIECES} | {
    name: Tile(Suit.HONOR, i + 1) for i, name in enumerate(HONOR_NAMES)
}


def tile_from_code(code: str) -> Tile:
    """The tile for a code (``"5m"``, ``"0p"``, ``"7z"``, ``"3f"``, ``"1b"``) or a character (``"將"``).

    >>> tile_from_code("0m").name
    '赤五萬'
    >>> tile_from_code("炮").code
    '6r'
    """
    tile = _BY_CODE.get(code) or _BY_CHARACTER.get(code)
    if tile is None:
        raise TileError(f"unknown tile code {code!r}")
    return tile


def is_tile_code(code: object) -> bool:
    """Whether ``code`` names a tile as ``tile_from_code`` takes it (a code or a character)."""
    return isinstance(code, str) and (code in _BY_CODE or code in _BY_CHARACTER)


@cache
def index34(tile: Tile) -> int:
    """The engine index 0-33 of a mahjong tile (red fives count as fives)."""
    plain = tile.plain
    if plain.is_suited:
        return NUMBERED_SUITS.index(plain.suit) * 9 + plain.number - 1
    if plain.is_honor:
        return 27 + plain.number - 1
    raise TileError(f"{tile.code!r} is not one of the 34 mahjong tile kinds")


def tile34(index: int) -> Tile:
    """The tile for an engine index 0-33."""
    return MAHJONG_TILES[index]


WIND_CODES = {"E": 1, "S": 2, "W": 3, "N": 4}
WIND_NAMES = {"E": "東", "S": "南", "W": "西", "N": "北"}


def wind_tile(wind: str) -> Tile:
    """The honour tile of a wind letter E S W N."""
    if wind not in WIND_CODES:
        raise TileError(f"unknown wind {wind!r}: use E, S, W or N")
    return Tile(Suit.HONOR, WIND_CODES[wind])
