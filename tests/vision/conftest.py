"""Fixtures shared by the vision tests: synthetic models built once per session."""

import pytest

from tests.vision.scene import scene_models as build_scene_models
from tests.vision.tiny_classifier import train_throwaway


@pytest.fixture(scope="session")
def scene_models(tmp_path_factory):
    return build_scene_models(tmp_path_factory.mktemp("scene-models"))


@pytest.fixture(scope="session")
def throwaway_checkpoint(tmp_path_factory):
    """A real, tiny ultralytics classifier checkpoint (tests/vision/tiny_classifier.py)."""
    return train_throwaway(tmp_path_factory.mktemp("throwaway"))
