"""What the runtime says about a photo: one frozen ``Detection`` per tile, and the timings."""

from __future__ import annotations

from dataclasses import dataclass, field, replace
from typing import Any

LOW_CONFIDENCE = 0.5
"""Below this combined confidence a read is kept but flagged, for a person to confirm."""


@dataclass(frozen=True)
class Detection:
    """One tile found in a photo; ``box`` is (x1, y1, x2, y2) in original-image pixels.

    ``confidence`` is the product of both stages; a face-down tile has no code and a classifier
    confidence of 1 (nothing was read).
    """

    code: str | None
    box: tuple[float, float, float, float]
    confidence: float
    detector_confidence: float
    classifier_confidence: float
    face_down: bool
    rotated: bool
    low_confidence: bool
    alternatives: tuple[tuple[str, float], ...] = ()
    """The next best readings with their probabilities, for the display to ask "8s or 9s?"."""
    placed: bool = False
    """Read where the layout said a tile the detector missed lies (no detector box found it:
    ``vision.layout.missed_places``); the layout asks about it whenever it reads it."""

    def to_json(self) -> dict[str, Any]:
        """The detect-JSON form of this tile (docs/contracts.md)."""
        out = {
            "code": self.code,
            "box": [round(v, 1) for v in self.box],
            "confidence": round(self.confidence, 4),
            "face_down": self.face_down,
            "rotated": self.rotated,
            "low_confidence": self.low_confidence,
            "alternatives": [[code, round(p, 3)] for code, p in self.alternatives],
        }
        if self.placed:
            out["placed"] = True
        return out


@dataclass(frozen=True)
class PhotoReading:
    """Every tile read from one photo, in reading order, and milliseconds per stage."""

    tiles: tuple[Detection, ...]
    timing_ms: dict[str, float] = field(default_factory=dict)

    def scaled(self, across: float, down: float) -> PhotoReading:
        """The same reading with every box's x times ``across`` and y times ``down``: from the
        pixels a photo was decoded at to the photo's own (``vision.images.Photo.scale``)."""
        if across == 1.0 and down == 1.0:
            return self
        tiles = tuple(
            replace(
                tile,
                box=(
                    tile.box[0] * across,
                    tile.box[1] * down,
                    tile.box[2] * across,
                    tile.box[3] * down,
                ),
            )
            for tile in self.tiles
        )
        return PhotoReading(tiles, dict(self.timing_ms))


def reading_order(tiles: tuple[Detection, ...]) -> tuple[Detection, ...]:
    """Rows top to bottom (a row is one tile height), left to right within a row.

    Only for stable, readable output; turning tiles into a hand is the layout's job.
    """
    if not tiles:
        return tiles
    heights = sorted(t.box[3] - t.box[1] for t in tiles)
    row = max(heights[len(heights) // 2], 1.0)
    return tuple(sorted(tiles, key=lambda t: (round((t.box[1] + t.box[3]) / 2 / row), t.box[0])))
