"""Labelled photos out to training sets and other tools, and back in.

- YOLO detection (images, labels, data.yaml) with the detector's five classes;
- classification crops per class, upright, cut from the full-resolution photo exactly as the
  runtime cuts them;
- Label Studio JSON (rectangle labels in percent), import and export.
The train/validation split is by photo and reproducible: a photo's split depends on its name and
the seed only.
"""

from __future__ import annotations

import hashlib
import json
import shutil
from collections import Counter
from collections.abc import Iterable
from pathlib import Path
from typing import Any

import cv2

from datasets.synth.build import CLASSIFIER_CLASSES, DETECTOR_CLASSES
from vision.crops import crop_upright
from vision.images import load_image

CROP_SIZE = (64, 64)


def split_of(name: str, seed: int = 0, val_share: float = 0.2) -> str:
    digest = hashlib.sha256(f"{seed}:{name}".encode()).digest()
    return "val" if digest[0] / 256 < val_share else "train"


def detector_class(tile: dict[str, Any]) -> int:
    if tile.get("code") and tile["code"][-1] in "br":
        return DETECTOR_CLASSES.index("piece")
    base = "back" if tile.get("face_down") else "tile"
    return DETECTOR_CLASSES.index(base + ("_rotated" if tile.get("rotated") else ""))


def export_yolo(labels: Iterable[tuple[Path, dict[str, Any]]], out: Path, seed: int = 0) -> int:
    for split in ("train", "val"):
        (out / "images" / split).mkdir(parents=True, exist_ok=True)
        (out / "labels" / split).mkdir(parents=True, exist_ok=True)
    count = 0
    for photo, label in labels:
        split = split_of(photo.name, seed)
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
    count = 0
    for split in ("train", "val"):
        for code in CLASSIFIER_CLASSES:
            (out / split / code).mkdir(parents=True, exist_ok=True)
    for photo, label in labels:
        split = split_of(photo.name, seed)
        image = load_image(photo)
        for i, tile in enumerate(label["tiles"]):
            code = "back" if tile.get("face_down") else tile.get("code")
            if code in (None, "other"):
                continue
            crop = crop_upright(image, tile["box"], bool(tile.get("rotated")), CROP_SIZE)
            cv2.imwrite(str(out / split / code / f"{photo.stem}_{i}.jpg"), crop)
            count += 1
    return count


def to_label_studio(labels: Iterable[tuple[Path, dict[str, Any]]]) -> list[dict[str, Any]]:
    tasks = []
    for photo, label in labels:
        w, h = label["width"], label["height"]
        results = []
        for i, tile in enumerate(label["tiles"]):
            x1, y1, x2, y2 = tile["box"]
            name = "back" if tile.get("face_down") else (tile.get("code") or "other")
            results.append(
                {
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
            )
        tasks.append({"data": {"image": photo.name}, "annotations": [{"result": results}]})
    return tasks


def from_label_studio(tasks: list[dict[str, Any]]) -> dict[str, dict[str, Any]]:
    """Label Studio tasks back to our labels, by photo name."""
    out: dict[str, dict[str, Any]] = {}
    for task in tasks:
        name = Path(str(task["data"]["image"])).name
        tiles = []
        width = height = 0
        annotations = task.get("annotations") or [{"result": []}]
        for result in annotations[0]["result"]:
            value = result["value"]
            width, height = result["original_width"], result["original_height"]
            label = value["rectanglelabels"][0]
            rotated = label.endswith("~")
            label = label.rstrip("~")
            x1 = value["x"] * width / 100
            y1 = value["y"] * height / 100
            tiles.append(
                {
                    "code": None if label == "back" else label,
                    "box": [
                        x1,
                        y1,
                        x1 + value["width"] * width / 100,
                        y1 + value["height"] * height / 100,
                    ],
                    "face_down": label == "back",
                    "rotated": rotated,
                }
            )
        out[name] = {
            "image": name,
            "width": width,
            "height": height,
            "status": "done",
            "tiles": tiles,
        }
    return out


def report(labels: Iterable[tuple[Path, dict[str, Any]]], minimum: int = 10) -> dict[str, Any]:
    per_class: Counter[str] = Counter()
    per_set: Counter[str] = Counter()
    photos = 0
    for _, label in labels:
        photos += 1
        per_set[label.get("tile_set", "unknown")] += 1
        for tile in label["tiles"]:
            per_class["back" if tile.get("face_down") else (tile.get("code") or "other")] += 1
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
