"""Fixtures shared by the table app's tests."""

import pytest

from device.app.web import create_app


@pytest.fixture
def bare_client(tmp_path):
    """The app on a real store, with no models and no camera: a draw reads no photo."""
    app = create_app(tmp_path / "data", tmp_path / "no-models", "dir:/nowhere")
    app.config["TESTING"] = True
    with app.test_client() as client:
        yield client
