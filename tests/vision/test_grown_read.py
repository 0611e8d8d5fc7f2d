"""A sure box the classifier calls no tile is read again from a slightly larger box: a box drawn
a few pixels short of the face cuts off what makes it a tile."""

import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair
from vision import pipeline as pipeline_module
from vision.boxes import grown
from vision.pipeline import load_pipeline

RED = (200, 30, 30)  # 5m to the colour classifier
NOT_A_TILE = (90, 60, 30)
INSIDE = (140, 47, 30)  # nearer to "no tile" than to 5m: the box alone reads no tile
EDGE = (255, 0, 30)  # the face's edge, just outside the box: with it the crop reads 5m
BOX = (100, 50, 140, 110)  # 40 x 60; grown by 5% a side it takes 2 and 3 pixels of edge


def photo() -> np.ndarray:
    image = np.full((200, 400, 3), 114, np.uint8)
    image[45:115, 96:144] = EDGE[::-1]  # BGR
    image[50:110, 100:140] = INSIDE[::-1]
    return image


def reader(folder, score):
    colours = {"5m": RED, "not_a_tile": NOT_A_TILE}
    return load_pipeline(colour_pair(folder, [(BOX, 0, score)], colours, CLASSIFIER_NAMES))


def test_grown_takes_a_share_of_the_box_on_each_side():
    assert grown((100, 50, 140, 110), 0.05) == (98, 47, 142, 113)
    assert grown((100, 50, 140, 110), 0.0) == (100, 50, 140, 110)


def test_a_sure_box_read_as_no_tile_is_read_from_a_grown_box(tmp_path, monkeypatch):
    tiles = reader(tmp_path / "sure", 0.9).read(photo()).tiles
    assert [t.code for t in tiles] == ["5m"]
    # The box stays the detector's: only the read looked wider.
    assert tuple(round(v) for v in tiles[0].box) == BOX
    monkeypatch.setattr(pipeline_module, "GROWN_BY", 0.0)
    assert reader(tmp_path / "as_drawn", 0.9).read(photo()).tiles == ()


def test_an_unsure_box_read_as_no_tile_stays_dropped(tmp_path):
    # Over the threshold (0.25), under SURE_BOX: the detector's doubt and the classifier's agree.
    assert reader(tmp_path / "unsure", 0.3).read(photo()).tiles == ()
