"""Scale and direction of a layout, measured from the tiles themselves, never from the image axes.

Boxes are axis-aligned, so a photo turned by 30 degrees gives fat, overlapping boxes; the distance
between neighbouring tile centres does not change with the turn, so it is the unit of length here
(the "pitch": one tile width when tiles stand side by side).
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass, replace

import numpy as np

from vision.layout.tiles import LayoutTile

TILE_ASPECT = 4 / 3
"""Long side over short side of a mahjong tile; a sideways tile takes this much more row length."""


@dataclass(frozen=True)
class Frame:
    """The layout's own axes: ``along`` runs the way the hand reads, ``front`` toward the player."""

    pitch: float
    along: tuple[float, float]
    median_size: float
    aspect: float = TILE_ASPECT

    @property
    def front(self) -> tuple[float, float]:
        # Image axes are x right, y down: "front" (toward the player) is along turned +90 degrees.
        return (-self.along[1], self.along[0])

    def flipped(self) -> Frame:
        return Frame(self.pitch, (-self.along[0], -self.along[1]), self.median_size, self.aspect)

    def project(self, tile: LayoutTile) -> tuple[float, float]:
        """(along, front) coordinates of a tile's centre."""
        x, y = tile.centre
        fx, fy = self.front
        return (x * self.along[0] + y * self.along[1], x * fx + y * fy)

    def scale(self, tile: LayoutTile) -> float:
        """Pitch near this tile: a tile far from the camera is smaller, and so are the gaps."""
        return self.pitch * tile.size / self.median_size

    def extent(self, tile: LayoutTile) -> float:
        """Length of row a tile takes: a sideways tile lies with its long side along the row."""
        return self.scale(tile) * (self.aspect if tile.rotated else 1.0)


def centres(tiles: Sequence[LayoutTile]) -> np.ndarray:
    return np.array([t.centre for t in tiles], dtype=float).reshape(-1, 2)


def nearest_neighbours(tiles: Sequence[LayoutTile]) -> tuple[np.ndarray, np.ndarray]:
    """Index of and distance to each tile's nearest other tile (normalised by local size)."""
    points = centres(tiles)
    sizes = np.array([t.size for t in tiles])
    diff = points[:, None, :] - points[None, :, :]
    dist = np.hypot(diff[..., 0], diff[..., 1])
    # Normalise by the pair's mean size so near and far parts of a slanted photo count alike.
    dist = dist / ((sizes[:, None] + sizes[None, :]) / 2 / np.median(sizes))
    np.fill_diagonal(dist, np.inf)
    nearest = dist.argmin(axis=1)
    return nearest, dist[np.arange(len(tiles)), nearest]


def dominant_direction(tiles: Sequence[LayoutTile], pitch: float) -> tuple[float, float]:
    """The axis most neighbour pairs lie along (a sign-free mean of doubled angles).

    Tiles touch along their short side inside a row and rows lie a tile length apart, so the
    nearest neighbour of most tiles is the next tile in its row. The sign is fixed later.
    """
    points = centres(tiles)
    nearest, dist = nearest_neighbours(tiles)
    close = dist <= 1.6 * pitch
    if not close.any():
        close = np.ones(len(tiles), dtype=bool)
    vectors = points[nearest[close]] - points[close]
    angles = np.arctan2(vectors[:, 1], vectors[:, 0])
    c, s = np.cos(2 * angles).sum(), np.sin(2 * angles).sum()
    if abs(c) < 1e-9 and abs(s) < 1e-9:
        return (1.0, 0.0)
    theta = math.atan2(s, c) / 2
    return canonical((math.cos(theta), math.sin(theta)))


def canonical(direction: tuple[float, float]) -> tuple[float, float]:
    """The sign a photo taken from the player's seat would give: rightward, or downward if upright.

    Used only when the layout itself does not say which way it reads.
    """
    dx, dy = direction
    if dx < -0.2 or (abs(dx) <= 0.2 and dy < 0):
        return (-dx, -dy)
    return (dx, dy)


def measure(tiles: Sequence[LayoutTile]) -> Frame:
    """Pitch, size and reading axis of a set of tiles (at least one)."""
    sizes = np.array([t.size for t in tiles])
    median_size = float(np.median(sizes))
    pieces = sum(t.is_piece for t in tiles) > len(tiles) / 2
    aspect = 1.0 if pieces else TILE_ASPECT  # xiangqi pieces are round
    if len(tiles) < 2:
        # One tile: its short side, which for a face-on upright tile is its width.
        x1, y1, x2, y2 = tiles[0].box
        return Frame(min(x2 - x1, y2 - y1) or 1.0, (1.0, 0.0), median_size, aspect)
    _, dist = nearest_neighbours(tiles)
    pitch = float(np.median(dist)) or median_size
    return Frame(pitch, dominant_direction(tiles, pitch), median_size, aspect)


def runs_down(frame: Frame) -> bool:
    """Whether the layout's rows run more down the photo than across it (a photo turned a
    quarter: a camera beside the table, a phone held upright)."""
    return abs(frame.along[1]) > abs(frame.along[0])


def against_the_row(tiles: Sequence[LayoutTile]) -> list[LayoutTile]:
    """The tiles of a layout whose rows run down the photo, with ``rotated`` said against the
    row: the detector learnt its upright and sideways tiles from rows laid across the image,
    so there it calls the hand's upright tiles sideways and the claimed ones upright (the
    whole row was read as claimed tiles, each a third longer, and the gaps between the row,
    its melds and the winning tile as none). A round xiangqi piece has no way up: its flag
    stays."""
    return [t if t.is_piece else replace(t, rotated=not t.rotated) for t in tiles]
