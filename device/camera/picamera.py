"""picamera2 on a Pi: a small ``lores`` stream for preview, a full-resolution still to score.

Settings suit white tiles on a table: continuous autofocus where the module has it, and exposure
biased down a little so tile faces do not burn out.
"""

from __future__ import annotations

import logging

import numpy as np

from device.camera.base import CameraError

log = logging.getLogger(__name__)

PREVIEW_SIZE = (640, 480)
EXPOSURE_BIAS = -0.5  # EV: white tile faces clip first; keep their strokes readable


def still_size(sensor: tuple[int, int]) -> tuple[int, int]:
    """The still's size: the sensor's halved when half still keeps the pixels the models read
    (``vision.images.KEEP_LONG_SIDE``, what a 12 MP JPEG is decoded at too). A Camera Module 3's
    4608x2592 gives 2304x1296 and the HQ camera's 4056x3040 2028x1520, their 2x2-binned modes:
    a quarter of the pixels to capture, keep and shrink again, and less noise; the 8 MP module
    (3280x2464) keeps its full size."""
    from vision.images import KEEP_LONG_SIDE

    width, height = sensor
    if max(width, height) // 2 >= KEEP_LONG_SIDE:
        # Even sizes: the ISP's output needs them.
        return (width // 2) & ~1, (height // 2) & ~1
    return width, height


class PiCamera:
    def __init__(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("picamera2 is not installed (on a Pi: deploy/install.sh)") from None
        try:
            self.camera = Picamera2()
        except (RuntimeError, IndexError, OSError) as error:
            raise CameraError(f"no Pi camera found: {error}") from None
        self.name = "pi"
        try:
            self._start()
        except Exception as error:  # held but not started: let go, or every open says busy
            self.close()
            raise CameraError(f"Pi camera would not start: {error}") from None

    def _start(self) -> None:
        config = self.camera.create_still_configuration(
            main={"format": "RGB888", "size": still_size(self.camera.sensor_resolution)},
            lores={"size": PREVIEW_SIZE, "format": "YUV420"},
            display=None,
        )
        self.camera.configure(config)
        controls: dict[str, object] = {"ExposureValue": EXPOSURE_BIAS}
        if "AfMode" in self.camera.camera_controls:
            controls["AfMode"] = 2  # continuous autofocus
        self.camera.set_controls(controls)
        self.camera.start()

    def preview(self) -> np.ndarray:
        import cv2

        try:
            yuv = self.camera.capture_array("lores")
        except RuntimeError as error:
            raise CameraError(f"Pi camera failed: {error}") from None
        bgr: np.ndarray = cv2.cvtColor(yuv, cv2.COLOR_YUV420p2BGR)
        return bgr

    def capture(self) -> np.ndarray:
        try:
            # "RGB888" in picamera2 is laid out B, G, R in memory: already OpenCV's order.
            return np.ascontiguousarray(self.camera.capture_array("main"))
        except RuntimeError as error:
            raise CameraError(f"Pi camera failed: {error}") from None

    def close(self) -> None:
        try:
            self.camera.close()
        except Exception:  # a camera that failed may fail to close too: it is let go anyway
            log.debug("closing the Pi camera", exc_info=True)
