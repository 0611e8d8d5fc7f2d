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
from vision.labels import (
    IGNORED_CODE,
    PHOTO_SUFFIXES,
    LabelError,
    check_label,
    read_label_file,
)


class LabelStore:
    def __init__(self, photos: Path, labels: Path) -> None:
        if not photos.is_dir():
            raise TilescoreError(f"photo folder {str(photos)!r} does not exist")
        self.photos = photos
        self.labels = labels
        if labels.exists() and not labels.is_dir():  # --labels naming a file: never written over
            raise TilescoreError(f"labels folder {str(labels)!r} is a file, not a folder")
        try:
            labels.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a read-only place, a file on the way to it
            raise TilescoreError(
                f"cannot make the labels folder {str(labels)!r}: {error.strerror}"
            ) from None

    def photo_names(self) -> list[str]:
        return sorted(p.name for p in self.photos.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)

    def photo_path(self, name: str) -> Path:
        if name not in self.photo_names():
            raise TilescoreError(f"no photo named {name!r} in this folder")
        return self.photos / name

    def label_path(self, name: str) -> Path:
        self.photo_path(name)  # only names of real photos get a label file
        stem = Path(name).stem
        twins = [other for other in self.photo_names() if other != name and _same_stem(other, stem)]
        if twins:
            # x.jpg and x.webp (or x.JPG) would read and write one x.json: each the other's.
            raise LabelError(
                f"{name} and {twins[0]} would share the label file {stem}.json: rename one"
            )
        return self.labels / (stem + ".json")

    def load(self, name: str) -> dict[str, Any] | None:
        """A photo's label, its shape checked (a malformed file is a ``LabelError`` naming it);
        None when the photo has none yet."""
        path = self.label_path(name)
        if not path.exists():
            return None
        return read_label_file(path)

    def save(self, name: str, label: Any) -> dict[str, Any]:
        """Validate what a client sent (anything JSON) and write it; returns the clean label."""
        clean = validate_label(name, label)
        write_json_atomically(self.label_path(name), clean)
        return clean

    def summary(self) -> list[dict[str, Any]]:
        """The page's photo list. A label file that cannot be read is listed as ``broken``
        with its error, so one bad file leaves the other photos open to label."""
        out = []
        for name in self.photo_names():
            try:
                label = self.load(name)
            except LabelError as error:
                out.append({"image": name, "status": "broken", "tiles": 0, "error": str(error)})
                continue
            out.append(
                {
                    "image": name,
                    "status": label.get("status", "proposed") if label else "new",
                    "tiles": len(label["tiles"]) if label else 0,
                }
            )
        return out


def _same_stem(name: str, stem: str) -> bool:
    """Whether a photo's label file would be ``stem``'s, on any file system (some ignore case)."""
    return Path(name).stem.casefold() == stem.casefold()


def validate_label(name: str, label: Any) -> dict[str, Any]:
    """A label as the store keeps it; a bad field is a one-line error naming it (checked as
    every label file is read: vision.labels.check_label)."""
    check_label(label)
    out = {
        "image": name,
        "width": int(label.get("width", 0)),
        "height": int(label.get("height", 0)),
        "status": label.get("status", "proposed"),
        "tiles": [_clean_tile(tile) for tile in label["tiles"]],
    }
    if label.get("tile_set") is not None:
        out["tile_set"] = label["tile_set"]
    notes = label.get("notes")
    if notes and notes.strip():  # blank notes are no notes: the file keeps its old shape
        out["notes"] = notes
    return out


def _clean_tile(tile: dict[str, Any]) -> dict[str, Any]:
    """A checked tile as the store writes it: a back has no code, a code is written as
    scoring.tiles writes it, the box to a tenth of a pixel."""
    # No code and no face_down is a back, as load_label reads it (not a face-up tile nobody
    # could count).
    face_down = tile.get("face_down", tile.get("code") is None)
    code = None if face_down else tile.get("code")
    if code not in (None, IGNORED_CODE):
        code = tile_from_code(code).code
    return {
        "code": code,
        "box": [round(float(v), 1) for v in tile["box"]],
        "face_down": face_down,
        "rotated": tile.get("rotated", False),
    }


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
