"""The one tile type the layout code works on, made from runtime detections or detect JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.errors import TilescoreError
from scoring.tiles import Tile, tile_from_code

LOW_CONFIDENCE = 0.5
"""Below this a tile's reading is reported as a problem (the runtime uses the same cut)."""


class TileLike(Protocol):
    """What reconstruction needs from a detection; ``vision.pipeline.Detection`` fits.

    Read-only properties, so frozen dataclasses (``Detection``, ``LayoutTile``) fit too."""

    @property
    def code(self) -> str | None: ...
    @property
    def box(self) -> tuple[float, float, float, float]: ...
    @property
    def confidence(self) -> float: ...
    @property
    def face_down(self) -> bool: ...
    @property
    def rotated(self) -> bool: ...


@dataclass(frozen=True)
class LayoutTile:
    """One detection with its place in the input list and the geometry the layout code uses."""

    index: int
    code: str | None
    box: tuple[float, float, float, float]
    confidence: float = 1.0
    face_down: bool = False
    rotated: bool = False
    low_confidence: bool = False
    alternatives: tuple[str, ...] = ()

    @property
    def centre(self) -> tuple[float, float]:
        x1, y1, x2, y2 = self.box
        return ((x1 + x2) / 2, (y1 + y2) / 2)

    @property
    def size(self) -> float:
        """Square root of the box area: a scale that survives any rotation of the photo."""
        x1, y1, x2, y2 = self.box
        # float(): typeshed types float ** float as Any (a negative base gives a complex).
        return float(max(1e-6, abs(x2 - x1) * abs(y2 - y1)) ** 0.5)

    @property
    def tile(self) -> Tile | None:
        if self.code is None or self.face_down:
            return None
        try:
            return tile_from_code(self.code)
        except TilescoreError:
            return None

    @property
    def is_flower(self) -> bool:
        tile = self.tile
        return tile is not None and tile.is_flower

    @property
    def is_piece(self) -> bool:
        tile = self.tile
        return tile is not None and tile.is_piece

    @property
    def label(self) -> str:
        return "back" if self.face_down else (self.code or "?")


def _field(item: Any, name: str, default: Any) -> Any:
    if isinstance(item, Mapping):
        return item.get(name, default)
    return getattr(item, name, default)


def _alternatives(raw: Any) -> tuple[str, ...]:
    # The runtime writes [["9s", 0.31], ...]; plain codes are accepted too.
    out = []
    for entry in raw or ():
        code = entry[0] if isinstance(entry, list | tuple) else entry
        if isinstance(code, str):
            out.append(code)
    return tuple(out)


def from_detections(items: Iterable[TileLike | Mapping[str, Any]]) -> list[LayoutTile]:
    """LayoutTiles from runtime ``Detection`` objects or the dicts of ``tilescore detect --json``.

    A missing ``low_confidence`` is worked out from the confidence, so labels of real photos
    (which carry no confidence) read as certain.

    >>> [t.code for t in from_detections([{"code": "5m", "box": [0, 0, 30, 40]}])]
    ['5m']
    """
    tiles = []
    for index, item in enumerate(items):
        box = tuple(float(v) for v in _field(item, "box", (0, 0, 0, 0)))
        if len(box) != 4:
            box = (0.0, 0.0, 0.0, 0.0)
        confidence = float(_field(item, "confidence", 1.0) or 0.0)
        low = _field(item, "low_confidence", None)
        face_down = bool(_field(item, "face_down", False))
        code = _field(item, "code", None)
        tiles.append(
            LayoutTile(
                index=index,
                code=code if isinstance(code, str) else None,
                box=(
                    min(box[0], box[2]),
                    min(box[1], box[3]),
                    max(box[0], box[2]),
                    max(box[1], box[3]),
                ),
                confidence=confidence,
                face_down=face_down or code is None,
                rotated=bool(_field(item, "rotated", False)),
                low_confidence=bool(low) if low is not None else confidence < LOW_CONFIDENCE,
                alternatives=_alternatives(_field(item, "alternatives", ())),
            )
        )
    return tiles
