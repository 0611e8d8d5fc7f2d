"""From tiles on the table to a hand: rows, groups, melds, the winning tile, flowers.

Pure geometry on detections (anything with ``code``, ``box``, ``face_down``, ``rotated``,
``confidence``): no model needed. Lenient by design: it always returns its best reading and a list
of problems a person can fix, never an exception for a strange layout.

How players lay a hand out (docs/layout.md): concealed tiles in one row; the winning tile at the
right end, pushed a little apart; melds to the right or in a row in front, a gap between each;
a concealed kong with its outer tiles face down; flowers anywhere apart.
"""

from __future__ import annotations

import itertools
import math
from collections.abc import Iterable, Mapping
from dataclasses import dataclass, field
from typing import Any

import numpy as np

HAND_SIZES = {"taiwan": 17, "riichi": 14, "mingjiang": 14, "xiangqi": 5}
GROUP_GAP = 0.35  # a gap wider than this share of a tile's width starts a new group
ROW_GAP = 0.75  # centres further apart than this share of a tile's height are different rows
LOW_CONFIDENCE = 0.5


@dataclass(frozen=True)
class Tile:
    index: int
    code: str | None
    box: tuple[float, float, float, float]
    face_down: bool
    rotated: bool
    confidence: float
    alternatives: tuple[tuple[str, float], ...] = ()

    @property
    def centre(self) -> np.ndarray:
        x1, y1, x2, y2 = self.box
        return np.array([(x1 + x2) / 2, (y1 + y2) / 2])

    @property
    def is_flower(self) -> bool:
        return bool(self.code) and self.code.endswith("f")  # type: ignore[union-attr]

    @property
    def is_piece(self) -> bool:
        return bool(self.code) and self.code[-1] in "br"  # type: ignore[index]


@dataclass
class Reading:
    hand: list[str] = field(default_factory=list)
    win_tile: str | None = None
    melds: list[dict[str, str]] = field(default_factory=list)
    flowers: list[str] = field(default_factory=list)
    problems: list[str] = field(default_factory=list)
    groups: list[dict[str, Any]] = field(default_factory=list)

    def to_json(self) -> dict[str, Any]:
        return {
            "hand": "".join(self.hand),
            "win_tile": self.win_tile,
            "melds": self.melds,
            "flowers": "".join(self.flowers),
            "problems": self.problems,
        }


def tiles_from_json(items: Iterable[Mapping[str, Any]]) -> list[Tile]:
    tiles = []
    for i, item in enumerate(items):
        box = tuple(float(v) for v in item["box"])
        tiles.append(
            Tile(
                i,
                item.get("code"),
                box,  # type: ignore[arg-type]
                bool(item.get("face_down")),
                bool(item.get("rotated")),
                float(item.get("confidence", 1.0)),
                tuple(tuple(a) for a in item.get("alternatives", ())),  # type: ignore[misc]
            )
        )
    return tiles


def _tile_width(tiles: list[Tile]) -> float:
    """The short side of a typical tile, robust to a few odd boxes."""
    sides = [min(t.box[2] - t.box[0], t.box[3] - t.box[1]) for t in tiles]
    return float(np.median(sides)) if sides else 1.0


def _row_direction(tiles: list[Tile], width: float) -> np.ndarray:
    """The direction tiles line up in: the median direction to each tile's nearest neighbour."""
    if len(tiles) < 2:
        return np.array([1.0, 0.0])
    centres = np.array([t.centre for t in tiles])
    angles = []
    for i, c in enumerate(centres):
        d = np.linalg.norm(centres - c, axis=1)
        d[i] = np.inf
        j = int(d.argmin())
        if d[j] < 2.5 * width:
            v = centres[j] - c
            angles.append(math.atan2(v[1], v[0]) % math.pi)
    if not angles:
        return np.array([1.0, 0.0])
    # Average doubled angles so that 1° and 179° agree (a row has no front or back yet).
    doubled = np.array(angles) * 2
    mean = math.atan2(np.sin(doubled).mean(), np.cos(doubled).mean()) / 2
    direction = np.array([math.cos(mean), math.sin(mean)])
    # Read left to right in the photo (or top to bottom for a vertical row).
    if direction[0] < -1e-6 or (abs(direction[0]) < 1e-6 and direction[1] < 0):
        direction = -direction
    return direction


def _rows(tiles: list[Tile], direction: np.ndarray, height: float) -> list[list[Tile]]:
    """Chain tiles into rows: a tile joins the row whose last tile is close along the row and
    barely off it across (so a gently bending row stays one row)."""
    normal = np.array([-direction[1], direction[0]])
    ordered = sorted(tiles, key=lambda t: float(t.centre @ direction))
    rows: list[list[Tile]] = []
    for tile in ordered:
        best, best_cost = None, math.inf
        for row in rows:
            last = row[-1]
            delta = tile.centre - last.centre
            across = abs(float(delta @ normal))
            along = float(delta @ direction)
            if across < ROW_GAP * height and along < 4 * height:
                cost = across + 0.1 * along
                if cost < best_cost:
                    best, best_cost = row, cost
        if best is None:
            rows.append([tile])
        else:
            best.append(tile)
    return rows


def _extent(tile: Tile, direction: np.ndarray) -> tuple[float, float]:
    x1, y1, x2, y2 = tile.box
    corners = np.array([[x1, y1], [x2, y1], [x2, y2], [x1, y2]]) @ direction
    return float(corners.min()), float(corners.max())


def _groups(row: list[Tile], direction: np.ndarray, width: float) -> list[list[Tile]]:
    groups: list[list[Tile]] = [[row[0]]]
    for previous, tile in itertools.pairwise(row):
        gap = _extent(tile, direction)[0] - _extent(previous, direction)[1]
        if gap > GROUP_GAP * width:
            groups.append([tile])
        else:
            groups[-1].append(tile)
    return groups


