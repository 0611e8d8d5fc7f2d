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
            if p.suffix.lower() in PHOTO_SUFFIXES and not p.name.startswith(".") and p.is_file()
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
            raise CameraError(f"camera folder photo {path.name!r}: {error}") from None

    def preview(self) -> np.ndarray:
        return preview_size(self._read())

    def capture(self) -> np.ndarray:
        frame = self._read()
        return frame

    def advance(self) -> None:
        """Move to the next photo (the app does this after each scored hand)."""
        self.position += 1

    def close(self) -> None:
        pass
