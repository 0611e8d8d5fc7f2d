"""The whole pipeline on synthetic ONNX models whose answers are known exactly."""

import json

import numpy as np
import pytest

from tests.vision.onnx_fixtures import (
    colour_classifier,
    detector_row,
    single_stage_models,
    two_stage_models,
    write_metadata,
)
from tests.vision.scene import (
    HEIGHT,
    NOT_A_TILE_RGB,
    PIECE_RGB,
    RGB,
    WIDTH,
    by_box,
    scene_photo,
    to_input,
    with_reader,
)
from vision.errors import ModelError
from vision.pipeline import load_pipeline


@pytest.fixture
def models(scene_models):
    return scene_models


def test_two_stage_reading_of_a_known_scene(models):
    reading = load_pipeline(models).read(scene_photo())
    tiles = by_box(reading)
    assert set(tiles) == {
        (25, 50, 75, 125),
        (100, 50, 200, 100),
        (225, 50, 275, 125),
        (300, 50, 350, 100),
        (100, 125, 150, 175),
    }
    man = tiles[(25, 50, 75, 125)]
    assert (man.code, man.face_down, man.rotated, man.low_confidence) == ("5m", False, False, False)
    assert man.detector_confidence == pytest.approx(0.9)
    assert man.confidence == pytest.approx(0.9 * man.classifier_confidence)
    sideways = tiles[(100, 50, 200, 100)]
    assert (sideways.code, sideways.rotated) == ("3s", True)
    back = tiles[(225, 50, 275, 125)]
    assert (back.code, back.face_down) == (None, True)
    assert tiles[(300, 50, 350, 100)].code == "1r"  # a piece box is read among pieces only
    unsure = tiles[(100, 125, 150, 175)]
    assert (unsure.code, unsure.low_confidence) == ("7z", True)


def test_timings_cover_every_stage(models):
    timing = load_pipeline(models).read(scene_photo()).timing_ms
    assert {"letterbox", "detector", "nms", "crops", "classifier", "total"} <= set(timing)
    assert timing["total"] >= timing["detector"]


def test_reading_order_is_rows_then_left_to_right(models):
    codes = [t.code for t in load_pipeline(models).read(scene_photo()).tiles]
    assert codes == ["5m", "3s", None, "1r", "7z"]


def test_boxes_are_clipped_to_the_photo(tmp_path):
    rows = np.array(
        [detector_row([-8, 10, 20, 40], 0, 0.9), detector_row([50, 30, 70, 50], 0, 0.9)]
    )
    folder = two_stage_models(tmp_path, rows, {"1m": (114, 114, 114)})
    boxes = [t.box for t in load_pipeline(folder).read(scene_photo()).tiles]
    for x1, y1, x2, y2 in boxes:
        assert 0 <= x1 < x2 <= WIDTH and 0 <= y1 < y2 <= HEIGHT


def test_an_empty_table_reads_no_tiles(tmp_path):
    folder = two_stage_models(tmp_path, np.zeros((3, 9)), {"1m": (0, 0, 0)})
    reading = load_pipeline(folder).read(scene_photo())
    assert reading.tiles == ()


def test_static_batch_classifier_is_run_one_crop_at_a_time(models, tmp_path):
    static = tmp_path / "static"
    static.mkdir()
    for name in ("det.onnx", "det.json", "cls.json", "default.json"):
        (static / name).write_bytes((models / name).read_bytes())
    colour_classifier(
        static / "cls.onnx", RGB | PIECE_RGB | {"not_a_tile": NOT_A_TILE_RGB}, batch=1
    )
    pipeline = load_pipeline(static)
    assert not pipeline.classifier.dynamic_batch
    codes = [t.code for t in pipeline.read(scene_photo()).tiles]
    assert codes == ["5m", "3s", None, "1r", "7z"]


