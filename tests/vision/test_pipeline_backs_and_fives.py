"""Three reading choices: a classifier with a ``back`` class judges the detector's face-down boxes,
a tile set without red fives reads a red-painted five as a plain five, and a rule set without
flowers reads no tile as a flower."""

import numpy as np
import pytest

from tests.vision.onnx_fixtures import (
    CLASSIFIER_NAMES,
    detector_row,
    single_stage_models,
)
from tests.vision.scene import colour_pair, painted_photo, to_input, with_reader
from vision.pipeline import load_pipeline

BLANK = (235, 235, 230)  # a plain white 白
BACK = (220, 180, 30)  # a yellow tile back
RED_FIVE = (210, 40, 40)
NAMES_WITH_BACK = CLASSIFIER_NAMES + ("back",)

# box in the photo, detector class (0 tile, 2 back), RGB painted there
TILES = (
    ((25, 50, 75, 125), 2, BLANK),  # the detector calls a blank white dragon a back
    ((100, 50, 150, 125), 2, BACK),  # a real back
    ((175, 50, 225, 125), 0, BACK),  # the detector calls a back a face-up tile
    ((250, 50, 300, 125), 0, RED_FIVE),
)


def photo():
    return painted_photo(TILES)


def models(folder, names):
    colours = {"5z": BLANK, "0m": RED_FIVE, "not_a_tile": (114, 114, 114)}
    if "back" in names:
        colours["back"] = BACK
    return colour_pair(folder, [(box, cls, 0.9) for box, cls, _ in TILES], colours, names)


def read(folder, **options):
    return [
        ("back" if t.face_down else t.code)
        for t in load_pipeline(folder).read(photo(), **options).tiles
    ]


def test_a_classifier_with_a_back_class_overrules_the_detector_on_backs(tmp_path):
    folder = models(tmp_path / "with_back", NAMES_WITH_BACK)
    assert read(folder) == ["5z", "back", "back", "0m"]
    tiles = load_pipeline(folder).read(photo()).tiles
    assert tiles[1].classifier_confidence == pytest.approx(1.0, abs=0.01)
    assert tiles[1].detector_confidence == pytest.approx(0.9)


def test_a_classifier_without_a_back_class_leaves_backs_to_the_detector(tmp_path):
    folder = models(tmp_path / "no_back", CLASSIFIER_NAMES)
    # the blank stays a back (nothing reads it); the back called a tile is nearest to 5z's white
    assert read(folder)[:2] == ["back", "back"]


def test_a_set_without_red_fives_reads_a_red_five_as_a_five(tmp_path):
    folder = models(tmp_path / "fives", NAMES_WITH_BACK)
    assert read(folder, red_fives=False)[-1] == "5m"
    assert read(folder, red_fives=True)[-1] == "0m"
    fives = load_pipeline(folder).read(photo(), red_fives=False).tiles[-1]
    assert fives.classifier_confidence == pytest.approx(1.0, abs=0.01)  # 0m's share moved to 5m


def test_a_rule_set_without_flowers_reads_a_flower_like_face_as_its_runner_up(tmp_path):
    bird = (120, 160, 90)  # a face the classifier takes for 1f first, 1s a close second
    tiles = (((25, 50, 75, 125), 0, bird),)
    colours = {"1f": bird, "1s": (128, 168, 98), "not_a_tile": (114, 114, 114)}
    folder = colour_pair(
        tmp_path / "m", [(box, cls, 0.9) for box, cls, _ in tiles], colours, NAMES_WITH_BACK
    )
    image = painted_photo(tiles)
    (with_flowers,) = load_pipeline(folder).read(image).tiles
    (without,) = load_pipeline(folder).read(image, flowers=False).tiles
    assert with_flowers.code == "1f"
    assert without.code == "1s"
    assert with_flowers.alternatives[0][0] == "1s"
    # Weighed among the tiles it may be, where the flower's share is no evidence of either, and
    # asked about however sure that is: the classifier saw something else first.
    assert without.classifier_confidence > 0.99 and without.alternatives == ()
    assert without.low_confidence and not with_flowers.low_confidence


