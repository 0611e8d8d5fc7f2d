"""Labelled photos out to training sets and other tools, and back in.

- YOLO detection (images, labels, data.yaml) with the detector's five classes;
- classification crops per class, upright, cut from the full-resolution photo exactly as the
  runtime cuts them;
- Label Studio JSON (rectangle labels in percent), import and export.
The train/validation split is by photo and reproducible: a photo's split depends on its name and
the seed (``split_of``), except that of two or more photos at least one is validated on and one
trained on (``split_photos``).
"""

from __future__ import annotations

import hashlib
import json
import math
import re
import shutil
from collections import Counter
from collections.abc import Callable, Collection, Iterable
from dataclasses import dataclass
from pathlib import Path
from typing import Any, cast

from datasets.synth.build import CLASSIFIER_CLASSES, DETECTOR_CLASSES
from scoring.errors import TilescoreError, shown
from vision.annotate import image_written
from vision.crops import crop_upright
from vision.images import load_image, load_photo
from vision.json_values import finite_number
from vision.labels import EDGE_MARGIN, is_finite_number

CROP_SIZE = (64, 64)


def split_of(name: str, seed: int = 0, val_share: float = 0.2) -> str:
    return "val" if _draw(name, seed)[0] / 256 < val_share else "train"


def split_photos(names: Iterable[str], seed: int = 0, val_share: float = 0.2) -> dict[str, str]:
    """Each photo's split, ``split_of``'s, but never all on one side where there are two or more:
    a few photos could all land in train, and a training run then validated on an empty folder.
    The photo nearest the other side (by the same hash) moves there."""
    splits = {name: split_of(name, seed, val_share) for name in names}
    if len(splits) >= 2:
        nearest_val = sorted(splits, key=lambda name: (_draw(name, seed), name))
        if "val" not in splits.values():
            splits[nearest_val[0]] = "val"
        if "train" not in splits.values():
            splits[nearest_val[-1]] = "train"
    return splits


def _draw(name: str, seed: int) -> bytes:
    """``split_of``'s hash of a photo: the lower, the nearer to val."""
    # A name whose bytes are not UTF-8 (lone surrogates in Python) is hashed as those bytes.
    return hashlib.sha256(f"{seed}:{name}".encode("utf-8", "surrogateescape")).digest()


def detector_class(tile: dict[str, Any]) -> int:
    if tile.get("code") and tile["code"][-1] in "br":
        return DETECTOR_CLASSES.index("piece")
    base = "back" if tile.get("face_down") else "tile"
    return DETECTOR_CLASSES.index(base + ("_rotated" if tile.get("rotated") else ""))


def export_yolo(labels: Iterable[tuple[Path, dict[str, Any]]], out: Path, seed: int = 0) -> int:
    labels = list(labels)
    splits = split_photos((photo.name for photo, _ in labels), seed)
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    count = 0
    for photo, label in labels:
        split = splits[photo.name]
        image = load_image(photo)
        h, w = image.shape[:2]
        shutil.copyfile(photo, out / "images" / split / photo.name)
        lines = []
        for tile in label["tiles"]:
            if tile.get("code") == "other":
                continue
            x1, y1, x2, y2 = tile["box"]
            lines.append(
                f"{detector_class(tile)} {(x1 + x2) / 2 / w:.6f} {(y1 + y2) / 2 / h:.6f} "
                f"{(x2 - x1) / w:.6f} {(y2 - y1) / h:.6f}"
            )
        (out / "labels" / split / (photo.stem + ".txt")).write_text("\n".join(lines) + "\n")
        count += 1
    names = "\n".join(f"  {i}: {n}" for i, n in enumerate(DETECTOR_CLASSES))
    (out / "data.yaml").write_text(
        f"path: {out.resolve()}\ntrain: images/train\nval: images/val\nnames:\n{names}\n"
    )
    return count


def export_crops(labels: Iterable[tuple[Path, dict[str, Any]]], out: Path, seed: int = 0) -> int:
    labels = list(labels)
    splits = split_photos((photo.name for photo, _ in labels), seed)
    count = 0
    for split in ("train", "val"):
        for code in CLASSIFIER_CLASSES:
            (out / split / code).mkdir(parents=True, exist_ok=True)
    for photo, label in labels:
        split = splits[photo.name]
        image = load_image(photo)
        for i, tile in enumerate(label["tiles"]):
            code = "back" if tile.get("face_down") else tile.get("code")
            if code in (None, "other"):
                continue
            crop = crop_upright(image, tile["box"], bool(tile.get("rotated")), CROP_SIZE)
            # Not cv2.imwrite: a photo named in bytes that are not UTF-8 made it segfault.
            image_written(out / split / code / f"{photo.stem}_{i}.jpg", crop)
            count += 1
    return count


