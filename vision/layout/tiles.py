"""The one tile type the layout code works on, made from runtime detections or detect JSON."""

from __future__ import annotations

from collections.abc import Iterable, Mapping
from dataclasses import dataclass
from typing import Any, Protocol

from scoring.errors import TilescoreError, shown
from scoring.tiles import Tile, is_tile_code, tile_from_code
from vision.json_values import finite_number
from vision.labels import IGNORED_CODE, MAX_SIDE

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
    placed: bool = False
    """Read where the layout said a missed tile lies, not found by the detector
    (``Detection.placed``)."""

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


class DetectionError(TilescoreError):
    """A detection of the wrong shape (a box of text, a confidence of "high"), naming the tile's
    place in the list and the field."""


def _field(item: Any, name: str, default: Any) -> Any:
    if isinstance(item, Mapping):
        return item.get(name, default)
    return getattr(item, name, default)


def _bad(index: int, name: str, wanted: str, value: Any) -> DetectionError:
    return DetectionError(f"tiles[{index}].{name} must be {wanted}, got {shown(value)}")


def _box(index: int, raw: Any) -> tuple[float, float, float, float]:
    # A box may be left out (a label being drawn); given, it is the four corners, as numbers.
    if raw is None:
        return (0.0, 0.0, 0.0, 0.0)
    given = raw if isinstance(raw, list | tuple) and len(raw) == 4 else ()
    corners = [n for n in map(finite_number, given) if n is not None]
    if len(corners) != 4:
        raise _bad(index, "box", "four numbers [x1, y1, x2, y2]", raw)
    if any(abs(n) > MAX_SIDE for n in corners):
        # 1e300 passes as a number, then overflows the arithmetic of distances and areas.
        raise _bad(index, "box", f"within {MAX_SIDE} pixels of a photo's corner", raw)
    x1, y1, x2, y2 = corners
    if x2 <= x1 or y2 <= y1:
        # Refused, not left out with a warning: detect writes no such box, so one is a file
        # edited by hand or another tool's, and the layout cannot guess the tile it meant. A
        # box of no area counted as a tile misplaces its row (123m was read as an open chi,
        # said nowhere); one left out makes a hand short of a tile, scored as if photographed
        # so. Corners the other way round were once swapped into place, but they are most
        # often [x, y, width, height] (COCO's boxes), which swapping turned into another box.
        raise _bad(
            index, "box", "[x1, y1, x2, y2] with x1 < x2 and y1 < y2 (a box of some area)", raw
        )
    return (x1, y1, x2, y2)


def _confidence(index: int, raw: Any) -> float:
    if raw is None:  # null reads as unsure, as it always has
        return 0.0
    number = finite_number(raw)
    if number is None or not 0.0 <= number <= 1.0:
        raise _bad(index, "confidence", "a number from 0 to 1", raw)
    return number


def _flag(index: int, item: Any, name: str) -> bool | None:
    value = _field(item, name, None)
    if value is None:
        return None
    # JSON says true or false; a runtime Detection's flag may be a numpy boolean.
    if isinstance(item, Mapping) and not isinstance(value, bool):
        raise _bad(index, name, "true or false", value)
    return bool(value)


def _alternatives(index: int, raw: Any) -> tuple[str, ...]:
    # The runtime writes [["9s", 0.31], ...]; plain codes are accepted too. Each code is one the
    # display may ask about ("9p or 9s?"), so it must name a tile, a back or "no tile".
    if raw is None:
        return ()
    entries = raw if isinstance(raw, list | tuple) else [None]
    wrong = next((e for e in entries if not _is_alternative(e)), ...)
    if wrong is not ...:
        code = wrong[0] if isinstance(wrong, list | tuple) and wrong else wrong
        if isinstance(code, str) and not _names_a_read(code):
            raise _unknown_code(index, "alternatives", code)
        # The entry named: the whole list said of a list of lists read as if nothing fit.
        wanted = 'a list of codes or ["code", probability] pairs (a probability from 0 to 1)'
        raise _bad(index, "alternatives", wanted, raw if wrong is None else wrong)
    return tuple(str(e if isinstance(e, str) else e[0]) for e in entries if e is not None)


def _is_alternative(entry: Any) -> bool:
    if isinstance(entry, list | tuple):
        if len(entry) != 2:
            return False
        probability = finite_number(entry[1])
        if probability is None or not 0.0 <= probability <= 1.0:
            return False
        entry = entry[0]
    return isinstance(entry, str) and _names_a_read(entry)


def _names_a_read(code: str) -> bool:
    """A tile code, or one of the classifier's names for what is no face ("back")."""
    return code in ("back", "not_a_tile") or is_tile_code(code)


def _unknown_code(index: int, name: str, code: str) -> DetectionError:
    return DetectionError(f"tiles[{index}].{name} names {code!r}: no tile code")


def from_detections(items: Iterable[TileLike | Mapping[str, Any]]) -> list[LayoutTile]:
    """LayoutTiles from runtime ``Detection`` objects or the dicts of ``tilescore detect --json``.

    A missing ``low_confidence`` is worked out from the confidence, so labels of real photos
    (which carry no confidence) read as certain. A field of the wrong type, or a code that
    names no tile (but ``"other"``, a box said to hold none), is a one-line ``DetectionError``
    naming the tile and the field.

    >>> [t.code for t in from_detections([{"code": "5m", "box": [0, 0, 30, 40]}])]
    ['5m']
    """
    tiles = []
    for index, item in enumerate(items):
        if not isinstance(item, Mapping) and not hasattr(item, "box"):
            raise DetectionError(f"tiles[{index}] must be an object, got {shown(item)}")
        code = _field(item, "code", None)
        if code is not None and not isinstance(code, str):
            raise _bad(index, "code", "a tile code (text) or null for a back", code)
        if code is not None and code != IGNORED_CODE and not is_tile_code(code):
            # Refused as an unknown runner-up is: left out with a word, a typo'd tile made the
            # hand a tile short and was scored so, with exit 0 (contracts: a known tile code).
            raise _unknown_code(index, "code", code)
        confidence = _confidence(index, _field(item, "confidence", 1.0))
        low = _flag(index, item, "low_confidence")
        tiles.append(
            LayoutTile(
                index=index,
                code=code,
                box=_box(index, _field(item, "box", None)),
                confidence=confidence,
                face_down=bool(_flag(index, item, "face_down")) or code is None,
                rotated=bool(_flag(index, item, "rotated")),
                low_confidence=low if low is not None else confidence < LOW_CONFIDENCE,
                alternatives=_alternatives(index, _field(item, "alternatives", None)),
                placed=bool(_flag(index, item, "placed")),
            )
        )
    return tiles
