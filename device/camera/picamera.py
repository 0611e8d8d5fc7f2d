"""picamera2 on a Pi: a small ``lores`` stream for preview, a full-resolution still to score.

Settings suit white tiles on a table: continuous autofocus where the module has it, and exposure
biased down a little so tile faces do not burn out.
"""

from __future__ import annotations

import numpy as np

from device.camera.base import CameraError

PREVIEW_SIZE = (640, 480)
EXPOSURE_BIAS = -0.5  # EV: white tile faces clip first; keep their strokes readable


class PiCamera:
    def __init__(self) -> None:
        try:
            from picamera2 import Picamera2  # type: ignore[import-not-found]
        except ImportError:
            raise CameraError("picamera2 is not installed (on a Pi: deploy/install.sh)") from None
        try:
            self.camera = Picamera2()
        except (RuntimeError, IndexError) as error:
            raise CameraError(f"no Pi camera found: {error}") from None
        self.name = "pi"
        config = self.camera.create_still_configuration(
            main={"format": "RGB888"},
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
        self.camera.close()
