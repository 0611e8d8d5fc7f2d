"""What a tile set holds that changes how its photos are read: red fives, and the backs' colour.

Most Chinese and Taiwanese sets paint every five with red, and have no red fives as a riichi set
has them; a reader that may say "red five" calls them red fives. A table says once what its set
holds (the labelled photos say it in ``tile_sets.json`` beside their labels folder), and every
read of that set uses it. A set with white backs says ``coloured_backs: false``: its backs and a
blank 白 cannot be told apart by colour (vision/face_colour.py).
"""

from __future__ import annotations

import argparse
import json
from collections.abc import Mapping
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import TilescoreError

FILE_NAME = "tile_sets.json"


@dataclass(frozen=True)
class TileSet:
    name: str
    red_fives: bool = True
    note: str = ""
    coloured_backs: bool = True

    @property
    def read_options(self) -> dict[str, bool]:
        """``TilePipeline.read``'s options for photos of this set: every fact that changes a read,
        so a reader passing them all never misses one."""
        return {"red_fives": self.red_fives, "coloured_backs": self.coloured_backs}


def add_white_backs_option(parser: argparse.ArgumentParser) -> None:
    """``--white-backs`` for every command that reads photos (detect, score, serve)."""
    parser.add_argument(
        "--white-backs",
        dest="coloured_backs",
        action="store_false",
        help="the tile set's backs are white like its faces: a plain white tile is left as the "
        "classifier reads it (back or blank 白) instead of being told by its colour",
    )


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
    """``{"name": {"red_fives": false, "coloured_backs": true, "note": "..."}}``; a missing file
    is no facts at all."""
    if not path.is_file():
        return {}
    try:
        data = json.loads(path.read_text("utf-8"))
        return {
            name: TileSet(
                name,
                bool(facts.get("red_fives", True)),
                str(facts.get("note", "")),
                bool(facts.get("coloured_backs", True)),
            )
            for name, facts in data.items()
        }
    except (ValueError, AttributeError, TypeError) as error:
        raise TilescoreError(f"{path}: not a tile-set file ({error})") from None
