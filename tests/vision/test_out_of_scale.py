"""A weak read far bigger than the photo's tiles, or a sliver cut off at its edge, is no tile;
a sure read is kept whatever its size, and a nearly whole tile at the edge stays."""

import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair, painted_photo
from vision.out_of_scale import out_of_scale
from vision.pipeline import load_pipeline

RED, GREEN, BLUE = (200, 0, 0), (0, 200, 0), (0, 0, 200)
WIDTH, HEIGHT = 400, 200

# A row of five 40 x 60 tiles (area 2400) in a 400 x 200 photo.
ROW = [(20 + 50 * i, 20, 60 + 50 * i, 80) for i in range(5)]
BIG = (250, 90, 390, 190)  # 140 x 100: almost six tiles' area
SLIVER = (385, 20, 400, 80)  # 15 x 60 at the right edge: a quarter of a tile
WHOLE_AT_EDGE = (0, 100, 38, 160)  # 38 x 60 at the left edge: nearly a whole tile


def judged(boxes, weak):
    return out_of_scale(np.array(boxes, np.float32), np.array(weak), WIDTH, HEIGHT).tolist()


def test_a_weak_box_far_bigger_than_the_tiles_or_a_sliver_at_the_edge_is_out_of_scale():
    boxes = [*ROW, BIG, SLIVER, WHOLE_AT_EDGE]
    weak = [False] * 5 + [True, True, True]
    assert judged(boxes, weak) == [False] * 5 + [True, True, False]


def test_sure_reads_are_never_judged():
    boxes = [*ROW, BIG, SLIVER]
    assert judged(boxes, [False] * 7) == [False] * 7


def test_a_small_box_away_from_the_edge_is_a_far_tile_not_a_sliver():
    far_tile = (200, 120, 215, 180)  # as small as the sliver, but inside the frame
    assert judged([*ROW, far_tile], [False] * 5 + [True]) == [False] * 6


def test_with_few_reads_the_median_says_too_little_to_judge():
    assert judged([ROW[0], BIG, SLIVER], [False, True, True]) == [False, False, False]


def test_the_pipeline_drops_weak_reads_out_of_scale_and_keeps_the_row(tmp_path):
    # Detector score 0.3 and a sure read: confidence 0.3, a weak read that the other checks keep.
    tiles = [(box, 0.9, RED if i % 2 else GREEN) for i, box in enumerate(ROW)]
    tiles += [(BIG, 0.3, BLUE), (SLIVER, 0.3, BLUE), (WHOLE_AT_EDGE, 0.3, BLUE)]
    found = [(box, 0, score) for box, score, _ in tiles]
    folder = colour_pair(
        tmp_path / "m",
        found,
        {"1m": RED, "2p": GREEN, "3s": BLUE},
        CLASSIFIER_NAMES,
        {"detect_confidence": 0.25},
    )
    reader = load_pipeline(folder)
    photo = painted_photo(tiles, WIDTH, HEIGHT)
    kept = {tuple(round(v) for v in t.box) for t in reader.read(photo).tiles}
    assert kept == {*ROW, WHOLE_AT_EDGE}
    reader.judge_scale = False
    assert {tuple(round(v) for v in t.box) for t in reader.read(photo).tiles} == {
        *ROW,
        BIG,
        SLIVER,
        WHOLE_AT_EDGE,
    }
