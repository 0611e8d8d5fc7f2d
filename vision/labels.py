"""Labelled photos: one detect-shaped JSON per photo (datasets/real/labels/NAME.json).

A label tile has ``code`` (None when face down), ``box`` (x1, y1, x2, y2 in photo pixels),
``face_down`` and ``rotated``. Tiles labelled ``"other"`` (a tile from no set we read, a blurred
one) are kept apart: a prediction there is neither right nor wrong.
"""

from __future__ import annotations

import json
from dataclasses import dataclass
from pathlib import Path

from scoring.errors import TilescoreError
from scoring.tiles import tile_from_code

IGNORED_CODE = "other"
# What counts as a photo in a folder, everywhere (the labelling page, the folder camera, `score`,
# `train --from` and `--adapt`): the formats vision/images.py decodes.
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")


class LabelError(TilescoreError):
    """A label file that cannot be read or names something impossible."""


@dataclass(frozen=True)
class LabelledTile:
    code: str | None
    box: tuple[float, float, float, float]
    face_down: bool
    rotated: bool

    @property
    def name(self) -> str:
        """The class this tile counts as in the metrics: its code, or ``back`` face down."""
        return "back" if self.face_down else str(self.code)


@dataclass(frozen=True)
class LabelledPhoto:
    label_path: Path
    image: str
    width: int
    height: int
    tiles: tuple[LabelledTile, ...]
    ignored: tuple[tuple[float, float, float, float], ...]
    tile_set: str | None


def load_label(path: Path) -> LabelledPhoto:
    """One label file, checked: codes are real tile codes, boxes have four numbers."""
    try:
        data = json.loads(path.read_text("utf-8"))
        tiles: list[LabelledTile] = []
        ignored: list[tuple[float, float, float, float]] = []
        for number, entry in enumerate(data["tiles"], 1):
            box = tuple(float(v) for v in entry["box"])
            if len(box) != 4 or box[2] <= box[0] or box[3] <= box[1]:
                raise LabelError(f"tile {number} has a bad box {entry['box']}")
            code = entry.get("code")
            if code == IGNORED_CODE:
                ignored.append(box)
                continue
            face_down = bool(entry.get("face_down", code is None))
            if code is not None:
                code = tile_from_code(str(code)).code
            elif not face_down:
                raise LabelError(f"tile {number} has no code and is not face down")
            tiles.append(LabelledTile(code, box, face_down, bool(entry.get("rotated"))))
        return LabelledPhoto(
            label_path=path,
            image=str(data.get("image") or path.stem),
            width=int(data.get("width", 0)),
            height=int(data.get("height", 0)),
            tiles=tuple(tiles),
            ignored=tuple(ignored),
            tile_set=data.get("tile_set"),
        )
    except json.JSONDecodeError as error:
        raise LabelError(f"{path}: not valid JSON ({error.msg}, line {error.lineno})") from None
    except (KeyError, TypeError, ValueError) as error:
        if isinstance(error, TilescoreError):
            raise LabelError(f"{path}: {error}") from None
        raise LabelError(f"{path}: not a label file ({type(error).__name__}: {error})") from None


def load_labels(folder: Path) -> list[LabelledPhoto]:
    """Every ``*.json`` label in a folder, by name."""
    if not folder.is_dir():
        raise LabelError(f"{folder}: no such labels folder")
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise LabelError(f"{folder}: no label files (*.json)")
    return [load_label(path) for path in paths]


def find_photo(label: LabelledPhoto, photos: Path) -> Path:
    """The photo a label describes: its ``image`` name in ``photos``, else the same stem."""
    named = photos / Path(label.image).name
    if named.is_file():
        return named
    for stem in (Path(label.image).stem, label.label_path.stem):
        for suffix in PHOTO_SUFFIXES:
            for candidate in (photos / f"{stem}{suffix}", photos / f"{stem}{suffix.upper()}"):
                if candidate.is_file():
                    return candidate
    raise LabelError(f"{label.label_path}: its photo {label.image!r} is not in {photos}")
