"""Fixtures shared by the vision tests: synthetic models built once per session."""

import pytest

from tests.vision.scene import scene_models as build_scene_models


@pytest.fixture(scope="session")
def scene_models(tmp_path_factory):
    return build_scene_models(tmp_path_factory.mktemp("scene-models"))
