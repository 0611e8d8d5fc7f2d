"""A USB camera through OpenCV: the same pipeline on a laptop."""

from __future__ import annotations

import cv2
import numpy as np

from device.camera.base import CameraError, preview_size


class UsbCamera:
    def __init__(self, index: int) -> None:
        self.name = f"usb:{index}"
        self.capture_device = cv2.VideoCapture(index)
        if not self.capture_device.isOpened():
            raise CameraError(f"USB camera {index} cannot be opened (unplugged or in use?)")
        # Ask for the largest frame the camera gives; it clamps to what it supports.
        self.capture_device.set(cv2.CAP_PROP_FRAME_WIDTH, 4096)
        self.capture_device.set(cv2.CAP_PROP_FRAME_HEIGHT, 3072)

    def _frame(self) -> np.ndarray:
        ok, frame = self.capture_device.read()
        if not ok or frame is None:
            raise CameraError(f"USB camera {self.name} gave no frame (unplugged?)")
        return frame

    def preview(self) -> np.ndarray:
        return preview_size(self._frame(), interpolation=cv2.INTER_LINEAR)

    def capture(self) -> np.ndarray:
        # Drop a buffered frame so the still is taken now, not when the last preview was.
        self.capture_device.grab()
        return self._frame()

    def close(self) -> None:
        self.capture_device.release()
