"""What a tile set holds that changes how its photos are read: red fives, and its backs.

Most Chinese and Taiwanese sets paint every five with red, and have no red fives as a riichi set
has them; a reader that may say "red five" calls them red fives. A table says once what its set
holds (the labelled photos say it in ``tile_sets.json`` beside their labels folder), and every
read of that set uses it. A set with white backs says ``coloured_backs: false``: its backs and a
blank 白 cannot be told apart by colour (vision/face_colour.py). A set may say its backs' colour
(``back_colour: "#rrggbb"``): a weakly read back of another colour (a fingertip, a dark box) is
then no tile.
"""

from __future__ import annotations

import argparse
import re
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring import strict_json
from scoring.errors import TilescoreError

FILE_NAME = "tile_sets.json"
HEX_COLOUR = re.compile(r"#[0-9a-fA-F]{6}")


@dataclass(frozen=True)
class Backs:
    """What a set's backs look like, as far as reading a photo goes: coloured or white like the
    faces, and the colour they are painted (``#rrggbb``, None when nobody said)."""

    coloured: bool = True
    colour: str | None = None

    def __post_init__(self) -> None:
        if self.colour is not None and not HEX_COLOUR.fullmatch(self.colour):
            raise TilescoreError(f"back colour {self.colour!r} is not a #rrggbb colour")
        if self.colour is not None and not self.coloured:
            raise TilescoreError("a set with white backs has no back colour to tell them by")


UNSAID_BACKS = Backs()
"""The backs of a set nobody described: coloured (nearly every set's are), colour unsaid."""


@dataclass(frozen=True)
class TileSet:
    name: str
    red_fives: bool = True
    note: str = ""
    backs: Backs = UNSAID_BACKS

    @property
    def read_options(self) -> dict[str, Any]:
        """``TilePipeline.read``'s options for photos of this set: every fact that changes a read,
        so a reader passing them all never misses one."""
        return {"red_fives": self.red_fives, "backs": self.backs}

    def describe(self) -> str:
        """One line for a person: ``ours has no red fives, backs #d6a326``."""
        if not self.backs.coloured:
            backs = "white backs"
        else:
            backs = f"backs {self.backs.colour}" if self.backs.colour else "coloured backs"
        return f"{self.name} {'has' if self.red_fives else 'has no'} red fives, {backs}"

    def facts_json(self) -> dict[str, Any]:
        """The facts as tile_sets.json says them (evaluate reports them beside its numbers)."""
        return {
            "red_fives": self.red_fives,
            "coloured_backs": self.backs.coloured,
            "back_colour": self.backs.colour,
        }


def add_back_options(parser: argparse.ArgumentParser) -> None:
    """``--white-backs`` and ``--back-colour`` for every command that reads photos (detect,
    score, serve); ``backs_from_args`` reads them back."""
    parser.add_argument(
        "--white-backs",
        dest="coloured_backs",
        action="store_false",
        help="the tile set's backs are white like its faces: a plain white tile is left as the "
        "classifier reads it (back or blank 白) instead of being told by its colour",
    )
    parser.add_argument(
        "--back-colour",
        metavar="#RRGGBB",
        default=None,
        help="the colour the set's backs are painted: a weakly read back of another colour (a "
        "fingertip, a dark box) is no tile",
    )


def backs_from_args(args: argparse.Namespace) -> Backs:
    return Backs(args.coloured_backs, args.back_colour)


def plain_five(code: str | None) -> str | None:
    """``0m`` -> ``5m``; any other code unchanged (a set without red fives)."""
    if code is not None and len(code) == 2 and code[0] == "0":
        return "5" + code[1]
    return code


def tile_set_named(tile_sets: Mapping[str, TileSet], name: str | None) -> TileSet:
    """The facts of the set named ``name``; a set nobody described has the defaults (it may show
    red fives, its backs are coloured)."""
    found = tile_sets.get(name) if name else None
    return found if found is not None else TileSet(name or "")


def beside(labels_dir: Path) -> Path:
    """Where a labels folder's tile-set facts live: ``tile_sets.json`` in its parent folder."""
    return labels_dir.resolve().parent / FILE_NAME


def load_tile_sets(path: Path) -> dict[str, TileSet]:
    """``{"name": {"red_fives": false, "coloured_backs": true, "back_colour": "#d6a53c",
    "note": "..."}}``; a missing file is no facts at all."""
    if not path.is_file():
        return {}
    data = strict_json.loads(path.read_bytes(), str(path))
    if not isinstance(data, dict):
        raise TilescoreError(f"{path}: not a tile-set file (an object of named sets is expected)")
    try:
        return {name: _tile_set(name, facts) for name, facts in data.items()}
    except TilescoreError as error:
        raise TilescoreError(f"{path}: {error}") from None


def _tile_set(name: str, facts: object) -> TileSet:
    """One named set's facts, each of the type it must be: a "no" is not false."""
    if not isinstance(facts, dict):
        raise TilescoreError(f"set {name!r}: its facts must be an object")
    unknown = sorted(set(facts) - {"red_fives", "coloured_backs", "back_colour", "note"})
    if unknown:
        raise TilescoreError(f"set {name!r}: unknown fact {unknown[0]!r}")
    for key in ("red_fives", "coloured_backs"):
        if not isinstance(facts.get(key, True), bool):
            raise TilescoreError(f"set {name!r}: {key} must be true or false")
    colour = facts.get("back_colour")
    if colour is not None and not isinstance(colour, str):
        raise TilescoreError(f"set {name!r}: back_colour must be a #rrggbb string")
    if not isinstance(facts.get("note", ""), str):
        raise TilescoreError(f"set {name!r}: note must be text")
    return TileSet(
        name,
        facts.get("red_fives", True),
        facts.get("note", ""),
        Backs(facts.get("coloured_backs", True), colour),
    )
