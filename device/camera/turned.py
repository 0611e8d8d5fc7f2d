"""A camera mounted rolled: its frames turned upright before anything reads them.

The detector learnt mostly photos taken as a person holds a camera, with the table's far side at
the top of the frame: the real photos turned a quarter read 89.1-91.3% of tiles against 93.8% as
taken (benchmarks/turned_photos.py; 80.8-85.3% against 90.0% before session 22's detector learnt
rolled scenes too). The hands on the table may lie at any angle, but a camera fixed over the table
at a quarter turn gives every photo that roll, so the app turns its frames back (``tilescore
serve --camera-turn``), as a phone does by its orientation tag.
"""

from __future__ import annotations

from typing import Any

import cv2
import numpy as np

from device.camera.base import CameraError, CameraSource

TURNS = {90: cv2.ROTATE_90_CLOCKWISE, 180: cv2.ROTATE_180, 270: cv2.ROTATE_90_COUNTERCLOCKWISE}
"""Degrees clockwise the frames are turned, and OpenCV's exact (lossless) turn for each."""


def opencv_turn(degrees: int) -> int:
    """OpenCV's code for a turn of ``degrees`` clockwise, or a one-line ``CameraError``."""
    if degrees not in TURNS:
        raise CameraError(f"camera turn {degrees}: use 0, 90, 180 or 270 degrees")
    return TURNS[degrees]


class TurnedCamera:
    """Another camera's frames, turned ``degrees`` clockwise."""

    def __init__(self, source: CameraSource, degrees: int) -> None:
        self.turn = opencv_turn(degrees)
        self.source = source
        self.name = f"{source.name} turned {degrees}"

    def preview(self) -> np.ndarray:
        return cv2.rotate(self.source.preview(), self.turn)

    def capture(self) -> np.ndarray:
        return cv2.rotate(self.source.capture(), self.turn)

    def close(self) -> None:
        self.source.close()

    def __getattr__(self, name: str) -> Any:
        # What else the camera offers (a folder camera's ``advance``), as it offers it.
        if name == "source":  # not set yet: no camera to ask
            raise AttributeError(name)
        return getattr(self.source, name)
