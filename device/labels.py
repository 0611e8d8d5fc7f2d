"""The label store: one JSON file per photo, written atomically, in the detect-label shape.

``{"image", "width", "height", "status": "proposed"|"done", "tiles": [{"code", "box",
"face_down", "rotated"}]}``, plus optional text ``"tile_set"`` and ``"notes"`` (the page edits the
notes; a label without them is as valid as before). A label with no status (a hand-made one) is
done, to the page's list as to the exports, ``--report`` and ``train --from``. Photos are found by name inside the photo
folder only: a name from a request is checked against the folder's own listing, never joined into
a path as given.
"""

from __future__ import annotations

import hashlib
import os
import shutil
import tempfile
import time
from collections.abc import Iterable
from pathlib import Path
from typing import Any

from scoring.cli import json_text
from scoring.errors import TilescoreError
from scoring.tiles import tile_from_code
from vision.labels import (
    IGNORED_CODE,
    PHOTO_SUFFIXES,
    LabelError,
    check_label,
    read_label_file,
)

REPLACED = ".replaced"
"""The labels folder's hidden folder where an import keeps the label files it wrote over, one
folder an import: nothing reads them as labels (the page, the exports and ``train --from`` read
a photo's own ``NAME.json``; ``evaluate`` the ``*.json`` beside it, not in folders below)."""


class StaleLabelError(TilescoreError):
    """A save made from a label that has changed on disk since it was read (another tab, an
    import): refused, not written over the newer one."""


class LabelStore:
    def __init__(self, photos: Path, labels: Path, create: bool = True) -> None:
        """``create``: make the labels folder where there is none (labelling, an import); a
        report or an export only reads one, and a folder named wrong is said, not made."""
        if not photos.is_dir():
            why = "is a file, not a folder" if photos.exists() else "does not exist"
            raise TilescoreError(f"photo folder {str(photos)!r} {why}")
        self.photos = photos
        self.labels = labels
        if labels.exists() and not labels.is_dir():  # --labels naming a file: never written over
            raise TilescoreError(f"labels folder {str(labels)!r} is a file, not a folder")
        if not create and not labels.exists():
            raise TilescoreError(f"labels folder {str(labels)!r} does not exist")
        try:
            labels.mkdir(parents=True, exist_ok=True)
        except OSError as error:  # a read-only place, a file on the way to it
            raise TilescoreError(
                f"cannot make the labels folder {str(labels)!r}: {error.strerror}"
            ) from None

    def photo_names(self) -> list[str]:
        return sorted(
            p.name
            for p in self.photos.iterdir()
            if p.suffix.lower() in PHOTO_SUFFIXES and p.is_file()  # a folder named x.jpg is none
        )

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

    def save(self, name: str, label: Any, read_as: str | None = None) -> dict[str, Any]:
        """Validate what a client sent (anything JSON) and write it; returns the clean label.
        ``read_as``: the ``version`` of the label the edit was made on, which must still be the
        file's (two tabs on one photo: the second save wrote over the first's work)."""
        missing = [k for k in ("width", "height") if isinstance(label, dict) and _no_size(label, k)]
        if missing:
            # No size (a script's PUT, a label the app wrote with 0): it is its photo's, and
            # written so, or a later reader would have no size to check its boxes against.
            size = dict(zip(("width", "height"), self.photo_size(name), strict=True))
            label = label | {k: size[k] for k in missing}
        clean = validate_label(name, label)
        path = self.label_path(name)
        if read_as is not None and read_as != self.version(name):
            raise StaleLabelError(
                f"the label of {name} was changed elsewhere since this page opened it (another "
                "tab, an import): open the photo again; this change is not saved"
            )
        write_json_atomically(path, clean)
        return clean

    def keep_copies(self, names: Iterable[str]) -> Path | None:
        """Copy the label files of ``names`` to a new ``LABELS/.replaced/TIME/`` before they
        are written over, and return that folder; None when there is none to copy."""
        paths = [self.label_path(name) for name in names]
        if not paths:
            return None
        first = self.labels / REPLACED / time.strftime("%Y-%m-%dT%H%M%S")
        folder, tries = first, 1
        while True:
            try:
                folder.mkdir(parents=True)
                break
            except FileExistsError:  # two imports in one second: a folder each
                tries += 1
                folder = first.with_name(f"{first.name}-{tries}")
        for path in paths:
            shutil.copy2(path, folder / path.name)  # the file as it was, its time too
        return folder

    def version(self, name: str) -> str:
        """What the label file holds, in a few characters: changed by any write."""
        path = self.label_path(name)
        try:
            return hashlib.sha256(path.read_bytes()).hexdigest()[:16]
        except FileNotFoundError:
            return "none"

    def photo_size(self, name: str) -> tuple[int, int]:
        """The photo's own (width, height), upright, as its label's boxes are measured."""
        from vision.images import load_photo

        photo = load_photo(self.photo_path(name))
        return photo.width, photo.height

    def check_size(self, name: str, label: dict[str, Any]) -> None:
        """A label's size must be its photo's: a photo replaced under its name (a reused camera
        file name, a resized copy) would get the old boxes, drawn and taught on other pixels.
        A label that gives no size (hand-made, or 0 as the app writes none) is of its own
        photo, as ``evaluate`` reads it: only a size it says that differs is refused."""
        said = (label.get("width") or 0, label.get("height") or 0)
        if not all(said):
            return
        width, height = self.photo_size(name)
        if said != (width, height):
            raise LabelError(
                f"the label of {name} is of a {said[0]}x{said[1]} photo, and {name} is "
                f"{width}x{height}: the photo was replaced or resized since it was "
                "labelled (put it back, or delete its label and label it again)"
            )

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
                    # No status is a hand-made label: done, as the exports and --from count it.
                    "status": label.get("status", "done") if label else "new",
                    "tiles": len(label["tiles"]) if label else 0,
                }
            )
        return out


def _no_size(label: dict[str, Any], key: str) -> bool:
    """Whether a label gives no ``width`` or ``height``: none, null, or the 0 the app writes
    for none (as ``check_label`` reads it); a wrong kind is left for it to refuse."""
    value = label.get(key)
    return value is None or (value == 0 and not isinstance(value, bool))


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
        "status": label.get("status", "done"),  # none: hand-made, as every reader counts it
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
    box = [round(float(v), 1) for v in tile["box"]]
    if box[2] <= box[0] or box[3] <= box[1]:  # written so, the file could not be read back
        raise LabelError(f"box {tile['box']} is thinner than a tenth of a pixel")
    return {
        "code": code,
        "box": box,
        "face_down": face_down,
        "rotated": tile.get("rotated", False),
    }


def write_json_atomically(path: Path, data: Any) -> None:
    """Write to a temporary file beside the target and rename it: a reader or a power cut sees
    the old file or the new one, never half of one."""
    path.parent.mkdir(parents=True, exist_ok=True)
    handle, tmp = tempfile.mkstemp(dir=path.parent, prefix=".", suffix=".tmp")
    try:
        # mkstemp makes the file 0600: a label shared with the service that reads it (serve,
        # evaluate as another user) kept the old file's mode, or a plain file's.
        os.fchmod(handle, path.stat().st_mode & 0o777 if path.exists() else 0o644)
        with os.fdopen(handle, "w", encoding="utf-8") as out:
            # json_text: a photo named in bytes that are not UTF-8 cannot be written raw.
            out.write(json_text(data, indent=1))
            out.flush()
            os.fsync(out.fileno())
        os.replace(tmp, path)
    except BaseException:
        Path(tmp).unlink(missing_ok=True)
        raise
