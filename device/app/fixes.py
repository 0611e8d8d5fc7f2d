"""A correction a person sends for one hand (a tile read again, the hand typed, melds, the
winning tile, the context): every key and value checked before anything is applied."""

from __future__ import annotations

from collections.abc import Mapping
from typing import Any

from device.app.context import DEFAULT_CONTEXT, whole_number
from device.app.seats import FROM_WINNER, chairs
from scoring.errors import TilescoreError, shown
from scoring.hand_json import parse_meld
from scoring.notation import format_tiles
from scoring.tiles import tile_from_code
from vision.labels import IGNORED_CODE

JOINS = {"chi": 3, "pon": 3, "kong": 4, "concealed_kong": 4}
"""The melds a person may make of concealed tiles, and how many tiles each takes."""

FIX_KEYS = (
    "tile",
    "code",
    "face_down",
    "not_a_tile",
    "keep_win",
    "win_tile",
    "win_index",
    "hand",
    "melds",
    "flowers",
    "split",
    "join",
    "meld",
    "add",
    "mend",
    "context",
)
FIX_PARTS = {
    "code": "tile",
    "face_down": "tile",
    "not_a_tile": "tile",
    "keep_win": "tile",
    "win_index": "win_tile",
    "meld": "join",
    "join": "meld",
}
"""A key of a fix that means nothing without another: the first needs the second."""
MAX_HAND_TILES = 64  # more than any rule set's hand: a larger one is no hand, only bytes to keep
MAX_MELDS = 8
MAX_FLOWERS = 16


def check_fix(given: Any, tiles: int) -> dict[str, Any]:
    """A correction sent for a hand whose photo has ``tiles`` tiles, checked as a whole before
    anything is applied or saved, as it is to be kept: only the keys the page sends, each of its
    kind (a tile number or winning box one of the photo's, tile codes ``scoring.tiles`` knows,
    true or false, tiles as text, melds the scorer reads). Anything else is a one-line
    ``TilescoreError`` naming the key, and the hand stays as it was. The ``context`` is the
    hand's to check (``check_context`` against the hand's own). Only the keys sent are kept:
    the hand's corrections record what the person did."""
    if not isinstance(given, dict):
        raise TilescoreError("a fix must be a JSON object")
    if not given or given == {"context": {}}:
        raise TilescoreError(
            "a fix must say what to change: a tile, the winning tile, the tiles typed, or the "
            "context"
        )
    unknown = set(given) - set(FIX_KEYS)
    if unknown:
        raise TilescoreError(f"unknown fix key {shown(sorted(unknown)[0])}")
    for part, whole in FIX_PARTS.items():
        if part in given and whole not in given:
            raise TilescoreError(f"{part} goes with {whole}")
    fix = dict(given)
    if "tile" in given:
        fix.update(_tile_fix(given, tiles))
    if "win_tile" in given:
        fix["win_tile"] = _tile_code("win_tile", given["win_tile"])
        if "win_index" in given:
            fix["win_index"] = _tile_number("win_index", given["win_index"], tiles)
    if "hand" in given:
        fix["hand"] = _tile_text("hand", given["hand"], MAX_HAND_TILES)
    if "melds" in given:
        fix["melds"] = _melds(given["melds"])
    if "flowers" in given:
        fix["flowers"] = _tile_text("flowers", given["flowers"], MAX_FLOWERS)
    if "add" in given:
        fix["add"] = _tile_code("add", given["add"])
    if "mend" in given:  # a meld a missed tile broke, counted whole (the offer's tap)
        fix["mend"] = _melds([given["mend"]])[0]
    if "split" in given:
        fix["split"] = whole_number("split", given["split"])
    if "join" in given:
        fix["join"] = _tile_text("join", given["join"], max(JOINS.values()))
        if not isinstance(given["meld"], str) or given["meld"] not in JOINS:
            raise TilescoreError(
                f"cannot join tiles as {shown(given['meld'])}: use {', '.join(JOINS)}"
            )
    return fix


def _tile_fix(given: dict[str, Any], tiles: int) -> dict[str, Any]:
    """A tile read again: its number, and its code, or face down (a back has no code), or no
    tile at all (a box on a key or a cap)."""
    fix: dict[str, Any] = {"tile": _tile_number("tile", given["tile"], tiles)}
    for key in ("face_down", "not_a_tile", "keep_win"):
        if key in given:
            fix[key] = _flag(given, key)
    code = given.get("code")
    if fix.get("face_down") and fix.get("not_a_tile"):
        raise TilescoreError("a box is face down or not a tile, not both")
    if fix.get("face_down") or fix.get("not_a_tile"):
        if code is not None:
            what = "a face-down tile" if fix.get("face_down") else "a box with no tile"
            raise TilescoreError(f"{what} has no code, got {shown(code)}")
    else:
        fix["code"] = _tile_code("code", code)
    return fix


def _tile_number(key: str, value: Any, tiles: int) -> int:
    index = whole_number(key, value)
    if not tiles:  # a hand typed in: no photo, no boxes
        raise TilescoreError("this hand was typed in: it has no photo tiles to read again")
    if not 0 <= index < tiles:
        raise TilescoreError(f"no tile number {index} in this photo")
    return index


def _tile_code(key: str, value: Any) -> str:
    if not isinstance(value, str):
        raise TilescoreError(f'{key} must be a tile code such as "3m", got {shown(value)}')
    return tile_from_code(value).code  # an unknown one: its one-line TileError