def test_single_stage_detector_reads_codes_without_a_classifier(tmp_path):
    rows = np.array(
        [
            detector_row(to_input((25, 50, 75, 125)), 1, 0.9, classes=3),
            detector_row(to_input((100, 50, 150, 125)), 2, 0.4, classes=3),
        ]
    )
    folder = single_stage_models(tmp_path, rows, ["1m", "2m", "9s"])
    pipeline = load_pipeline(folder)
    assert pipeline.classifier is None
    tiles = pipeline.read(scene_photo()).tiles
    assert [(t.code, t.low_confidence) for t in tiles] == [("2m", False), ("9s", True)]
    assert tiles[0].box == pytest.approx((25, 50, 75, 125))


def test_one_session_per_process(models):
    assert load_pipeline(models) is load_pipeline(models)


def test_missing_default_json(tmp_path):
    with pytest.raises(ModelError, match=r"default.json is missing"):
        load_pipeline(tmp_path)


def test_missing_onnx_file(models, tmp_path):
    (tmp_path / "det.json").write_text((models / "det.json").read_text())
    (tmp_path / "default.json").write_text((models / "default.json").read_text())
    with pytest.raises(ModelError, match=r"det.onnx.*is missing"):
        load_pipeline(tmp_path)


def test_class_count_must_match_the_output(models, tmp_path):
    (tmp_path / "det.onnx").write_bytes((models / "det.onnx").read_bytes())
    meta = json.loads((models / "det.json").read_text())
    write_metadata(tmp_path, "det", "detect", 64, meta["classes"][:4])
    with pytest.raises(ModelError, match=r"outputs 9 values per box .* lists 4 classes"):
        load_pipeline(detector_meta=tmp_path / "det.json", classifier_meta=models / "cls.json")


def test_input_size_must_match(models, tmp_path):
    (tmp_path / "det.onnx").write_bytes((models / "det.onnx").read_bytes())
    meta = json.loads((models / "det.json").read_text())
    write_metadata(tmp_path, "det", "detect", 640, meta["classes"])
    with pytest.raises(ModelError, match=r"takes 64x64 images but its metadata says 640x640"):
        load_pipeline(detector_meta=tmp_path / "det.json", classifier_meta=models / "cls.json")


def test_class_names_must_match_the_onnx(models, tmp_path):
    (tmp_path / "det.onnx").write_bytes((models / "det.onnx").read_bytes())
    meta = json.loads((models / "det.json").read_text())
    classes = meta["classes"][::-1]
    write_metadata(tmp_path, "det", "detect", 64, classes)
    with pytest.raises(ModelError, match=r"do not belong together"):
        load_pipeline(detector_meta=tmp_path / "det.json", classifier_meta=models / "cls.json")


def test_a_broken_onnx_file(models, tmp_path):
    (tmp_path / "det.onnx").write_bytes(b"not a model")
    (tmp_path / "det.json").write_text((models / "det.json").read_text())
    with pytest.raises(ModelError, match=r"cannot be loaded") as error:
        load_pipeline(detector_meta=tmp_path / "det.json", classifier_meta=models / "cls.json")
    assert "\n" not in str(error.value)


def test_metadata_that_is_not_json(tmp_path):
    (tmp_path / "det.json").write_text("{")
    with pytest.raises(ModelError, match=r"not valid JSON"):
        load_pipeline(detector_meta=tmp_path / "det.json")


def _with_detector_facts(models, folder, **facts):
    """A copy of the scene's model folder whose detector metadata also says ``facts``."""
    folder.mkdir()
    for path in models.iterdir():
        (folder / path.name).write_bytes(path.read_bytes())
    meta = json.loads((folder / "det.json").read_text())
    (folder / "det.json").write_text(json.dumps({**meta, **facts}))
    return folder


def test_the_detector_metadata_sets_its_own_score_threshold(models, tmp_path):
    # the scene's boxes score 0.1 to 0.95
    pipeline = load_pipeline(_with_detector_facts(models, tmp_path / "own", detect_confidence=0.88))
    assert pipeline.detect_confidence == 0.88
    assert [t.code for t in pipeline.read(scene_photo()).tiles] == ["5m", "1r"]
    assert load_pipeline(models).detect_confidence == 0.25  # none named: the default


