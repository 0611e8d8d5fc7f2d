"""A camera that fails in ways of its own (a driver's OSError, no picture, no answer at all) is
said on the display as the camera's, and the app goes on: settings, uploads and the page stay
usable while it is out."""

import threading

import numpy as np
import pytest

from device.app import web
from device.app.web import create_app


class Camera:
    """A camera whose preview does what the test says."""

    name = "test"

    def __init__(self, preview):
        self._preview = preview
        self.closed = threading.Event()

    def preview(self):
        return self._preview()

    def capture(self):
        return self._preview()

    def close(self):
        self.closed.set()


@pytest.fixture
def app(tmp_path):
    app = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{tmp_path}")
    app.config["TESTING"] = True
    return app


def with_camera(app, camera):
    state = app.config["STATE"]
    state.camera = camera
    return state


def raises(error):
    def preview():
        raise error

    return preview


@pytest.mark.parametrize(
    ("preview", "words"),
    [
        (raises(OSError(5, "Input/output error")), "camera test failed: OSError"),
        (raises(TimeoutError("frame timed out")), "camera test failed: TimeoutError"),
        (lambda: None, "camera test gave no picture"),
        (lambda: np.zeros((0, 0, 3), np.uint8), "camera test gave no picture"),
    ],
)
def test_a_camera_failing_its_own_way_is_said_as_the_cameras(app, preview, words):
    # An OSError was said as "cannot read the data folder", and None was a 500.
    camera = Camera(preview)
    state = with_camera(app, camera)
    with app.test_client() as client:
        response = client.get("/api/preview.jpg")
        assert response.status_code == 503 and words in response.get_json()["error"]
        assert words in client.get("/api/status").get_json()["camera_error"]
    assert state.camera is None and camera.closed.is_set()  # let go, to be opened again


def test_a_camera_that_stops_answering_is_given_up_and_the_app_goes_on(app, monkeypatch):
    monkeypatch.setitem(web.CAMERA_WAIT_S, False, 0.3)
    release = threading.Event()
    camera = Camera(lambda: release.wait(30))  # picamera2's capture blocking on a dead module
    state = with_camera(app, camera)
    try:
        with app.test_client() as client:
            response = client.get("/api/preview.jpg")
            assert response.status_code == 503
            assert "camera test did not answer in 0.3 s" in response.get_json()["error"]
            assert client.post("/api/context", json={"seat_wind": "S"}).status_code == 200
            assert state.camera is None
    finally:
        release.set()
    assert camera.closed.wait(5)  # closed on a thread of its own
