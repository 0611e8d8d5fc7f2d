"""The detector in int8 for the second look (vision/training/quantize.py): which nodes stay in
float, the quantized shipped detector finding the float one's tiles, and the metadata that names
it (a missing file is a one-line error)."""

from __future__ import annotations

import json
import shutil
import sys
from dataclasses import replace
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.cli_run import REPO
from vision.boxes import iou_matrix
from vision.errors import ModelError
from vision.models import OnnxModel, find_models, load_info, second_look_info
from vision.pipeline import load_pipeline
from vision.training.quantize import (
    float_decoding,
    install_second_look,
    main,
    quantize_detector,
    validation_folder,
)

PHOTOS = REPO / "examples" / "photos"
HEAD_NAMES = [
    "/model.0/conv/Conv",
    "/model.22/cv2/conv/Conv",
    "/model.23/cv2.0/cv2.0.0/conv/Conv",
    "/model.23/cv3.1/cv3.1.2/Conv",
    "/model.23/Concat_1",
    "/model.23/dfl/Softmax",
    "/model.23/Sigmoid",
]


def test_only_the_heads_decoding_stays_in_float() -> None:
    assert float_decoding(HEAD_NAMES) == [
        "/model.23/Concat_1",
        "/model.23/dfl/Softmax",
        "/model.23/Sigmoid",
    ]


def test_a_network_without_ultralytics_modules_is_refused() -> None:
    with pytest.raises(ModelError, match="not an ultralytics detector"):
        float_decoding(["conv1", "relu1"])


@pytest.fixture(scope="module")
def int8_detector(tmp_path_factory) -> Path:  # type: ignore[no-untyped-def]
    """The shipped detector quantized afresh, calibrated on the two example photos (the shipped
    one is calibrated on 64 synthetic scenes; two keep the test fast)."""
    info = load_info(find_models(REPO / "models")[0])
    out = tmp_path_factory.mktemp("int8") / "detector.int8.onnx"
    return quantize_detector(info, out, sorted(PHOTOS.glob("*.jpg")))


@pytest.mark.slow
def test_the_int8_detector_finds_the_float_ones_tiles(int8_detector: Path) -> None:
    pipeline = load_pipeline(REPO / "models", threads=1)
    int8 = OnnxModel(replace(pipeline.detector.info, onnx_path=int8_detector), threads=1)
    photo = cv2.imread(str(PHOTOS / "taiwan-pinghu.jpg"))
    float_boxes, float_scores, *_ = pipeline._detect_in(photo, {})
    int8_boxes, int8_scores, *_ = pipeline._detect_in(photo, {}, int8)
    sure_float = float_boxes[float_scores >= 0.5]
    assert len(sure_float) >= 17
    overlaps = iou_matrix(sure_float, int8_boxes[int8_scores >= 0.25])
    # Nearly every tile the float detector is sure of, the int8 one boxes in the same place.
    assert (overlaps.max(axis=1) > 0.8).mean() >= 0.9
    assert int8_detector.stat().st_size < 0.5 * pipeline.detector.info.onnx_path.stat().st_size


def _models_copy(tmp_path: Path) -> Path:
    copy = tmp_path / "models"
    shutil.copytree(REPO / "models", copy, ignore=shutil.ignore_patterns("*.pt", "candidates"))
    return copy


def _unnamed_second_look(models: Path) -> dict[str, object]:
    """Take ``second_look_onnx`` out of the folder's detector metadata; returns what is left."""
    meta = models / "tile-detector.json"
    data = json.loads(meta.read_text())
    del data["second_look_onnx"]
    meta.write_text(json.dumps(data))
    return data  # type: ignore[no-any-return]