# What a task's ``data`` carries besides the photo, so that a round trip through Label Studio
# gives back the label it took out (Label Studio keeps a task's data as it was imported). Not
# the status: a label nobody checked goes out as Label Studio's pre-annotation (``predictions``),
# and what comes back as an annotation a person submitted there, so it is done.
CARRIED = ("width", "height", "tile_set", "notes")
# Results that mark a region of the photo but not as a rectangle: no tile box can be read from
# them, so each one is counted as dropped (and said), not lost in silence. Other results (a
# choice, a text) answer about the whole photo and are no tile to begin with.
REGION_TYPES = ("polygon", "ellipse", "keypoint", "brush", "rectangle")
# The name Label Studio gives a photo uploaded into it: 8 hex digits and a dash before the
# photo's own name (``/data/upload/1/8f3a2b1c-IMG_3085.jpg``).
UPLOAD_PREFIX = re.compile(r"[0-9a-fA-F]{8}-(.+)")
# Label Studio's percentages may stray past 0-100 by rounding, or by a box the photo's edge cuts:
# as far as a label's box may reach past the edge (vision.labels.EDGE_MARGIN), no more.
PERCENT_SLACK = 100 * EDGE_MARGIN


class LabelStudioError(TilescoreError):
    """A Label Studio file that cannot be imported: one line saying which task and what."""


@dataclass(frozen=True)
class Imported:
    labels: dict[str, dict[str, Any]]  # photo name -> the label fields its task gives
    skipped: tuple[str, ...]  # photos whose task has no annotation: nothing to import
    # photo name -> regions that are no rectangle (a polygon...), not imported; only photos
    # that had some
    dropped: dict[str, int]
    # photo name -> rectangles turned in Label Studio, imported as the upright box around them
    turned: dict[str, int]


def to_label_studio(labels: Iterable[tuple[Path, dict[str, Any]]]) -> list[dict[str, Any]]:
    tasks = []
    for photo, label in labels:
        w, h = _size(photo, label)
        results = [_result(i, tile, w, h) for i, tile in enumerate(label["tiles"])]
        data = {"image": photo.name} | {k: label[k] for k in CARRIED if label.get(k) is not None}
        checked = "predictions" if label.get("status") == "proposed" else "annotations"
        tasks.append({"data": data, checked: [{"result": results}]})
    return tasks


def _size(photo: Path, label: dict[str, Any]) -> tuple[int, int]:
    """The photo's size the boxes are a share of: the label's, else (a hand-made label
    without one) the photo's own."""
    if label.get("width") and label.get("height"):
        return int(label["width"]), int(label["height"])
    decoded = load_photo(photo)
    return decoded.width, decoded.height


UNNAMED = "unnamed"
"""A face-up box nobody has named yet (drawn on the page before its code was typed): not
"other" (a tile from no set, which the metrics leave aside), so evaluate still stops on it."""


def _result(i: int, tile: dict[str, Any], w: int, h: int) -> dict[str, Any]:
    x1, y1, x2, y2 = tile["box"]
    name = "back" if tile.get("face_down") else (tile.get("code") or UNNAMED)
    return {
        "id": f"t{i}",
        "type": "rectanglelabels",
        "from_name": "label",
        "to_name": "image",
        "original_width": w,
        "original_height": h,
        "value": {
            "x": 100 * x1 / w,
            "y": 100 * y1 / h,
            "width": 100 * (x2 - x1) / w,
            "height": 100 * (y2 - y1) / h,
            "rotation": 0,
            "rectanglelabels": [name + ("~" if tile.get("rotated") else "")],
        },
    }


