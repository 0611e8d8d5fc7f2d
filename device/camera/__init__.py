"""Camera sources behind one interface: picamera2 on a Pi, a USB camera, or a folder of photos."""

from device.camera.base import CameraError, CameraSource, check_camera_spec, open_camera

__all__ = ["CameraError", "CameraSource", "check_camera_spec", "open_camera"]
