"""A weak box beside a confident tile of its size is kept, if the classifier reads it surely;
a weak box alone, too big, over a confident box, or read unsurely is not."""

import json

import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair, painted_photo
from vision.pipeline import SURE_BOX, SURE_BOX_MIN_READ, load_pipeline
from vision.weak_boxes import beside_confident, inside_surer

RED, GREEN, BLUE = (200, 0, 0), (0, 200, 0), (0, 0, 200)
UNSURE = (67, 67, 67)  # as far from red, green and blue: a third each

# A 400 x 200 photo: (box, detector score, RGB painted there). Tiles 40 x 60, 10 apart.
CONFIDENT_A = ((20, 20, 60, 80), 0.9, RED)
CONFIDENT_B = ((70, 20, 110, 80), 0.9, GREEN)
BESIDE_B = ((120, 20, 160, 80), 0.05, BLUE)  # the next tile of the row
BELOW_A = ((20, 90, 60, 150), 0.05, UNSURE)  # end to end with A, but read unsurely
ALONE = ((300, 20, 340, 80), 0.05, BLUE)  # nothing confident beside it
ROW = (CONFIDENT_A, CONFIDENT_B, BESIDE_B, BELOW_A, ALONE)


def boxes_of(tiles):
    return np.array([box for box, _, _ in tiles], np.float32)


def test_weak_boxes_beside_a_confident_tile_side_by_side_or_end_to_end_are_kept():
    confident = np.array([True, True, False, False, False])
    kept = beside_confident(boxes_of(ROW), confident)
    assert kept.tolist() == [True, True, True, True, False]


def test_a_weak_box_too_big_or_over_a_confident_one_is_not():
    twice_as_long = (120, 20, 240, 80)  # touches B, three tiles' area
    across_two = (40, 20, 90, 80)  # half of A and half of B
    boxes = np.array([CONFIDENT_A[0], CONFIDENT_B[0], twice_as_long, across_two], np.float32)
    kept = beside_confident(boxes, np.array([True, True, False, False]))
    assert kept.tolist() == [True, True, False, False]


def test_without_a_confident_box_no_weak_box_is_kept():
    kept = beside_confident(boxes_of(ROW), np.zeros(len(ROW), bool))
    assert not kept.any()


def models(folder, tiles, neighbour_confidence):
    facts = {"detect_confidence": 0.25}
    if neighbour_confidence is not None:
        facts["neighbour_confidence"] = neighbour_confidence
    found = [(box, 0, score) for box, score, _ in tiles]
    colours = {"1m": RED, "2p": GREEN, "3s": BLUE}
    return colour_pair(folder, found, colours, CLASSIFIER_NAMES, facts)


def test_the_pipeline_keeps_a_weak_tile_beside_the_row_when_the_detector_says_so(tmp_path):
    with_floor = load_pipeline(models(tmp_path / "on", ROW, 0.03)).read(painted_photo(ROW)).tiles
    assert [(t.code, tuple(round(v) for v in t.box)) for t in with_floor] == [
        ("1m", CONFIDENT_A[0]),
        ("2p", CONFIDENT_B[0]),
        ("3s", BESIDE_B[0]),
    ]
    assert with_floor[2].detector_confidence < 0.25
    without = load_pipeline(models(tmp_path / "off", ROW, None)).read(painted_photo(ROW)).tiles
    assert [t.code for t in without] == ["1m", "2p"]


def test_a_weak_read_mostly_inside_a_surer_tile_is_that_tile_again():
    tile = (100, 100, 160, 180)  # 60 x 80
    half_face = (100, 100, 160, 150)  # all of it inside the tile
    half_out = (130, 100, 190, 180)  # half of it inside: a tile in a pile, partly covered
    boxes = np.array([tile, half_face, half_out], np.float32)
    weak = np.array([False, True, True])
    assert inside_surer(boxes, np.array([0.9, 0.3, 0.3]), weak).tolist() == [False, True, False]
    # Only a surer tile swallows a box: under a weaker one, or when the box is sure, it stays.
    assert not inside_surer(boxes, np.array([0.2, 0.3, 0.3]), weak).any()
    assert not inside_surer(boxes, np.array([0.9, 0.8, 0.8]), np.zeros(3, bool)).any()


def test_the_pipeline_drops_a_weak_read_inside_a_surer_tile(tmp_path):
    # IoU 0.47 with the tile, so NMS keeps both; 70% of the weak box lies inside the tile.
    again = ((20, 45, 60, 95), 0.3, RED)
    beside = ((70, 20, 110, 80), 0.3, GREEN)  # as weak, beside the tile: stays
    tiles = (CONFIDENT_A, again, beside)
    found = load_pipeline(models(tmp_path / "m", tiles, None)).read(painted_photo(tiles)).tiles
    assert [(t.code, tuple(round(v) for v in t.box)) for t in found] == [
        ("1m", CONFIDENT_A[0]),
        ("2p", beside[0]),
    ]


def test_a_box_read_as_no_tile_in_particular_is_dropped_when_the_classifier_says_so(tmp_path):
    unsure_tile = (CONFIDENT_B[0], 0.3, UNSURE)  # over the threshold, under SURE_BOX
    tiles = (CONFIDENT_A, unsure_tile)
    without = load_pipeline(models(tmp_path / "off", tiles, None)).read(painted_photo(tiles)).tiles
    assert len(without) == 2 and without[1].low_confidence
    assert 0.3 < without[1].classifier_confidence < 0.4
    kept = load_pipeline(asking(models(tmp_path / "on", tiles, None), 0.5))
    assert [
        (t.code, tuple(round(v) for v in t.box)) for t in kept.read(painted_photo(tiles)).tiles
    ] == [("1m", CONFIDENT_A[0])]


def test_a_box_the_detector_is_sure_of_needs_less_of_the_classifier(tmp_path):
    sure_box = (CONFIDENT_B[0], SURE_BOX, UNSURE)  # read at about a third
    tiles = (CONFIDENT_A, sure_box)
    reader = load_pipeline(asking(models(tmp_path / "sure", tiles, None), 0.5))
    found = reader.read(painted_photo(tiles)).tiles
    assert len(found) == 2 and found[1].low_confidence  # kept, for a person to confirm
    assert found[0].code == "1m" and tuple(round(v) for v in found[1].box) == CONFIDENT_B[0]
    assert SURE_BOX_MIN_READ < found[1].classifier_confidence < 0.5
    # A metadata floor already under SURE_BOX_MIN_READ is not raised.
    low_floor = load_pipeline(asking(models(tmp_path / "low", tiles, None), 0.1))
    assert len(low_floor.read(painted_photo(tiles)).tiles) == 2


def asking(folder, floor):
    """The model folder with its classifier's ``min_read_confidence`` set to ``floor``."""
    meta = folder / "cls.json"
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "min_read_confidence": floor}))
    return folder
