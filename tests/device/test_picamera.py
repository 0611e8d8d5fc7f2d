"""The Pi camera source against a stand-in for picamera2 (no Pi camera here): the still's size."""

import sys
import types

import numpy as np
import pytest

from device.camera.picamera import still_size


@pytest.mark.parametrize(
    ("sensor", "still"),
    [
        ((4608, 2592), (2304, 1296)),  # Camera Module 3: its 2x2-binned mode
        ((4056, 3040), (2028, 1520)),  # HQ camera
        ((3280, 2464), (3280, 2464)),  # 8 MP module: half would be under 2000 pixels
        ((1920, 1080), (1920, 1080)),
    ],
)
def test_the_still_is_halved_only_while_half_keeps_what_the_models_read(sensor, still):
    assert still_size(sensor) == still


class FakePicamera2:
    """picamera2's calls the source makes, recorded; frames of the configured size."""

    sensor_resolution = (4608, 2592)

    def __init__(self):
        self.camera_controls = {"AfMode": None}
        self.config = None
        self.controls = {}

    def create_still_configuration(self, main, lores, display):
        return {"main": dict(main), "lores": dict(lores)}

    def configure(self, config):
        self.config = config

    def set_controls(self, controls):
        self.controls.update(controls)

    def start(self):
        pass

    def capture_array(self, stream):
        width, height = self.config[stream]["size"]
        return np.zeros((height, width, 3), np.uint8)

    def close(self):
        pass


def test_the_pi_camera_asks_for_the_binned_still_and_returns_it(monkeypatch):
    monkeypatch.setitem(sys.modules, "picamera2", types.SimpleNamespace(Picamera2=FakePicamera2))
    from device.camera.picamera import PiCamera

    camera = PiCamera()
    assert camera.camera.config["main"] == {"format": "RGB888", "size": (2304, 1296)}
    assert camera.capture().shape == (1296, 2304, 3)
    assert camera.camera.controls["AfMode"] == 2
