"""The camera interface every source implements, and the factory that picks one by name."""

from __future__ import annotations

from pathlib import Path
from typing import Protocol

import numpy as np

from scoring.errors import TilescoreError


class CameraError(TilescoreError):
    """The camera is missing, unplugged or failing; the app shows it and keeps running."""


class CameraSource(Protocol):
    """A low-resolution stream for the live preview and a full-resolution still for scoring."""

    name: str

    def preview(self) -> np.ndarray:
        """A small BGR frame for the live view."""
        ...

    def capture(self) -> np.ndarray:
        """A full-resolution BGR still to score."""
        ...

    def close(self) -> None: ...


def open_camera(spec: str, turn: int = 0) -> CameraSource:
    """``pi``, ``usb:N`` or ``dir:PATH``, its frames turned ``turn`` degrees clockwise (0, 90,
    180, 270: a camera mounted rolled); a bad spec or a missing camera is a ``CameraError``."""
    if turn:
        from device.camera.turned import TurnedCamera, opencv_turn

        opencv_turn(turn)  # a bad turn is refused before the camera is opened and held
        return TurnedCamera(open_camera(spec), turn)
    kind, _, arg = spec.partition(":")
    if kind == "pi":
        from device.camera.picamera import PiCamera

        return PiCamera()
    if kind == "usb":
        from device.camera.usb import UsbCamera

        try:
            index = int(arg or "0")
        except ValueError:
            raise CameraError(f"camera {spec!r}: usb needs a number, e.g. usb:0") from None
        return UsbCamera(index)
    if kind == "dir":
        from device.camera.folder import FolderCamera

        return FolderCamera(Path(arg))
    raise CameraError(f"unknown camera {spec!r}: use pi, usb:N or dir:PATH")
