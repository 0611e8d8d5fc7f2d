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


PREVIEW_WIDTH = 640


def preview_size(
    frame: np.ndarray, width: int = PREVIEW_WIDTH, interpolation: int | None = None
) -> np.ndarray:
    """``frame`` shrunk to ``width`` pixels wide, its shape kept; a frame no wider is kept as it
    is. A photo of an extreme shape (3000x1) keeps at least one pixel each way, where a plain
    scale would round its height to none (and OpenCV refuse it)."""
    import cv2

    height, wide = frame.shape[:2]
    if wide <= width:
        return frame
    size = (width, max(1, round(height * width / wide)))
    return cv2.resize(
        frame, size, interpolation=cv2.INTER_AREA if interpolation is None else interpolation
    )


def check_camera_spec(spec: str) -> None:
    """Refuse a camera spec that can never work, without opening the camera: an unknown kind, a
    USB index that is no whole number, a ``dir:`` path that is no folder. A camera that is merely
    unplugged or busy is not found out here: the app starts and says so on the display."""
    _parse(spec, check_folder=True)


MAX_USB_INDEX = 255
"""More video devices than any machine has (/dev/video0 ... /dev/video255)."""


def _parse(spec: str, check_folder: bool = False) -> tuple[str, int | Path | None]:
    kind, colon, arg = spec.partition(":")
    if kind == "pi" and not colon:
        return kind, None
    if kind == "usb":
        # ASCII digits only: int() also takes "1_0" (camera 10) and "٣" (camera 3).
        index = int(arg or "0") if (arg or "0").isascii() and (arg or "0").isdigit() else -1
        if not 0 <= index <= MAX_USB_INDEX:  # past a C int, OpenCV fails on every frame
            raise CameraError(
                f"camera {spec!r}: usb needs a device number 0 to {MAX_USB_INDEX}, e.g. usb:0"
            )
        return kind, index
    if kind == "dir":
        if not arg:
            raise CameraError(f"camera {spec!r}: dir needs a folder, e.g. dir:examples/photos")
        folder = Path(arg).expanduser()  # the shell leaves "dir:~/photos" as it is
        if check_folder and not folder.is_dir():
            why = "is not a folder" if folder.exists() else "does not exist"
            raise CameraError(f"camera folder {arg!r} {why}")
        return kind, folder
    raise CameraError(f"unknown camera {spec!r}: use pi, usb:N or dir:PATH")


def open_camera(spec: str, turn: int = 0) -> CameraSource:
    """``pi``, ``usb:N`` or ``dir:PATH``, its frames turned ``turn`` degrees clockwise (0, 90,
    180, 270: a camera mounted rolled); a bad spec or a missing camera is a ``CameraError``."""
    if turn:
        from device.camera.turned import TurnedCamera, opencv_turn

        opencv_turn(turn)  # a bad turn is refused before the camera is opened and held
        return TurnedCamera(open_camera(spec), turn)
    kind, arg = _parse(spec)
    if kind == "pi":
        from device.camera.picamera import PiCamera

        return PiCamera()
    if kind == "usb":
        from device.camera.usb import UsbCamera

        assert isinstance(arg, int)
        return UsbCamera(arg)
    from device.camera.folder import FolderCamera

    assert isinstance(arg, Path)
    return FolderCamera(arg)
