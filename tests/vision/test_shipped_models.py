"""The shipped model pair, through the real CLI, on the shipped example photos.

The example photos are rendered from CC0 tile art (datasets/synth/example_photo.py), not real table
photos: these tests hold the shipped files to "loads, runs, reads the examples", and the real-photo
numbers live in the models' metadata (`tilescore evaluate --record real_photos`) and docs/vision.md.
"""

from __future__ import annotations

import json

import pytest

from tests.cli_run import REPO, tilescore

MODELS = REPO / "models"
PHOTOS = REPO / "examples" / "photos"


def test_default_pair_is_shipped_with_its_metadata() -> None:
    pair = json.loads((MODELS / "default.json").read_text())
    for role in ("detector", "classifier"):
        meta = json.loads((MODELS / pair[role]).read_text())
        assert (MODELS / meta["onnx"]).stat().st_size > 1_000_000
        assert meta["classes"] and meta["input_size"][0] >= 64
        assert meta["training"]["data"] and meta["metrics"]["synthetic_val"]
    detector = json.loads((MODELS / pair["detector"]).read_text())
    assert {c["name"] for c in detector["classes"]} == {
        "tile",
        "tile_rotated",
        "back",
        "back_rotated",
        "piece",
    }
    assert (MODELS / "tile-detector.pt").exists(), "the detector's checkpoint to train on from"


def test_the_shipped_piece_reader_stands_in_for_the_classifier_on_pieces() -> None:
    from vision.pipeline import load_pipeline

    pair = json.loads((MODELS / "default.json").read_text())
    pieces = json.loads((MODELS / pair["pieces"]).read_text())
    classifier = json.loads((MODELS / pair["classifier"]).read_text())
    assert pieces["classes"] == classifier["classes"]
    assert pieces["training"]["data"] and pieces["metrics"]["xiangqi_test"]
    pipeline = load_pipeline(MODELS)
    assert pipeline.pieces is not None
    assert [m.name for m in pipeline.models] == [
        "tile-detector",
        "tile-classifier",
        "piece-classifier",
        "tile-classifier-second",  # the classifier's second opinion (test_second_opinion.py)
    ]


def test_a_xiangqi_table_reads_with_the_xiangqi_detector_and_the_same_readers() -> None:
    from device.app.service import Reader
    from vision.pipeline import load_pipeline

    pair = json.loads((MODELS / "default.json").read_text())
    meta = json.loads((MODELS / pair["variants"]["xiangqi"]["detector"]).read_text())
    assert meta["metrics"]["real_xiangqi_test"] and (MODELS / "xiangqi-detector.pt").exists()
    mahjong, xiangqi = (
        load_pipeline(MODELS, variant="taiwan"),
        load_pipeline(MODELS, variant="象棋"),
    )
    assert [m.name for m in xiangqi.models] == [
        "xiangqi-detector",
        "tile-classifier",
        "piece-classifier",
        "tile-classifier-second",  # it asks about mahjong tiles only: none on a xiangqi table
    ]
    assert mahjong.detector.info.name == "tile-detector"
    assert xiangqi.classifier is mahjong.classifier and xiangqi.pieces is mahjong.pieces
    reader = Reader(MODELS)
    assert reader.check() is None
    assert reader.pipeline("xiangqi") is xiangqi


def test_shipped_models_read_every_example_photo() -> None:
    run = tilescore(
        "evaluate", "--labels", str(PHOTOS), "--photos", str(PHOTOS), "--threads", "2", "--json"
    )
    assert run.returncode == 0, run.stderr
    report = json.loads(run.stdout)
    assert report["labelled_tiles"] >= 30
    assert report["tile_accuracy"] >= 0.97
    assert report["photo_accuracy"] == 1.0