def test_the_detector_metadata_sets_the_score_a_back_needs(models, tmp_path):
    # A back is a plain block of colour: the classifier vouches for little, so the detector
    # must find it at its own score (the scene's back scores 0.8, every face stays).
    codes = [t.code for t in load_pipeline(models).read(scene_photo()).tiles]
    assert load_pipeline(models).back_confidence == 0.0  # none named: every back is kept
    for back_score, expected in ((0.79, codes), (0.81, [c for c in codes if c is not None])):
        own = _with_detector_facts(
            models, tmp_path / f"own{back_score}", back_confidence=back_score
        )
        assert [t.code for t in load_pipeline(own).read(scene_photo()).tiles] == expected


@pytest.mark.parametrize(
    ("facts", "said"),
    [
        # "abc" and null were a traceback as the pipeline started; 2, -1 and NaN a threshold
        # no box passes (or every box does), taken without a word.
        ({"detect_confidence": "abc"}, 'detect_confidence must be a number from 0 to 1, got "abc"'),
        ({"detect_confidence": None}, "detect_confidence must be a number from 0 to 1, got null"),
        ({"detect_confidence": 2}, "detect_confidence must be a number from 0 to 1, got 2"),
        ({"detect_confidence": float("nan")}, "detect_confidence must be a number from 0 to 1"),
        ({"back_confidence": -1}, "back_confidence must be a number from 0 to 1, got -1"),
        ({"neighbour_confidence": True}, "neighbour_confidence must be a number from 0 to 1"),
        ({"zoom_below": "52"}, 'zoom_below must be a tile size in pixels, 0 or more, got "52"'),
        ({"zoom_below": -52}, "zoom_below must be a tile size in pixels, 0 or more, got -52"),
    ],
)
def test_a_threshold_in_the_metadata_that_is_no_score_names_the_file_and_key(
    models, tmp_path, facts, said
):
    own = _with_detector_facts(models, tmp_path / "own", **facts)
    with pytest.raises(ModelError) as error:
        load_pipeline(own)
    assert str(error.value).startswith(f"model metadata {str(own / 'det.json')!r}: {said}")
    assert "\n" not in str(error.value)


def test_a_classifier_reads_with_its_own_floor_and_a_bad_one_names_the_file(models, tmp_path):
    own = _with_detector_facts(models, tmp_path / "own")
    meta = json.loads((own / "cls.json").read_text())
    (own / "cls.json").write_text(json.dumps({**meta, "min_read_confidence": 0.3}))
    assert load_pipeline(own).min_read_confidence == 0.3
    (own / "cls.json").write_text(json.dumps({**meta, "min_read_confidence": 30}))
    with pytest.raises(ModelError, match=r"cls\.json'?: min_read_confidence must be a number"):
        load_pipeline(own)


def test_a_class_code_that_is_no_tile_code_names_the_file(models, tmp_path):
    # It was "unknown tile code 'zz'" as the pipeline started, naming no file.
    own = _with_detector_facts(models, tmp_path / "own")
    meta = json.loads((own / "cls.json").read_text())
    first = meta["classes"][0]
    meta["classes"][0] = {**first, "code": "zz"}
    (own / "cls.json").write_text(json.dumps(meta))
    with pytest.raises(ModelError) as error:
        load_pipeline(own)
    assert str(own / "cls.json") in str(error.value)
    assert f"class {first['name']!r} has code 'zz', no tile code" in str(error.value)


def _with_piece_reader(folder, colours, **reader):
    """The scene's folder with a piece reader that reads crops by ``colours``."""
    return with_reader(folder, "pieces", "pcs", colours, **reader)


