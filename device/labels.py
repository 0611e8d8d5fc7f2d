"""The label store: one JSON file per photo, written atomically, in the detect-label shape.

``{"image", "width", "height", "status": "proposed"|"done", "tiles": [{"code", "box",
"face_down", "rotated"}]}``, plus optional text ``"tile_set"`` and ``"notes"`` (the page edits the
notes; a label without them is as valid as before). Photos are found by name inside the photo
folder only: a name from a request is checked against the folder's own listing, never joined into
a path as given.
"""

from __future__ import annotations

import json
import os
import tempfile
from pathlib import Path
from typing import Any

from scoring.errors import TilescoreError
from scoring.tiles import tile_from_code
from vision.labels import PHOTO_SUFFIXES

STATUSES = ("proposed", "done")


class LabelStore:
    def __init__(self, photos: Path, labels: Path) -> None:
        if not photos.is_dir():
            raise TilescoreError(f"photo folder {str(photos)!r} does not exist")
        self.photos = photos
        self.labels = labels
        labels.mkdir(parents=True, exist_ok=True)

    def photo_names(self) -> list[str]:
        return sorted(p.name for p in self.photos.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)

    def photo_path(self, name: str) -> Path:
        if name not in self.photo_names():
            raise TilescoreError(f"no photo named {name!r} in this folder")
        return self.photos / name

    def label_path(self, name: str) -> Path:
        self.photo_path(name)  # only names of real photos get a label file
        return self.labels / (Path(name).stem + ".json")

    def load(self, name: str) -> dict[str, Any] | None:
        path = self.label_path(name)
        if not path.exists():
            return None
        data: dict[str, Any] = json.loads(path.read_text("utf-8"))
        return data

    def save(self, name: str, label: Any) -> dict[str, Any]:
        """Validate what a client sent (anything JSON) and write it; returns the clean label."""
        clean = validate_label(name, label)
        write_json_atomically(self.label_path(name), clean)
        return clean

    def summary(self) -> list[dict[str, Any]]:
        out = []
        for name in self.photo_names():
            label = self.load(name)
            out.append(
                {
                    "image": name,
                    "status": label.get("status", "proposed") if label else "new",
                    "tiles": len(label["tiles"]) if label else 0,
                }
            )
        return out


def validate_label(name: str, label: Any) -> dict[str, Any]:
    """A label as the store keeps it; a bad field is a one-line error naming it."""
    if not isinstance(label, dict) or not isinstance(label.get("tiles"), list):
        raise TilescoreError("a label is an object with a list of tiles")
    status = label.get("status", "proposed")
    if status not in STATUSES:
        raise TilescoreError(f"label status {status!r} is not one of {', '.join(STATUSES)}")
    tiles = []
    for i, tile in enumerate(label["tiles"]):
        box = tile.get("box") if isinstance(tile, dict) else None
        if not (
            isinstance(box, list) and len(box) == 4 and all(isinstance(v, int | float) for v in box)
        ):
            raise TilescoreError(f"tile {i}: box must be [x1, y1, x2, y2]")
        x1, y1, x2, y2 = (float(v) for v in box)
        if x2 <= x1 or y2 <= y1:
            raise TilescoreError(f"tile {i}: box {box} has no area")
        face_down = bool(tile.get("face_down", False))
        code = tile.get("code")
        if face_down:
            code = None
        elif code not in (None, "other"):
            code = tile_from_code(str(code)).code
        tiles.append(
            {
                "code": code,
                "box": [round(x1, 1), round(y1, 1), round(x2, 1), round(y2, 1)],
                "face_down": face_down,
                "rotated": bool(tile.get("rotated", False)),
            }
        )
    out = {
        "image": name,
        "width": int(label.get("width", 0)),
        "height": int(label.get("height", 0)),
        "status": status,
        "tiles": tiles,
    }
    if isinstance(label.get("tile_set"), str):
        out["tile_set"] = label["tile_set"]
    notes = label.get("notes")
    if notes is not None and not isinstance(notes, str):
        raise TilescoreError("label notes must be text")
    if notes and notes.strip():  # blank notes are no notes: the file keeps its old shape
        out["notes"] = notes
    return out


def write_json_atomically(path: Path, data: Any) -> None:
    """Write to a temporary file beside the target and rename it: a reader or a power cut sees
    the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            json.dump(data, out, ensure_ascii=False, indent=1)
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
