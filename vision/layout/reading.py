"""The result of reconstruction, in the notation of ``tilescore score --json`` input."""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import dataclass
from typing import Any

from scoring.errors import TilescoreError
from scoring.notation import format_tiles
from scoring.tiles import tile_from_code
from vision.layout.problems import Problem

Box = tuple[float, float, float, float]
"""(x1, y1, x2, y2) in the detections' pixels."""


def compact(codes: Sequence[str]) -> str:
    """Codes in compact notation (``"123m55z"``); anything unparsable is left out."""
    tiles = []
    for code in codes:
        try:
            tiles.append(tile_from_code(code))
        except TilescoreError:
            continue
    return format_tiles(tiles)


@dataclass(frozen=True)
class MeldReading:
    type: str
    tiles: tuple[str, ...]
    claimed_from: str | None = None

    def to_json(self) -> dict[str, Any]:
        out: dict[str, Any] = {"type": self.type, "tiles": compact(self.tiles)}
        if self.claimed_from is not None:
            out["from"] = self.claimed_from
        return out

    def __str__(self) -> str:
        return f"{self.type}:{compact(self.tiles)}"


@dataclass(frozen=True)
class Group:
    """Tiles that belong together on the table, for the display: role is concealed, win, meld,
    flowers or ignored."""

    role: str
    tiles: tuple[int, ...]
    label: str


@dataclass(frozen=True)
class Unseen:
    """Where a tile the detector missed lay: the gap of one tile in the concealed row of a hand
    a tile short (``vision.layout.gap``), for the display to point at."""

    box: tuple[float, float, float, float]
    """Between the gap's two neighbours, in image pixels."""
    code: str | None
    """The tile taken for it (the one that makes the hand win); None where none was."""

    def to_json(self) -> dict[str, Any]:
        return {"box": [round(v, 1) for v in self.box], "code": self.code}


@dataclass(frozen=True)
class Reading:
    hand: tuple[str, ...]
    """Concealed tiles, the winning tile included."""
    win_tile: str | None
    melds: tuple[MeldReading, ...]
    flowers: tuple[str, ...]
    problems: tuple[Problem, ...]
    groups: tuple[Group, ...] = ()
    direction: tuple[float, float] = (1.0, 0.0)
    """The way the hand reads in the photo (unit vector in image pixels)."""
    would_win: tuple[str, ...] = ()
    """For a hand a tile short, the few tiles that would make it a winning hand (what the camera
    may have missed, for the display to offer); empty otherwise."""
    unseen: Unseen | None = None
    would_win_as: tuple[tuple[int, str], ...] = ()
    """For a hand of its size that does not win, the few reads of one tile (its index into the
    detections, the tile it would be) that would make it a winning hand; empty otherwise."""
    would_win_without: tuple[int, ...] = ()
    """For a hand a tile over its size, the few tiles (indices into the detections) without
    which it would be a winning hand: a box on something that holds no tile; empty otherwise."""
    taken: str | None = None
    """The tile taken for one the detector missed in the concealed row, where one was (the one
    tile that makes the hand win); not written by ``to_json``, whose problems say it."""
    would_win_with_meld: tuple[tuple[tuple[int, ...], MeldReading], ...] = ()
    """For a hand a meld short, where a missed tile broke a meld and several tiles would make
    it whole and the hand win (a chi missing an end): the found tiles (indices into the
    detections) and each meld they would be; empty otherwise."""
    places: tuple[Box, ...] = ()
    """For a hand short of tiles, where one the detector missed may lie, for the photo to be
    read there (``vision.layout.missed_places``); not written by ``to_json``."""
    looked: tuple[Any, ...] = ()
    """The tiles read in those places that this reading holds (as the ``look`` given to
    ``reconstruct`` gave them: ``vision.detection.Detection``): the detections' indices go on
    past the caller's own with them, in this order, so a caller keeping the detections adds
    them; not written by ``to_json``, whose problems say them."""

    def hand_json(self) -> dict[str, Any]:
        """Just the keys ``tilescore score --json`` accepts."""
        return {
            "hand": compact(self.hand),
            "win_tile": self.win_tile,
            "melds": [m.to_json() for m in self.melds],
            "flowers": compact(self.flowers),
        }

    def to_json(self) -> dict[str, Any]:
        out = {**self.hand_json(), "problems": [p.message for p in self.problems]}
        if self.unseen is not None:
            out["unseen"] = self.unseen.to_json()
        # What would make the hand win, for a display to offer one tap each.
        if self.would_win:
            out["would_win"] = list(self.would_win)
        if self.would_win_as:
            out["would_win_as"] = [{"tile": i, "code": code} for i, code in self.would_win_as]
        if self.would_win_without:
            out["would_win_without"] = list(self.would_win_without)
        if self.would_win_with_meld:
            out["would_win_with_meld"] = [
                {"tiles": list(found), "meld": meld.to_json()}
                for found, meld in self.would_win_with_meld
            ]
        return out