def test_a_piece_reader_reads_the_piece_boxes_and_the_classifier_every_other(models, tmp_path):
    import shutil

    from tests.vision.scene import RGB as PAINTED

    folder = tmp_path / "with-pieces"
    shutil.copytree(models, folder)
    # The piece box is painted 2p's colour: the classifier reads it as 1r (the piece nearest
    # in colour), a piece reader that knows that colour as 5b reads it as 5b. Its reads of
    # tiles (5m's colour as 6b) must never reach a tile box.
    _with_piece_reader(folder, {"5b": PAINTED["2p"], "6b": PAINTED["5m"]})
    pipeline = load_pipeline(folder)
    assert [m.name for m in pipeline.models] == ["det", "cls", "pcs"]
    tiles = by_box(pipeline.read(scene_photo()))
    assert tiles[(300, 50, 350, 100)].code == "5b"
    assert tiles[(25, 50, 75, 125)].code == "5m"
    assert tiles[(100, 50, 200, 100)].code == "3s"
    before = by_box(load_pipeline(models).read(scene_photo()))
    assert before[(300, 50, 350, 100)].code == "1r"


def test_a_piece_reader_with_other_classes_or_input_is_refused(models, tmp_path):
    import shutil

    from tests.vision.onnx_fixtures import CLASSIFIER_NAMES

    other_classes = tmp_path / "other-classes"
    shutil.copytree(models, other_classes)
    _with_piece_reader(other_classes, {"5b": (0, 0, 0)}, names=[*CLASSIFIER_NAMES[:-1]])
    with pytest.raises(ModelError, match="pcs reads other classes than cls"):
        load_pipeline(other_classes)
    other_size = tmp_path / "other-size"
    shutil.copytree(models, other_size)
    _with_piece_reader(other_size, {"5b": (0, 0, 0)}, size=48)
    with pytest.raises(ModelError, match="pcs takes other crops than cls"):
        load_pipeline(other_size)


def test_a_piece_reader_named_but_missing_is_a_clear_error(models, tmp_path):
    import shutil

    folder = tmp_path / "missing"
    shutil.copytree(models, folder)
    default = json.loads((folder / "default.json").read_text())
    (folder / "default.json").write_text(json.dumps({**default, "pieces": "gone.json"}))
    with pytest.raises(ModelError, match=r"gone\.json"):
        load_pipeline(folder)
    (folder / "default.json").write_text(json.dumps({**default, "pieces": 3}))
    with pytest.raises(ModelError, match="pieces must name a file"):
        load_pipeline(folder)