def from_label_studio(
    tasks: Any, photos: Collection[str], size_of: Callable[[str], tuple[int, int]]
) -> Imported:
    """Label Studio tasks back to our labels, by photo name (one of ``photos``, see
    ``match_photo``): the tiles of each task's first annotation that was not cancelled, and
    what the task's data carries (``CARRIED``). Boxes are Label Studio's percentages of the
    photo, so they are turned into pixels with the photo's own size (``size_of``), whatever size
    a result says it was drawn on. A task with no annotation is skipped, not read as a photo
    without tiles. Anything malformed is a ``LabelStudioError`` naming the task; nothing is
    written here."""
    if not isinstance(tasks, list):
        raise LabelStudioError("not a Label Studio export (a JSON list of tasks)")
    labels: dict[str, dict[str, Any]] = {}
    skipped: list[str] = []
    dropped: dict[str, int] = {}
    turned: dict[str, int] = {}
    for number, task in enumerate(tasks, 1):
        given = _task_photo(task, number)
        name = match_photo(given, photos)
        if name is None:
            raise LabelStudioError(f"task {number}: no photo named {given!r} in this folder")
        if name in labels or name in skipped:
            raise LabelStudioError(f"task {number}: a second task for {name}")
        counts = Counter[str]()
        try:
            annotation = _annotation(task.get("annotations"))
            # Sized only when there is something to import: a skipped photo is not decoded.
            label = (
                None if annotation is None else _task_label(task, annotation, size_of(name), counts)
            )
        except TilescoreError as error:
            raise LabelStudioError(f"task {number} ({name}): {error}") from None
        if label is None:
            skipped.append(name)
            continue
        labels[name] = label
        if counts["dropped"]:
            dropped[name] = counts["dropped"]
        if counts["turned"]:
            turned[name] = counts["turned"]
    return Imported(labels, tuple(skipped), dropped, turned)


def match_photo(name: str, photos: Collection[str]) -> str | None:
    """The photo a task names: the one of that name, else, for a photo uploaded into Label
    Studio (``8f3a2b1c-IMG_3085.jpg``), the one named as after its prefix; None for none."""
    if name in photos:
        return name
    upload = UPLOAD_PREFIX.fullmatch(name)
    return upload[1] if upload and upload[1] in photos else None


def _task_photo(task: Any, number: int) -> str:
    if not isinstance(task, dict):
        raise LabelStudioError(f"task {number} is not an object")
    data = task.get("data")
    image = data.get("image") if isinstance(data, dict) else None
    if not isinstance(image, str) or not Path(image).name:
        raise LabelStudioError(f"task {number} has no data.image naming its photo")
    return Path(image).name


def _task_label(
    task: dict[str, Any], annotation: dict[str, Any], size: tuple[int, int], counts: Counter[str]
) -> dict[str, Any]:
    """The label fields an annotated task gives, its boxes in pixels of a photo of ``size``;
    ``counts`` gets the regions not imported ("dropped") and the rectangles imported upright
    ("turned")."""
    results = annotation.get("result")
    if not isinstance(results, list):
        raise LabelStudioError("its annotation has no result list")
    label = {k: task["data"][k] for k in CARRIED if k in task["data"]}
    # The photo's own size, over what the task's data says: the boxes were turned with it.
    label |= {"status": "done", "width": size[0], "height": size[1]}
    tiles = []
    for number, result in enumerate(results, 1):
        kind = result.get("type", "rectanglelabels") if isinstance(result, dict) else None
        if kind != "rectanglelabels" and isinstance(kind, str):
            if kind.removesuffix("labels") in REGION_TYPES:
                counts["dropped"] += 1
            continue  # another control's answer (a choice, a text): no box
        try:
            tile, turned = _tile(result, size)
        except TilescoreError as error:
            raise LabelStudioError(f"result {number}: {error}") from None
        tiles.append(tile)
        counts["turned"] += turned
    return label | {"tiles": tiles}


def _annotation(annotations: Any) -> dict[str, Any] | None:
    """The first annotation nobody cancelled; None when there is none."""
    if annotations is None:
        return None
    if not isinstance(annotations, list) or not all(isinstance(a, dict) for a in annotations):
        raise LabelStudioError("annotations must be a list of objects")
    return next((a for a in annotations if not a.get("was_cancelled")), None)