def _flag(given: dict[str, Any], key: str) -> bool:
    value = given[key]
    if not isinstance(value, bool):
        raise TilescoreError(f"{key} must be true or false, got {shown(value)}")
    return value


def _tile_text(key: str, value: Any, most: int) -> str:
    """Tiles as the text fields hold them ("123m 55z"), read as the scorer reads them."""
    from scoring.hand_json import tiles_from_text

    if not isinstance(value, str):
        raise TilescoreError(f'{key} must be tiles as text, e.g. "123m", got {shown(value)}')
    if len(tiles_from_text(value)) > most:  # a bad code: its one-line TileError
        raise TilescoreError(f"{key} has at most {most} tiles")
    return value


def _melds(value: Any) -> list[Any]:
    if not isinstance(value, list):
        raise TilescoreError(
            f'melds must be a list of melds, e.g. ["pon:777z"], got {shown(value)}'
        )
    if len(value) > MAX_MELDS:
        raise TilescoreError(f"a hand has at most {MAX_MELDS} melds, got {len(value)}")
    for meld in value:
        parse_meld(meld)  # a meld the scorer cannot read: its one-line HandError
    return value


def check_fix_tiles(fix: Mapping[str, Any], context: Mapping[str, Any]) -> None:
    """A fix's tiles as the hand's rule set takes them (``check_fix`` has read their codes): a
    box read as a tile of its set (a flower where it plays flowers, a red five where its rules
    count them), the winning tile, the concealed tiles and the tiles joined as a meld of its
    tiles and no flower, the flowers flowers. Anything else is a one-line ``TilescoreError``,
    refused before it is saved (and before a label for training calls a box so), not kept to
    fail every rescore after."""
    from scoring.hand_json import tiles_from_text
    from scoring.variant import find_variant, red_fives_in_play

    name = context.get("variant") or DEFAULT_CONTEXT["variant"]
    variant = find_variant(name)
    red_fives = red_fives_in_play(name, context.get("rules"))

    def of_the_set(key: str, tile: Any, flower_ok: bool) -> None:
        if tile.is_flower and not (flower_ok and variant.uses_flowers):
            where = f"{name} is played without flowers" if flower_ok else "list flowers apart"
            raise TilescoreError(f"{key}: {tile.code} ({tile.name}) is a flower: {where}")
        if tile.is_piece != variant.uses_pieces:
            raise TilescoreError(f"{key}: {tile.code} ({tile.name}) is not part of {name} mahjong")
        if tile.is_red_five and not red_fives:
            raise TilescoreError(
                f"{key}: red five {tile.code} is not used in {name} with these rules"
            )

    if fix.get("code") is not None:
        of_the_set("code", tile_from_code(fix["code"]), flower_ok=True)
    for key in ("win_tile", "add"):
        if key in fix:
            of_the_set(key, tile_from_code(fix[key]), flower_ok=False)
    for key in ("hand", "join"):
        for tile in tiles_from_text(fix.get(key) or ""):
            of_the_set(key, tile, flower_ok=False)
    for meld in [*fix.get("melds", []), *([fix["mend"]] if "mend" in fix else [])]:
        for tile in parse_meld(meld).tiles:
            of_the_set("melds", tile, flower_ok=False)
    for tile in tiles_from_text(fix.get("flowers") or ""):
        if not tile.is_flower:
            raise TilescoreError(f"flowers: {tile.code} ({tile.name}) is not a flower")
        if not variant.uses_flowers:
            raise TilescoreError(f"flowers: {name} is played without flowers")


def check_winning_box(boxes: list[dict[str, Any]], index: int, win_tile: str) -> None:
    """The box a player marked as the winning tile, checked against the tile they named: a box
    said to hold no tile, a face-down one, or one read as another tile is refused (the display
    would mark one tile while the hand is scored with another)."""
    box = boxes[index]
    if box.get("code") == IGNORED_CODE:
        raise TilescoreError(
            f"tile {index} was said to hold no tile: it cannot be the winning tile"
        )
    if box.get("face_down") or box.get("code") is None:
        raise TilescoreError(f"tile {index} lies face down: it cannot be the winning tile")
    if tile_from_code(box["code"]).plain != tile_from_code(win_tile).plain:
        raise TilescoreError(
            f"tile {index} is read as {box['code']}, not {win_tile}: read it as {win_tile} "
            "first, or choose the winning tile by its code"
        )


def check_fix_melds(melds: list[Any], context: Mapping[str, Any]) -> None:
    """A fix's melds as the hand's rule set takes them (``check_fix`` has parsed them): each of
    the right tiles for its kind (a pon of no tiles is no pon), and claimed, if from anyone,
    from a seat the scorer knows: a chair of the table for a rule set named by winds, or for
    one without winds (xiangqi) a seat named from the winner's (left, across, right). Anything
    else is a one-line ``TilescoreError``: refused before it is saved, not kept to fail every
    rescore after."""
    from scoring.variant import find_variant

    variant = find_variant(context.get("variant") or DEFAULT_CONTEXT["variant"])
    players = context.get("players") or 4
    # By wind: the table's chairs; without winds: the seats named from the winner's.
    seats = chairs(players) if variant.seats_by_wind else FROM_WINNER.get(players, ())
    for given in melds:
        meld = parse_meld(given)
        variant.check_meld(meld)  # the shape: its one-line HandError
        if meld.claimed_from is not None and meld.claimed_from not in seats:
            raise TilescoreError(
                f"meld {meld.type.value}:{format_tiles(meld.tiles)} is claimed from "
                f"{shown(meld.claimed_from)}: use one of {' '.join(seats)} or leave 'from' out"
            )