def test_an_unsure_piece_is_read_again_a_quarter_turned_each_way(tmp_path):
    """A round piece lies at any angle: the piece reader reads an unsure piece at the four
    quarter turns. Painted so that upright and turned round it is half 5b, half 6b (the top
    middle the reader looks at is halfway between their colours) and a quarter turned either
    way it is 6b: the quarter turns decide 6b, where the half turn alone would tie (and the
    tie would go to 5b, the first of the two)."""
    from tests.vision.onnx_fixtures import CLASSIFIER_NAMES, classifier_classes, colour_classifier
    from tests.vision.scene import colour_pair

    five, six = (200, 30, 30), (30, 200, 30)
    halfway = tuple((a + b) // 2 for a, b in zip(five, six, strict=True))
    box = (150, 50, 246, 146)  # 96 pixels: thirds of 32
    folder = colour_pair(
        tmp_path / "models", [(box, 4, 0.9)], {"5b": five, "6b": six}, CLASSIFIER_NAMES
    )
    colour_classifier(folder / "pcs.onnx", {"5b": five, "6b": six}, 32, top_middle=True)
    write_metadata(folder, "pcs", "classify", 32, classifier_classes())
    default = json.loads((folder / "default.json").read_text())
    (folder / "default.json").write_text(json.dumps({**default, "pieces": "pcs.json"}))
    photo = np.full((HEIGHT, WIDTH, 3), 114, np.uint8)
    x1, y1, x2, y2 = box
    photo[y1:y2, x1:x2] = halfway[::-1]
    photo[y1 + 32 : y1 + 64, x1:x2] = six[::-1]  # the middle band: left and right middles
    assert CLASSIFIER_NAMES.index("5b") < CLASSIFIER_NAMES.index("6b")
    (piece,) = load_pipeline(folder).read(photo).tiles
    assert piece.code == "6b"
    assert piece.classifier_confidence == pytest.approx(0.75, abs=0.05)


def _with_a_xiangqi_detector(tmp_path, variants):
    """A folder whose default detector finds one tile and whose xiangqi detector finds two."""
    one = np.array([detector_row(to_input((25, 50, 75, 125)), 0, 0.9)])
    two = np.array(
        [
            detector_row(to_input((25, 50, 75, 125)), 0, 0.9),
            detector_row(to_input((225, 50, 275, 125)), 0, 0.9),
        ]
    )
    folder = two_stage_models(tmp_path / "models", one, {"5m": RGB["5m"]})
    other = two_stage_models(tmp_path / "other", two, {"5m": RGB["5m"]})
    (folder / "xq.onnx").write_bytes((other / "det.onnx").read_bytes())
    meta = json.loads((other / "det.json").read_text())
    (folder / "xq.json").write_text(json.dumps({**meta, "name": "xq", "onnx": "xq.onnx"}))
    default = json.loads((folder / "default.json").read_text())
    (folder / "default.json").write_text(json.dumps({**default, "variants": variants}))
    return folder


def test_a_rule_set_may_have_its_own_detector(tmp_path):
    folder = _with_a_xiangqi_detector(tmp_path, {"xiangqi": {"detector": "xq.json"}})
    assert len(load_pipeline(folder).read(scene_photo()).tiles) == 1
    for name in ("xiangqi", "象棋"):  # its name or an alias
        pipeline = load_pipeline(folder, variant=name)
        assert pipeline.detector.info.name == "xq"
        assert len(pipeline.read(scene_photo()).tiles) == 2
    taiwan = load_pipeline(folder, variant="taiwan")
    assert taiwan.detector.info.name == "det"  # no entry: the folder's detector
    assert taiwan.classifier is load_pipeline(folder, variant="xiangqi").classifier is not None


@pytest.mark.parametrize(
    ("variants", "message"),
    [
        (["xiangqi"], "variants must map a rule set"),
        ({"xiangqi": {"classifier": "cls.json"}}, "variants.xiangqi may name a detector file"),
        ({"chess": {"detector": "xq.json"}}, "unknown variant 'chess'"),
    ],
)
def test_a_bad_variants_entry_is_one_line(tmp_path, variants, message):
    folder = _with_a_xiangqi_detector(tmp_path, variants)
    with pytest.raises(ModelError, match=message):
        load_pipeline(folder, variant="xiangqi")


def test_an_unknown_rule_set_is_one_line(tmp_path):
    from scoring.errors import VariantError

    folder = _with_a_xiangqi_detector(tmp_path, {"xiangqi": {"detector": "xq.json"}})
    with pytest.raises(VariantError, match="unknown variant 'go'"):
        load_pipeline(folder, variant="go")


def test_a_folder_linking_the_shipped_metadata_beside_another_network_reads_with_that_network(
    tmp_path,
):
    # How a candidate is tried beside the shipped models: their files linked into a folder,
    # the candidate's ONNX in place of the classifier's. Its sessions must be its own, not the
    # shipped ones kept under the metadata file both names lead to.
    import shutil
    from pathlib import Path

    from vision.images import load_photo

    shipped = Path(__file__).resolve().parents[2] / "models"
    for path in shipped.iterdir():
        if path.is_file() and path.name != "tile-classifier.onnx":
            (tmp_path / path.name).symlink_to(path)
    shutil.copy(shipped / "tile-classifier-second.onnx", tmp_path / "tile-classifier.onnx")
    ours, candidate = load_pipeline(shipped), load_pipeline(tmp_path)
    assert candidate.classifier is not ours.classifier
    image = load_photo(shipped.parent / "examples" / "photos" / "taiwan-melds.jpg").pixels
    assert [t.classifier_confidence for t in ours.read(image).tiles] != [
        t.classifier_confidence for t in candidate.read(image).tiles
    ]
