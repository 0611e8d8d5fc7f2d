"""Labelled photos: one detect-shaped JSON per photo (datasets/real/labels/NAME.json).

A label tile has ``code`` (None when face down), ``box`` (x1, y1, x2, y2 in photo pixels),
``face_down`` and ``rotated``. Tiles labelled ``"other"`` (a tile from no set we read, a blurred
one) are kept apart: a prediction there is neither right nor wrong. Every reader of label files
(the labelling page and its exports, ``train --from``, ``evaluate``) reads them through
``read_label_file``: a malformed one is a one-line ``LabelError`` naming it.
"""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

from scoring import strict_json
from scoring.errors import TilescoreError, shown
from scoring.tiles import tile_from_code
from vision.json_values import finite_number

IGNORED_CODE = "other"
# "proposed": the models' reading or a correction nobody checked yet; "done": checked.
STATUSES = ("proposed", "done")
# What counts as a photo in a folder, everywhere (the labelling page, the folder camera, `score`,
# `train --from` and `--adapt`): the formats vision/images.py decodes.
PHOTO_SUFFIXES = (".jpg", ".jpeg", ".png", ".webp", ".bmp", ".tif", ".tiff")
# No camera makes a photo larger than this a side: a bigger size or box is a typo or junk
# (1e308 would pass every other check, then overflow the exports' arithmetic).
MAX_SIDE = 100_000
# How far past the photo's edge a box may reach, as a share of that side: a tile cut by the edge
# of the photo, a model's box a few pixels over it. A box wholly off the photo is refused.
EDGE_MARGIN = 0.05


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
    """One label file, checked (see ``read_label_file``), as the metrics read it: a tile with
    no code must be face down, and ``"other"`` tiles are set apart."""
    data = read_label_file(path)
    tiles: list[LabelledTile] = []
    ignored: list[tuple[float, float, float, float]] = []
    for number, entry in enumerate(data["tiles"], 1):
        box = _box(entry["box"])
        code = entry.get("code")
        if code == IGNORED_CODE:
            ignored.append(box)
            continue
        face_down = entry.get("face_down", code is None)
        if code is not None:
            code = tile_from_code(code).code
        elif not face_down:
            raise LabelError(f"{path}: tile {number} has no code and is not face down")
        tiles.append(LabelledTile(code, box, face_down, entry.get("rotated", False)))
    return LabelledPhoto(
        label_path=path,
        image=data.get("image") or path.stem,
        width=int(data.get("width") or 0),
        height=int(data.get("height") or 0),
        tiles=tuple(tiles),
        ignored=tuple(ignored),
        tile_set=data.get("tile_set"),
    )


def read_label_file(path: Path) -> dict[str, Any]:
    """A label file's JSON with its shape checked, as every reader of labels gets it (the
    labelling page, its exports, ``train --from``, ``evaluate``): anything malformed is a
    one-line ``LabelError`` naming the file, never a crash further on or a wrong reading."""
    try:
        data = strict_json.loads(path.read_bytes(), str(path))
    except OSError as error:
        raise LabelError(f"{path}: cannot read it ({error.strerror})") from None
    except TilescoreError as error:  # not UTF-8, not JSON, NaN: said with the file's name
        raise LabelError(str(error)) from None
    try:
        check_label(data)
    except TilescoreError as error:
        raise LabelError(f"{path}: {error}") from None
    checked: dict[str, Any] = data
    return checked


