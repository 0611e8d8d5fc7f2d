"""A folder of photos as a camera: for demos, tests and CI. Each capture takes the next photo."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from device.camera.base import CameraError, preview_size
from scoring.errors import TilescoreError
from vision.labels import PHOTO_SUFFIXES


class FolderCamera:
    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            why = "is not a folder" if folder.exists() else "does not exist"
            raise CameraError(f"camera folder {str(folder)!r} {why}")
        self.name = f"dir:{folder}"
        self.folder = folder
        self.position = 0

    def _photos(self) -> list[Path]:
        try:
            names = list(self.folder.iterdir())
        except OSError as error:  # the folder went away or cannot be read: the camera is out
            raise CameraError(f"camera folder {str(self.folder)!r}: {error.strerror}") from None
        # A hidden file is no photo of the folder's: a Mac leaves "._hand.jpg" (its metadata)
        # beside every photo copied, and it sorted first. A folder named like a photo neither.
        return sorted(
            p
            for p in names
            if p.suffix.lower() in PHOTO_SUFFIXES
            and not p.name.startswith(".")
            and p.is_file()
            and not _passed_over(p)
        )

    def current_path(self) -> Path:
        photos = self._photos()
        if not photos:
            raise CameraError(f"camera folder {str(self.folder)!r} has no photos")
        return photos[self.position % len(photos)]

    def _read(self) -> np.ndarray:
        from vision.images import load_photo

        # Decoded as a photo to read (a 12-megapixel JPEG at half its size), as a photo upload
        # is: the app reads, keeps and shows these pixels.
        path = self.current_path()
        try:
            return load_photo(path).pixels
        except TilescoreError as error:  # a file that is no photo: said as the camera's
            _NOT_PHOTOS[path] = _changed_at(path)
            raise CameraError(
                f"camera folder photo {path.name!r}: {error} (passed over from now on)"
            ) from None

    def preview(self) -> np.ndarray:
        return preview_size(self._read())

    def capture(self) -> np.ndarray:
        frame = self._read()
        return frame

    def advance(self) -> None:
        """Move to the next photo (the app does this after each scored hand)."""
        self.position += 1

    def photo_name(self) -> str | None:
        """The name of the photo the next capture takes (None: the folder has none), for the
        app to carry on from after a restart."""
        try:
            return self.current_path().name
        except CameraError:
            return None

    def go_to(self, name: str) -> None:
        """Take ``name`` next, or where it is gone, the photo after it in name order (round
        to the first past the last): the app restarted carries on where it was."""
        names = [p.name for p in self._photos()]
        self.position = next((i for i, n in enumerate(names) if n >= name), 0)

    def close(self) -> None:
        pass


_NOT_PHOTOS: dict[Path, float | None] = {}
"""Files of a camera folder that would not decode, with when they were last changed: passed
over until changed, by this camera and by the one opened again after the failure (the app lets
a failing camera go), so a demo folder with one bad file goes on round its photos."""


def _changed_at(path: Path) -> float | None:
    try:
        return path.stat().st_mtime
    except OSError:
        return None


def _passed_over(path: Path) -> bool:
    return path in _NOT_PHOTOS and _NOT_PHOTOS[path] == _changed_at(path)