def _meld(group: list[Tile], problems: list[str]) -> dict[str, str] | None:
    codes = [t.code for t in group]
    down = [t.face_down for t in group]
    if len(group) == 4 and down[0] and down[3] and not down[1] and not down[2]:
        if codes[1] != codes[2]:
            problems.append(f"concealed kong shows {codes[1]} and {codes[2]}: which is it?")
        return {"type": "concealed_kong", "tiles": (codes[1] or "") * 4}
    if any(down):
        problems.append(f"a group of {len(group)} tiles with face-down tiles is not a kong")
        return None
    if None in codes:
        return None
    plain = [c.replace("0", "5") for c in codes]  # type: ignore[union-attr]
    rotated = sum(t.rotated for t in group)
    if len(group) == 4 and len(set(plain)) == 1:
        return {"type": "added_kong" if rotated >= 2 else "kong", "tiles": "".join(codes)}  # type: ignore[arg-type]
    if len(group) == 3 and len(set(plain)) == 1:
        return {"type": "pon", "tiles": "".join(codes)}  # type: ignore[arg-type]
    if len(group) == 3 and len({c[-1] for c in plain}) == 1 and plain[0][-1] in "mps":
        numbers = sorted(int(c[0]) for c in plain)
        if numbers == list(range(numbers[0], numbers[0] + 3)):
            return {"type": "chi", "tiles": "".join(codes)}  # type: ignore[arg-type]
    problems.append(f"group {' '.join(c or '?' for c in codes)} is not a meld")
    return None


def _overlaps(tiles: list[Tile]) -> list[tuple[Tile, Tile]]:
    found = []
    for i, a in enumerate(tiles):
        for b in tiles[i + 1 :]:
            x1, y1 = max(a.box[0], b.box[0]), max(a.box[1], b.box[1])
            x2, y2 = min(a.box[2], b.box[2]), min(a.box[3], b.box[3])
            if x2 <= x1 or y2 <= y1:
                continue
            inter = (x2 - x1) * (y2 - y1)
            smaller = min(
                (a.box[2] - a.box[0]) * (a.box[3] - a.box[1]),
                (b.box[2] - b.box[0]) * (b.box[3] - b.box[1]),
            )
            if inter > 0.3 * smaller:
                found.append((a, b))
    return found


def reconstruct(tiles: list[Tile], variant: str = "taiwan") -> Reading:
    reading = Reading()
    if not tiles:
        reading.problems.append("no tiles found in the photo")
        return reading
    for tile in tiles:
        if tile.confidence < LOW_CONFIDENCE and not tile.face_down:
            others = " or ".join(code for code, _ in tile.alternatives[:1])
            question = f"{tile.code} or {others}?" if others else f"{tile.code}?"
            reading.problems.append(f"low confidence: {question}")
    overlapping = _overlaps(tiles)
    for a, b in overlapping:
        reading.problems.append(f"two tiles overlap: {a.code or 'back'} and {b.code or 'back'}")
    reading.flowers = [t.code for t in tiles if t.is_flower]  # type: ignore[misc]
    table = [t for t in tiles if not t.is_flower]
    if not table:
        reading.problems.append("only flowers found")
        return reading
    width = _tile_width(table)
    height = width * 1.35
    direction = _row_direction(table, width)
    rows = _rows(table, direction, height)
    groups_by_row = [_groups(row, direction, width) for row in rows]
    # The concealed row holds the largest group; its last group is the winning tile when single.
    hand_row = max(range(len(rows)), key=lambda i: max(len(g) for g in groups_by_row[i]))
    hand_groups = groups_by_row[hand_row]
    main_index = max(range(len(hand_groups)), key=lambda i: len(hand_groups[i]))
    concealed = list(hand_groups[main_index])
    after = hand_groups[main_index + 1 :]
    before = hand_groups[:main_index]
    win: Tile | None = None
    if after and len(after[0]) == 1 and not after[0][0].face_down:
        win = after[0][0]
        after = after[1:]
    elif before and len(before[-1]) == 1 and not before[-1][0].face_down and not after:
        # Seen from across the table the row reads backwards: the lone tile is on the left.
        win = before[-1][0]
        before = before[:-1]
    else:
        last = concealed[-1]
        win = last
        reading.problems.append("winning tile not set apart: last tile of the row used")
    meld_groups = before + after
    for i, groups in enumerate(groups_by_row):
        if i != hand_row:
            meld_groups += groups
    strays = 0
    for group in meld_groups:
        if len(group) < 3:
            if len(group) == 2 or variant == "xiangqi":
                reading.problems.append(f"meld of {len(group)} tiles")
            strays += len(group)
            continue
        meld = _meld(group, reading.problems)
        if meld is not None:
            reading.melds.append(meld)
    if strays:
        reading.problems.append(f"{strays} tile(s) apart from the hand were not used")
    codes = [t.code for t in concealed if t is not win]
    if any(c is None for c in codes):
        reading.problems.append("a face-down tile in the concealed row")
    reading.hand = [c for c in codes if c]
    if win is not None and win.code:
        reading.hand.append(win.code)
        reading.win_tile = win.code
    expected = HAND_SIZES.get(variant)
    found = len(reading.hand) + 3 * len(reading.melds)
    if expected and found != expected:
        reading.problems.append(f"{expected} tiles expected, {found} found")
    return reading


def reconstruct_json(photo: Mapping[str, Any], variant: str = "taiwan") -> dict[str, Any]:
    """``tilescore detect --json`` output for one photo in, score-JSON hand notation out."""
    return reconstruct(tiles_from_json(photo.get("tiles", [])), variant).to_json()