def _tile(result: Any, size: tuple[int, int]) -> tuple[dict[str, Any], bool]:
    """One rectangle as a label tile on a photo of ``size``, and whether it was turned (a
    label's boxes are upright: a turned one comes in as the upright box around it). The size a
    result says it was drawn on (``original_width``...) is not read: its percentages are of the
    photo whatever size it was shown at, and a resized copy in Label Studio says another."""
    value = result.get("value") if isinstance(result, dict) else None
    if not isinstance(value, dict):
        raise LabelStudioError("no value")
    names = value.get("rectanglelabels")
    if not (isinstance(names, list) and len(names) == 1 and isinstance(names[0], str)):
        raise LabelStudioError(f"rectanglelabels must name one label, not {shown(names)}")
    numbers = [value.get(k) for k in ("x", "y", "width", "height")]
    if not all(map(is_finite_number, numbers)):
        raise LabelStudioError("x, y, width and height must be finite numbers")
    # Percent of the photo: more than 100 is a box off it, said as Label Studio gave it.
    percents = cast(list[float], numbers)  # all finite numbers, checked above
    for key, percent in zip(("x", "y", "width", "height"), percents, strict=True):
        if not -PERCENT_SLACK <= percent <= 100 + PERCENT_SLACK:
            raise LabelStudioError(f"{key} {shown(percent)} is not a percentage (0 to 100)")
    rotation = _number(value, "rotation", 0)
    x, y, w, h = percents
    width, height = size
    _check_shape(result, size)
    label = names[0].rstrip("~")
    x1, y1 = x * width / 100, y * height / 100
    box = _upright_box(x1, y1, w * width / 100, h * height / 100, rotation)
    tile = {
        "code": None if label in ("back", UNNAMED) else label,
        "box": box,
        "face_down": label == "back",
        "rotated": names[0].endswith("~"),
    }
    return tile, rotation % 360 != 0


SHAPE_SLACK = 0.02
"""How far the shape a box was drawn on may be from its photo's (a resized copy's rounding)."""


def _check_shape(result: dict[str, Any], size: tuple[int, int]) -> None:
    """A box drawn on a photo of another shape (a photo replaced under its name, or a task
    matched to the wrong photo) is refused: a resized copy keeps the photo's shape, and its
    percentages hold at any size."""
    width = finite_number(result.get("original_width"))
    height = finite_number(result.get("original_height"))
    if width is None or height is None or width <= 0 or height <= 0:
        return  # not said: the photo's own
    ratio = size[0] / size[1]
    if abs(width / height - ratio) > SHAPE_SLACK * ratio:
        raise LabelStudioError(
            f"drawn on a {width:g}x{height:g} photo, not one shaped as this"
            f" {size[0]}x{size[1]} photo: was the photo replaced?"
        )


def _number(value: dict[str, Any], key: str, default: float) -> float:
    """An optional number of a result's value."""
    number = value.get(key, default)
    if not is_finite_number(number):
        raise LabelStudioError(f"{key} must be a finite number, not {shown(number)}")
    return float(number)


def _upright_box(x: float, y: float, w: float, h: float, degrees: float) -> list[float]:
    """The upright box around a w x h rectangle Label Studio turned ``degrees`` clockwise about
    its top-left corner (x, y): itself when it is not turned."""
    if degrees % 360 == 0:
        return [x, y, x + w, y + h]
    turn = math.radians(degrees)
    cos, sin = math.cos(turn), math.sin(turn)
    corners = [
        (dx * cos - dy * sin, dx * sin + dy * cos) for dx, dy in ((0, 0), (w, 0), (w, h), (0, h))
    ]
    xs, ys = [x + cx for cx, _ in corners], [y + cy for _, cy in corners]
    return [min(xs), min(ys), max(xs), max(ys)]


def report(labels: Iterable[tuple[Path, dict[str, Any]]], minimum: int = 10) -> dict[str, Any]:
    per_class: Counter[str] = Counter()
    per_set: Counter[str] = Counter()
    photos = 0
    for _, label in labels:
        photos += 1
        per_set[label.get("tile_set", "unknown")] += 1
        for tile in label["tiles"]:
            per_class["back" if tile.get("face_down") else (tile.get("code") or UNNAMED)] += 1
    few = sorted(c for c in CLASSIFIER_CLASSES if c != "not_a_tile" and per_class[c] < minimum)
    return {
        "photos": photos,
        "tiles": sum(per_class.values()),
        "per_class": dict(sorted(per_class.items())),
        "photos_per_tile_set": dict(per_set),
        "classes_with_too_few_examples": few,
        "minimum": minimum,
    }


def dump(data: Any) -> str:
    return json.dumps(data, ensure_ascii=False, indent=1)
