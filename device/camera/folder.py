"""A folder of photos as a camera: for demos, tests and CI. Each capture takes the next photo."""

from __future__ import annotations

from pathlib import Path

import cv2
import numpy as np

from device.camera.base import CameraError
from vision.labels import PHOTO_SUFFIXES

PREVIEW_WIDTH = 640


class FolderCamera:
    def __init__(self, folder: Path) -> None:
        if not folder.is_dir():
            raise CameraError(f"camera folder {str(folder)!r} does not exist")
        self.name = f"dir:{folder}"
        self.folder = folder
        self.position = 0

    def _photos(self) -> list[Path]:
        return sorted(p for p in self.folder.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)

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
        frame = self._read()
        scale = PREVIEW_WIDTH / max(frame.shape[1], 1)
        if scale < 1:
            frame = cv2.resize(frame, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
        return frame

    def capture(self) -> np.ndarray:
        frame = self._read()
        return frame

    def advance(self) -> None:
        """Move to the next photo (the app does this after each scored hand)."""
        self.position += 1

    def close(self) -> None:
        pass