def check_label(data: Any) -> None:
    """Raise a ``LabelError`` saying what is wrong with a label's JSON, if anything.

    Optional fields may be missing (hand-made labels have few); the ones present must be of
    their kind: a ``"yes"`` must not read as true, nor a NaN box be compared as a number."""
    if not isinstance(data, dict) or not isinstance(data.get("tiles"), list):
        raise LabelError("not a label file (a JSON object with a list of tiles)")
    for key in ("image", "tile_set", "notes"):
        if data.get(key) is not None and not isinstance(data[key], str):
            raise LabelError(f"{key} must be text, not {shown(data[key])}")
    for key in ("width", "height"):
        if key in data and not is_pixel_count(data[key]):
            raise LabelError(f"{key} must be a whole number of pixels, not {shown(data[key])}")
        if key in data and data[key] > MAX_SIDE:
            raise LabelError(f"{key} {shown(data[key])} is more than {MAX_SIDE} pixels")
    if data.get("status", STATUSES[0]) not in STATUSES:
        raise LabelError(f"status {shown(data['status'])} is not one of {', '.join(STATUSES)}")
    # 0 (what a label without a size is written with) is no size: the boxes go unchecked then.
    size = (data.get("width") or 0, data.get("height") or 0)
    for number, entry in enumerate(data["tiles"], 1):
        check_tile(entry, number, size if all(size) else None)


def check_tile(entry: Any, number: int, size: tuple[int, int] | None = None) -> None:
    """Raise a ``LabelError`` about tile ``number``, if anything is wrong with it: its box is
    checked against the photo's ``size`` (width, height) when the label gives one."""
    if not isinstance(entry, dict):
        raise LabelError(f"tile {number} is not an object")
    box = entry.get("box")
    if not (isinstance(box, list) and len(box) == 4 and all(map(is_finite_number, box))):
        raise LabelError(f"tile {number} has a bad box {shown(box)} (four finite numbers)")
    if box[2] <= box[0] or box[3] <= box[1]:
        raise LabelError(f"tile {number} has a bad box {shown(box)} (no area)")
    _check_on_photo(box, number, size)
    code = entry.get("code")
    if code is not None and not isinstance(code, str):
        raise LabelError(f"tile {number}: code must be text or null, not {shown(code)}")
    if code not in (None, IGNORED_CODE):
        try:
            tile_from_code(code)
        except TilescoreError as error:
            raise LabelError(f"{error} (tile {number})") from None
    for key in ("face_down", "rotated"):
        if key in entry and not isinstance(entry[key], bool):
            raise LabelError(f"tile {number}: {key} must be true or false, not {shown(entry[key])}")


def _check_on_photo(box: list[Any], number: int, size: tuple[int, int] | None) -> None:
    """A box on the photo, give or take ``EDGE_MARGIN``; without the photo's size, one no
    larger than the largest photo."""
    width, height = size or (MAX_SIDE, MAX_SIDE)
    x1, y1, x2, y2 = box
    reach_x, reach_y = EDGE_MARGIN * width, EDGE_MARGIN * height
    inside = (
        -reach_x <= x1
        and x2 <= width + reach_x
        and -reach_y <= y1
        and y2 <= height + reach_y
        and x1 < width
        and x2 > 0
        and y1 < height
        and y2 > 0
    )
    if not inside:
        photo = f"the {width}x{height} photo" if size else f"any photo ({MAX_SIDE} pixels a side)"
        raise LabelError(f"tile {number} has a box {shown(box)} off {photo}")


def is_finite_number(value: Any) -> bool:
    return finite_number(value) is not None


def is_pixel_count(value: Any) -> bool:
    return is_finite_number(value) and value >= 0 and float(value).is_integer()


def _box(values: list[float]) -> tuple[float, float, float, float]:
    x1, y1, x2, y2 = (float(v) for v in values)
    return x1, y1, x2, y2


def load_labels(folder: Path) -> list[LabelledPhoto]:
    """Every ``*.json`` label in a folder, by name."""
    if not folder.is_dir():
        raise LabelError(f"{folder}: no such labels folder")
    paths = sorted(folder.glob("*.json"))
    if not paths:
        raise LabelError(f"{folder}: no label files (*.json)")
    labels = [load_label(path) for path in paths]
    # Two labels of one photo (one copied over another's name) judged that photo twice and
    # left the other out, and taught the other's boxes on its pixels.
    seen: dict[str, Path | None] = {}
    for label in labels:
        photo = Path(label.image).name
        if photo in seen:
            raise LabelError(
                f"{label.label_path}: labels the photo {photo!r}, as {seen[photo]} does: "
                "one label a photo"
            )
        seen[photo] = label.label_path
    return labels


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
