"""A crop cut the wrong way round (the detector took an upright tile for a sideways one, or the
other way) reads as no tile; read again a quarter turned it is the tile, and lies as it reads."""

import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair
from vision.pipeline import load_pipeline

GREY = (114, 114, 114)  # the photo's background: what the classifier calls no tile
BLUE = (0, 0, 200)
BOX = (40, 40, 100, 100)

# The classifier reads the middle cell of a crop's top third (of a 3 x 3 grid). A tile is
# painted blue with two opposite middle cells grey, so a half turn reads it alike (as the real
# classifier, which learnt tiles both ways up) and a quarter turn differently.
GREY_ABOVE_AND_BELOW = ((0, 1), (2, 1))  # (row, column) cells: reads as no tile as it stands
GREY_LEFT_AND_RIGHT = ((1, 0), (1, 2))  # reads as no tile lying on its side
ALL_BLUE = ()
ALL_GREY = tuple((r, c) for r in range(3) for c in range(3))


def photo(grey_cells):
    image = np.full((200, 400, 3), GREY[::-1], np.uint8)
    x1, y1, x2, y2 = BOX
    image[y1:y2, x1:x2] = BLUE[::-1]
    cell = (x2 - x1) // 3
    for row, column in grey_cells:
        top, left = y1 + row * cell, x1 + column * cell
        image[top : top + cell, left : left + cell] = GREY[::-1]
    return image


def read(tmp_path, grey_cells, detector_class):
    """detector_class: 0 an upright tile, 1 a sideways one."""
    folder = colour_pair(
        tmp_path / "m",
        [(BOX, detector_class, 0.9)],
        {"3s": BLUE, "not_a_tile": GREY},
        CLASSIFIER_NAMES,
        top_middle=True,
    )
    return [(t.code, t.rotated) for t in load_pipeline(folder).read(photo(grey_cells)).tiles]


def test_an_upright_guess_that_reads_as_no_tile_is_read_sideways(tmp_path):
    assert read(tmp_path, GREY_ABOVE_AND_BELOW, 0) == [("3s", True)]


def test_a_sideways_guess_that_reads_as_no_tile_is_read_upright(tmp_path):
    assert read(tmp_path, GREY_LEFT_AND_RIGHT, 1) == [("3s", False)]


def test_a_tile_read_as_cut_keeps_the_detectors_way_round(tmp_path):
    (tmp_path / "upright").mkdir()
    (tmp_path / "sideways").mkdir()
    assert read(tmp_path / "upright", ALL_BLUE, 0) == [("3s", False)]
    assert read(tmp_path / "sideways", ALL_BLUE, 1) == [("3s", True)]


def test_no_tile_either_way_round_stays_no_tile(tmp_path):
    assert read(tmp_path, ALL_GREY, 0) == []