def test_the_shipped_detector_names_its_second_look() -> None:
    pipeline = load_pipeline(REPO / "models", threads=1)
    assert pipeline.second_look is not pipeline.detector
    assert pipeline.second_look.info.onnx_path.name == "tile-detector.int8.onnx"
    # The same detector: its classes and input, another file.
    assert pipeline.second_look.info.classes == pipeline.detector.info.classes
    assert pipeline.second_look.info.input_size == pipeline.detector.info.input_size


def test_a_detector_naming_none_looks_twice_with_itself(tmp_path: Path) -> None:
    models = _models_copy(tmp_path)
    _unnamed_second_look(models)
    pipeline = load_pipeline(models, threads=1)
    assert pipeline.second_look is pipeline.detector


def test_a_missing_second_look_file_is_a_one_line_error(tmp_path: Path) -> None:
    models = _models_copy(tmp_path)
    (models / "tile-detector.int8.onnx").unlink()
    with pytest.raises(ModelError, match=r"tile-detector.int8.onnx.*second_look_onnx is missing"):
        load_pipeline(models, threads=1)
    assert second_look_info(load_info(models / "xiangqi-detector.json")) is None


@pytest.mark.slow
def test_installing_names_the_int8_file_in_the_metadata(tmp_path: Path) -> None:
    models = _models_copy(tmp_path)
    data = _unnamed_second_look(models)
    meta = models / "tile-detector.json"
    (models / "tile-detector.int8.onnx").unlink()
    out = install_second_look(meta, sorted(PHOTOS.glob("*.jpg"))[:1], "test")
    assert out == models / "tile-detector.int8.onnx" and out.exists()
    named = json.loads(meta.read_text())
    assert named["second_look_onnx"] == out.name and named["zoom_below"] == data["zoom_below"]
    pipeline = load_pipeline(models, threads=1)
    assert pipeline.second_look.info.onnx_path == out
    assert not list(models.glob("*.prepared"))  # no temporary file left
    assert np.isfinite(pipeline.second_look.run(np.zeros((1, 3, 640, 640), np.float32))).all()


def test_no_calibration_scenes_is_a_one_line_error(tmp_path: Path, capsys) -> None:  # type: ignore[no-untyped-def]
    assert main(["--models", str(_models_copy(tmp_path)), "--calibration", str(tmp_path)]) == 2
    error = capsys.readouterr().err
    assert error.startswith("error: no scenes in") and error.count("\n") == 1


