"""A folder of photos as a camera: for demos, tests and CI. Each capture takes the next photo."""

from __future__ import annotations

from pathlib import Path

import numpy as np

from device.camera.base import CameraError, preview_size
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
        return sorted(p for p in names if p.suffix.lower() in PHOTO_SUFFIXES)

    def current_path(self) -> Path:
        photos = self._photos()
        if not photos:
            raise CameraError(f"camera folder {str(self.folder)!r} has no photos")
        return photos[self.position % len(photos)]

    def _read(self) -> np.ndarray:
        from vision.images import load_photo

        # Decoded as a photo to read (a 12-megapixel JPEG at half its size), as a photo upload
        # is: the app reads, keeps and shows these pixels.
        return load_photo(self.current_path()).pixels

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
