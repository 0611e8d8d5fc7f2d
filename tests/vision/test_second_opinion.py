"""A second classifier's read of each face-up tile flags the tiles it reads otherwise
(vision/second_opinion.py), on the known scene's synthetic models and on the shipped ones."""

import shutil
from dataclasses import replace

import pytest

from tests.cli_run import REPO
from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import PIECE_RGB, RGB, by_box, scene_photo, with_reader
from vision.detection import Detection
from vision.errors import ModelError
from vision.pipeline import load_pipeline

MAN, SOU, PIECE, BACK = (
    (25, 50, 75, 125),
    (100, 50, 200, 100),
    (300, 50, 350, 100),
    (225, 50, 275, 125),
)
UNSURE = (100, 125, 150, 175)  # 7z in a box the detector scores 0.3: flagged for its score


def with_second_opinion(models, folder, colours, **reader):
    """The scene's models and a second classifier ``opn`` that reads ``colours``."""
    shutil.copytree(models, folder)
    return with_reader(folder, "second_opinion", "opn", colours, **reader)


def test_a_tile_read_otherwise_is_flagged_with_the_second_read_first(scene_models, tmp_path):
    # The second reads 5m's red as 9m and agrees on 3s; it would read the piece's colour as a
    # tile, but pieces are not its to judge.
    colours = {"9m": RGB["5m"], "3s": RGB["3s"], "7z": RGB["7z"], "2p": RGB["2p"]}
    pipeline = load_pipeline(with_second_opinion(scene_models, tmp_path / "m", colours))
    assert [m.name for m in pipeline.models] == ["det", "cls", "opn"]
    reading = pipeline.read(scene_photo())
    tiles, alone = by_box(reading), by_box(load_pipeline(scene_models).read(scene_photo()))
    man = tiles[MAN]
    assert (man.code, man.low_confidence) == ("5m", True)  # the first read stands, questioned
    assert man.alternatives[0][0] == "9m" and man.alternatives[0][1] > 0.9
    assert man.confidence == alone[MAN].confidence  # no score changes
    assert not alone[MAN].low_confidence
    for box in (SOU, PIECE, BACK):  # agreed, a piece, a back: as read alone
        assert tiles[box] == alone[box]
    assert "second_opinion" in reading.timing_ms
    # Flagged for its low score, in a box the detector is not sure of (0.3): still asked.
    assert alone[UNSURE].low_confidence and tiles[UNSURE] == alone[UNSURE]


@pytest.mark.parametrize(
    ("detector_score", "sure_colours", "asked"),
    [
        (0.45, True, False),  # a sure box, both sure of 7z: the flag for its score taken back
        (0.3, True, True),  # a box the detector is not sure holds a tile: still asked
        (0.45, False, True),  # the second names 7z at one half only (7z and 1f look alike)
    ],
)
def test_a_flag_is_taken_back_only_where_both_agree_surely_in_a_sure_box(
    scene_models, tmp_path, detector_score, sure_colours, asked
):
    from vision.models import OnnxModel, load_info
    from vision.second_opinion import question

    colours = {"7z": RGB["7z"]} | ({} if sure_colours else {"1f": RGB["7z"]})
    folder = with_second_opinion(scene_models, tmp_path / "m", colours)
    second = OnnxModel(load_info(folder / "opn.json"))
    flagged = Detection(
        "7z", UNSURE, detector_score * 0.9, detector_score, 0.9, False, False, True, (("1z", 0.1),)
    )
    (after,) = question(scene_photo(), [flagged], second, sure_box=0.4)
    assert after == replace(flagged, low_confidence=asked)


def test_red_fives_are_folded_as_the_first_reads_are(scene_models, tmp_path):
    pipeline = load_pipeline(with_second_opinion(scene_models, tmp_path / "m", {"0m": RGB["5m"]}))
    assert by_box(pipeline.read(scene_photo()))[MAN].alternatives[0][0] == "0m"  # a red five?
    plain = by_box(pipeline.read(scene_photo(), red_fives=False))[MAN]
    assert plain.code == "5m" and not plain.low_confidence  # a set without red fives: agreed


def test_a_rule_set_without_flowers_hears_no_flower_from_the_second(scene_models, tmp_path):
    near = tuple(v + 6 for v in RGB["5m"])  # the second's 5m, a little off: 1f first
    colours = {"1f": RGB["5m"], "5m": near}
    pipeline = load_pipeline(with_second_opinion(scene_models, tmp_path / "m", colours))
    assert by_box(pipeline.read(scene_photo()))[MAN].alternatives[0][0] == "1f"  # a flower?
    plain = by_box(pipeline.read(scene_photo(), flowers=False))[MAN]
    assert plain.code == "5m" and not plain.low_confidence  # no flowers in play: agreed


def test_a_second_opinion_with_other_classes_or_input_is_refused(scene_models, tmp_path):
    fewer = with_second_opinion(scene_models, tmp_path / "a", {}, names=CLASSIFIER_NAMES[:-1])
    with pytest.raises(ModelError, match="opn reads other classes than cls: a reader that is a "):
        load_pipeline(fewer)
    bigger = with_second_opinion(scene_models, tmp_path / "b", {}, size=48)
    with pytest.raises(ModelError, match="opn takes other crops than cls"):
        load_pipeline(bigger)


def test_a_second_opinion_named_but_missing_is_a_clear_error(scene_models, tmp_path):
    folder = with_second_opinion(scene_models, tmp_path / "m", PIECE_RGB)
    (folder / "opn.json").unlink()
    with pytest.raises(ModelError, match=r"opn\.json"):
        load_pipeline(folder)


def test_the_shipped_folder_names_a_second_opinion_trained_apart():
    pipeline = load_pipeline(REPO / "models", threads=1)
    assert pipeline.second_opinion is not None and pipeline.classifier is not None
    second, first = pipeline.second_opinion.info, pipeline.classifier.info
    assert second.onnx_path != first.onnx_path
    assert [c.name for c in second.classes] == [c.name for c in first.classes]
    assert "second opinion" in second.metadata["role"]