@pytest.mark.parametrize("photo", ["taiwan-melds.jpg", "taiwan-pinghu.jpg"])
def test_score_photo_with_the_shipped_models(photo: str) -> None:
    expected = json.loads((PHOTOS / photo).with_suffix(".json").read_text())
    run = tilescore("detect", str(PHOTOS / photo), "--json")
    assert run.returncode == 0, run.stderr
    found = json.loads(run.stdout)
    found = found[0] if isinstance(found, list) else found
    assert sorted(t["code"] or "back" for t in found["tiles"]) == sorted(
        t["code"] or "back" for t in expected["tiles"]
    )
    assert all(0.0 < t["confidence"] <= 1.0 for t in found["tiles"])


def test_a_rule_set_without_flowers_sets_a_real_flower_aside() -> None:
    # The pinghu photo's 2f lies beside the hand. A Taiwan table counts it; a riichi table,
    # whose tiles hold no flowers, reads it as the flower it surely is and leaves it out (a face
    # read less surely as a flower is read as a tile: the bird 1s, docs/vision.md).
    out = {}
    for variant in ("taiwan", "riichi"):
        run = tilescore("score", PHOTOS / "taiwan-pinghu.jpg", "--variant", variant, "--json")
        out[variant] = json.loads(run.stdout)
    codes = [t["code"] for t in out["riichi"]["tiles"] if t["code"]]
    assert codes == [t["code"] for t in out["taiwan"]["tiles"] if t["code"]]
    assert "2f" in codes
    assert out["taiwan"]["reading"]["flowers"] == "2f"
    assert any("without flowers" in p for p in out["riichi"]["problems"])
    # detect --variant reads as score does, so detect | reconstruct | score is score PHOTO.
    run = tilescore("detect", PHOTOS / "taiwan-pinghu.jpg", "--variant", "riichi", "--json")
    assert [t["code"] for t in json.loads(run.stdout)["tiles"] if t["code"]] == codes


@pytest.mark.parametrize("turn", ["cw", "ccw"])
def test_a_photo_turned_a_quarter_scores_the_same_hand(tmp_path, turn):
    """The detector says which way a tile lies in the image: turned a quarter, the hand's upright
    tiles are its "rotated" ones and the claimed tiles the upright ones; the layout reads the
    flags against the row, and the hand, its melds and the winning tile come out as upright."""
    import cv2

    image = cv2.imread(str(PHOTOS / "taiwan-melds.jpg"))
    turns = {"cw": cv2.ROTATE_90_CLOCKWISE, "ccw": cv2.ROTATE_90_COUNTERCLOCKWISE}
    path = tmp_path / "turned.jpg"
    cv2.imwrite(str(path), cv2.rotate(image, turns[turn]))
    detected = json.loads(tilescore("detect", str(path), "--json").stdout)
    detected = detected[0] if isinstance(detected, list) else detected
    sideways = sorted(t["code"] or "back" for t in detected["tiles"] if not t["rotated"])
    assert sideways == ["6s", "7z"]  # upright in the image: the two claimed tiles
    runs = [
        tilescore("score", str(p), "--variant", "taiwan", "--json")
        for p in (PHOTOS / "taiwan-melds.jpg", path)
    ]
    upright, turned = (json.loads(r.stdout) for r in runs)
    hand = ("hand", "win_tile", "melds", "flowers")  # a read may be less sure turned: asked
    assert [turned["reading"][k] for k in hand] == [upright["reading"][k] for k in hand]
    assert turned["result"] == upright["result"]


def test_the_photo_commands_find_the_shipped_models_from_any_folder(tmp_path):
    """``--models`` defaults to the shipped models, not a ``models`` folder under wherever the
    command runs (a helper's audit: "no models in 'models'" outside the repository)."""
    photo = PHOTOS / "taiwan-melds.jpg"
    for args in (["detect", photo, "--json"], ["score", photo, "--variant", "taiwan", "--json"]):
        run = tilescore(*args, cwd=tmp_path, timeout=300)
        assert run.returncode == 0, run.stderr
        assert json.loads(run.stdout)