def test_without_onnx_a_one_line_error_says_what_to_install(
    tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    monkeypatch.setitem(sys.modules, "onnx", None)  # as on a Pi with the runtime alone
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    shutil.copy(PHOTOS / "taiwan-pinghu.jpg", scenes / "scene.jpg")
    models = _models_copy(tmp_path)
    assert main(["--models", str(models), "--calibration", str(scenes)]) == 2
    error = capsys.readouterr().err
    assert error == "error: onnx is not installed: pip install -e '.[train]'\n"
    assert "second_look_onnx" in json.loads((models / "tile-detector.json").read_text())


@pytest.mark.parametrize(
    ("yaml_text", "expected"),
    [
        ("path: {root}/scenes\nval: images/val\n", "{root}/scenes/images/val"),
        ("path: scenes\nval: images/val\n", "{root}/scenes/images/val"),  # beside the yaml
        ("val: [images/val, more/val]\n", "{root}/images/val"),  # no path: the yaml's folder
    ],
)
def test_a_detector_calibrates_on_its_datas_validation_scenes(
    tmp_path: Path, yaml_text: str, expected: str
) -> None:
    data = tmp_path / "data.yaml"
    data.write_text(yaml_text.format(root=tmp_path))
    assert validation_folder(data) == Path(expected.format(root=tmp_path))


def test_data_naming_no_validation_scenes_is_a_model_error(tmp_path: Path) -> None:
    data = tmp_path / "data.yaml"
    data.write_text("train: images/train\n")
    with pytest.raises(ModelError, match="names no validation images"):
        validation_folder(data)


def _detector_soup(tmp_path: Path, monkeypatch, capsys, scenes: Path):  # type: ignore[no-untyped-def]
    """``tilescore train detector --soup`` of the shipped checkpoint with itself, in this
    process, calibrating (no --data) on ``scenes``; returns the folder, stdout and stderr."""
    from device.cli import main as tilescore_main

    monkeypatch.setattr("vision.training.quantize.DEFAULT_SCENES", scenes)
    out = tmp_path / "models"
    checkpoint = str(REPO / "models" / "tile-detector.pt")
    arguments = ["train", "detector", "--soup", checkpoint, checkpoint, "--out", str(out)]
    assert tilescore_main([*arguments, "--json"]) == 0
    printed = capsys.readouterr()
    return out, printed.out, printed.err


@pytest.mark.slow
def test_a_detector_soup_comes_with_its_int8_second_look(
    tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    out, printed, _ = _detector_soup(tmp_path, monkeypatch, capsys, PHOTOS)
    meta = json.loads(printed)  # stdout: the metadata as finally written, naming the int8 file
    assert meta == json.loads((out / "tile-detector.json").read_text())
    assert meta["second_look_onnx"] == "tile-detector.int8.onnx"
    assert f"scenes of {PHOTOS}" in meta["second_look_note"]
    second = second_look_info(load_info(out / "tile-detector.json"))
    assert second is not None and second.onnx_path == out / "tile-detector.int8.onnx"
    network = OnnxModel(second, threads=1)
    assert np.isfinite(network.run(np.zeros((1, 3, 640, 640), np.float32))).all()


@pytest.mark.slow
def test_a_detector_soup_without_scenes_stays_in_float_and_says_why(
    tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    empty = tmp_path / "no-scenes"
    empty.mkdir()
    out, printed, errors = _detector_soup(tmp_path, monkeypatch, capsys, empty)
    assert "second_look_onnx" not in json.loads(printed)
    assert not (out / "tile-detector.int8.onnx").exists()
    assert (out / "tile-detector.onnx").exists()  # the soup itself stands
    warnings = [line for line in errors.splitlines() if line.startswith("warning:")]
    assert warnings == [
        f"warning: the second look stays in float: no scenes in {empty}: "
        "draw some first (python -m datasets.synth --out datasets/build/synth25 "
        "--scenes 200 --seed 34)"
    ]


def test_no_int8_is_for_the_detector_alone(tmp_path: Path) -> None:
    from tests.cli_run import tilescore

    result = tilescore("train", "classifier", "--no-int8", "--out", tmp_path / "models")
    assert result.returncode == 2
    assert result.stderr == (
        "error: --no-int8 is for the detector: only its second look runs in int8\n"
    )
    assert not (tmp_path / "models").exists()


def test_an_unreadable_scene_leaves_the_trained_detector_in_float_with_a_warning(
    tmp_path: Path, monkeypatch, capsys
) -> None:  # type: ignore[no-untyped-def]
    import argparse

    from vision.training.cli import _second_look

    models = _models_copy(tmp_path)
    data = _unnamed_second_look(models)
    (models / "tile-detector.int8.onnx").unlink()
    scenes = tmp_path / "scenes"
    scenes.mkdir()
    (scenes / "broken.jpg").write_bytes(b"not a jpeg")
    monkeypatch.setattr("vision.training.quantize.DEFAULT_SCENES", scenes)
    meta = models / "tile-detector.json"
    _second_look(argparse.Namespace(model="detector", int8=True), meta, None)
    warning = capsys.readouterr().err.splitlines()[-1]
    assert warning.startswith("warning: the second look stays in float: ")
    assert "broken.jpg" in warning
    assert json.loads(meta.read_text()) == data  # the metadata as training wrote it
    assert not (models / "tile-detector.int8.onnx").exists()
    _second_look(argparse.Namespace(model="detector", int8=False), meta, None)  # --no-int8
    assert capsys.readouterr().err == ""