def test_a_sure_flower_stays_one_and_a_second_opinion_does_not_unask_a_flower_face(tmp_path):
    bird, flower = (120, 160, 90), (200, 60, 160)
    tiles = (((25, 50, 75, 125), 0, bird), ((100, 50, 150, 125), 0, flower))
    colours = {"1f": bird, "2f": flower, "1s": (128, 168, 98), "not_a_tile": (114, 114, 114)}
    found = [(box, cls, 0.9) for box, cls, _ in tiles]
    folder = with_reader(
        colour_pair(tmp_path / "m", found, colours, NAMES_WITH_BACK),
        "second_opinion",
        "opn",
        colours,
        names=NAMES_WITH_BACK,
    )
    face, sure = load_pipeline(folder).read(painted_photo(tiles), flowers=False).tiles
    # The second reads the bird as 1s too, surely, in a box the detector is sure of: it would
    # take back a flag for a low score, not the one for a face taken for a flower.
    assert (face.code, face.low_confidence) == ("1s", True)
    # A flower read this surely is one left on the table: the layout sets it aside.
    assert sure.code == "2f" and sure.classifier_confidence > 0.97


def test_a_flower_face_is_read_as_the_second_opinions_sure_tile(tmp_path):
    # The classifier takes the bird for 1f, 8s its runner-up; the second opinion, trained apart,
    # reads 1s surely: the runner-up to a wrong read is the weaker evidence (IMG_3102).
    bird = (120, 160, 90)
    tiles = (((25, 50, 75, 125), 0, bird),)
    first = {"1f": bird, "8s": (128, 168, 98), "not_a_tile": (114, 114, 114)}
    found = [(box, cls, 0.9) for box, cls, _ in tiles]
    folder = with_reader(
        colour_pair(tmp_path / "m", found, first, NAMES_WITH_BACK),
        "second_opinion",
        "opn",
        {"1s": bird},
        names=NAMES_WITH_BACK,
    )
    (tile,) = load_pipeline(folder).read(painted_photo(tiles), flowers=False).tiles
    assert (tile.code, tile.low_confidence) == ("1s", True)
    assert tile.alternatives[0][0] == "8s"  # the classifier's read, for the display to offer
    assert tile.confidence == pytest.approx(tile.detector_confidence * tile.classifier_confidence)


def test_single_stage_red_fives_fold_too(tmp_path):
    rows = np.array([detector_row(to_input((25, 50, 75, 125)), 1, 0.9, classes=2)])
    folder = single_stage_models(tmp_path, rows, ["5p", "0p"])
    assert [t.code for t in load_pipeline(folder).read(photo()).tiles] == ["0p"]
    assert [t.code for t in load_pipeline(folder).read(photo(), red_fives=False).tiles] == ["5p"]


def _flower_or_bird(score_1f):
    """A single-stage detector (classes 1s, 1f) that takes one box for 1f at ``score_1f``, 1s
    its runner-up at 0.6."""
    row = detector_row(to_input((25, 50, 75, 125)), 1, score_1f, classes=2)
    row[4] = 0.6  # the 1s score
    return np.array([row])


def test_a_single_stage_detector_reads_no_flower_where_none_is_in_play(tmp_path):
    # The baseline's classes are tile codes: its flower classes are read past as the
    # classifier's are, the runner-up read and asked about.
    pipeline = load_pipeline(single_stage_models(tmp_path, _flower_or_bird(0.9), ["1s", "1f"]))
    assert [t.code for t in pipeline.read(photo()).tiles] == ["1f"]
    (tile,) = pipeline.read(photo(), flowers=False).tiles
    assert (tile.code, tile.low_confidence) == ("1s", True)
    assert tile.confidence == pytest.approx(0.9)  # the box's own score: a tile lies there


def test_a_single_stage_box_taken_for_a_flower_is_kept_whatever_its_runner_up_scores(tmp_path):
    # Read at its runner-up's score, under the detector's floor, the box was dropped (helper 62).
    rows = _flower_or_bird(0.9)
    rows[0][4] = 0.001
    pipeline = load_pipeline(single_stage_models(tmp_path, rows, ["1s", "1f"]))
    (tile,) = pipeline.read(photo(), flowers=False).tiles
    assert (tile.code, tile.low_confidence) == ("1s", True)


def test_a_single_stage_detector_keeps_a_sure_flower_where_none_is_in_play(tmp_path):
    # One left on the table: read as a flower, for the layout to set aside.
    pipeline = load_pipeline(single_stage_models(tmp_path, _flower_or_bird(0.99), ["1s", "1f"]))
    (tile,) = pipeline.read(photo(), flowers=False).tiles
    assert (tile.code, tile.low_confidence) == ("1f", False)
