"""``tilescore detect`` as a user runs it: a real subprocess, several photos, one of them bad."""

import json
import os
import subprocess
import sys
from pathlib import Path

import cv2
import numpy as np
import pytest

from tests.vision.onnx_fixtures import detector_row, single_stage_models, two_stage_models

REPO = Path(__file__).resolve().parents[2]


def detect(*args, cwd=REPO):
    env = os.environ | {"PYTHONPATH": str(REPO)}
    return subprocess.run(
        [sys.executable, "-m", "device.cli", "detect", *map(str, args)],
        capture_output=True,
        text=True,
        cwd=cwd,
        env=env,
        timeout=60,
    )


@pytest.fixture(scope="module")
def setup(tmp_path_factory):
    root = tmp_path_factory.mktemp("cli")
    # 400 x 200 photos into a 64 input (scale 0.16, 16 px padding above and below).
    rows = np.array(
        [
            detector_row([4, 24, 12, 36], 0, 0.9),  # photo box (25, 50, 75, 125)
            detector_row([20, 24, 28, 36], 2, 0.8),  # (125, 50, 175, 125), face down
        ]
    )
    models = two_stage_models(root / "models", rows, {"9p": (10, 200, 200)})
    photo = np.full((200, 400, 3), 114, np.uint8)
    photo[50:125, 25:75] = (200, 200, 10)  # BGR of 9p's colour
    cv2.imwrite(str(root / "a.jpg"), photo)
    cv2.imwrite(str(root / "b.png"), photo)
    (root / "bad.jpg").write_bytes(b"\xff\xd8\xff\xe0 nothing more")
    return root, models


def test_json_for_several_photos_with_a_bad_one_among_them(setup):
    root, models = setup
    result = detect(root / "a.jpg", root / "bad.jpg", root / "b.png", "--json", "--models", models)
    assert result.returncode == 1, result.stderr
    readings = json.loads(result.stdout)
    assert [Path(r["image"]).name for r in readings] == ["a.jpg", "bad.jpg", "b.png"]
    assert "bad.jpg" in readings[1]["error"] and "tiles" not in readings[1]
    for reading in (readings[0], readings[2]):
        assert (reading["width"], reading["height"]) == (400, 200)
        assert [(t["code"], t["face_down"]) for t in reading["tiles"]] == [
            ("9p", False),
            (None, True),
        ]
        assert reading["tiles"][0]["box"] == [25.0, 50.0, 75.0, 125.0]
        assert {"code", "box", "confidence", "face_down", "rotated"} <= set(reading["tiles"][0])
        assert {"decode", "detector", "crops", "classifier", "total"} <= set(reading["timing_ms"])


def test_one_photo_gives_one_object_and_exit_0(setup):
    root, models = setup
    result = detect(root / "a.jpg", "--json", "--models", models, "--threads", "1")
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout)["tiles"][0]["code"] == "9p"


def test_human_table_and_annotated_copies(setup, tmp_path):
    root, models = setup
    result = detect(root / "a.jpg", root / "bad.jpg", "--models", models, "--annotate", tmp_path)
    assert result.returncode == 1
    assert "9p back" in result.stdout and "400x200, 2 tiles" in result.stdout
    assert result.stderr.strip().startswith("error: ") and "bad.jpg" in result.stderr
    annotated = cv2.imread(str(tmp_path / "a.annotated.jpg"))
    assert annotated.shape == (200, 400, 3)
    assert not (tmp_path / "bad.annotated.jpg").exists()


def test_photos_of_one_name_get_a_drawing_each(setup, tmp_path):
    # a.jpg, b.png renamed a.png, and a.jpg again from another folder: three drawings, where
    # one had been written over the others.
    root, models = setup
    other = tmp_path / "other"
    other.mkdir()
    (other / "a.jpg").write_bytes((root / "a.jpg").read_bytes())
    (tmp_path / "a.png").write_bytes((root / "b.png").read_bytes())
    drawn = tmp_path / "drawn"
    photos = (root / "a.jpg", tmp_path / "a.png", other / "a.jpg")
    result = detect(*photos, "--models", models, "--annotate", drawn)
    assert result.returncode == 0, result.stderr
    assert sorted(p.name for p in drawn.iterdir()) == [
        "a-2.annotated.jpg", "a-3.annotated.jpg", "a.annotated.jpg",
    ]  # fmt: skip


@pytest.mark.parametrize(
    ("target", "said"), [("file", "a file, not a folder"), ("", "needs a folder name")]
)
def test_a_drawing_folder_that_cannot_be_is_said_before_a_photo_is_read(
    setup, tmp_path, target, said
):
    root, models = setup
    (tmp_path / "file").write_text("mine")
    folder = str(tmp_path / target) if target else ""
    result = detect(root / "a.jpg", "--json", "--models", models, "--annotate", folder)
    assert result.returncode == 2 and result.stdout == ""
    assert result.stderr.count("\n") == 1 and said in result.stderr
    assert (tmp_path / "file").read_text() == "mine"


def test_a_webp_whose_header_claims_a_huge_image_is_refused_before_it_is_decoded(tmp_path):
    # A 16000 x 16000 canvas said in a WebP header (VP8X) and nothing else: OpenCV's pixel
    # limit, set before cv2 loads, refuses it at the header; a real one of 10 KB took 1.7 GB.
    import struct

    side = (16000 - 1).to_bytes(3, "little")
    body = b"WEBP" + b"VP8X" + struct.pack("<I", 10) + b"\0" * 4 + side + side + b"\0" * 64
    (tmp_path / "bomb.webp").write_bytes(b"RIFF" + struct.pack("<I", len(body)) + body)
    result = detect(tmp_path / "bomb.webp")
    assert result.returncode == 1
    assert result.stderr == f"error: {tmp_path / 'bomb.webp'}: too many pixels for a photo\n"


def test_a_photo_name_that_is_not_utf8_is_escaped_in_the_json(setup, tmp_path):
    # Its byte 0xFF went out raw: the output was no UTF-8, which the contract promises. Now
    # escaped in the JSON, it reads back as the name Python gives the file.
    root, models = setup
    name = os.fsdecode(b"bad\xffname.jpg")
    (tmp_path / name).write_bytes((root / "a.jpg").read_bytes())
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "detect", "--json", "--models", str(models), name],
        capture_output=True, cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(REPO)}, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert json.loads(result.stdout.decode("utf-8"))["image"] == name


def test_a_photo_name_that_is_not_utf8_gets_its_drawing(setup, tmp_path):
    # cv2.imwrite given the drawing's name (the photo's, with a lone surrogate) segfaulted.
    root, models = setup
    name = os.fsdecode(b"bad\xffname.jpg")
    (tmp_path / name).write_bytes((root / "a.jpg").read_bytes())
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "detect", "--json", "--models", str(models), name,
         "--annotate", "drawn"],
        capture_output=True, cwd=tmp_path, env=os.environ | {"PYTHONPATH": str(REPO)}, timeout=60,
    )  # fmt: skip
    assert result.returncode == 0, result.stderr
    assert [p.name for p in (tmp_path / "drawn").iterdir()] == [
        os.fsdecode(b"bad\xffname.annotated.jpg")
    ]


def test_a_large_jpeg_is_read_at_half_size_and_boxed_in_its_own_pixels(setup, tmp_path):
    root, models = setup
    # 4400 x 2200: decoded at half (2200 x 1100 keeps 2000 on the long side, a quarter would
    # not); the detector's boxes come back in the photo's own pixels, 11 times a.jpg's.
    photo = cv2.resize(
        cv2.imread(str(root / "a.jpg")), (4400, 2200), interpolation=cv2.INTER_NEAREST
    )
    cv2.imwrite(str(tmp_path / "large.jpg"), photo)
    result = detect(tmp_path / "large.jpg", "--json", "--models", models, "--annotate", tmp_path)
    assert result.returncode == 0, result.stderr
    reading = json.loads(result.stdout)
    assert (reading["width"], reading["height"]) == (4400, 2200)
    assert reading["tiles"][0]["code"] == "9p"
    assert reading["tiles"][0]["box"] == pytest.approx([275.0, 550.0, 825.0, 1375.0], abs=3)
    # The annotated copy is drawn on the pixels read.
    assert cv2.imread(str(tmp_path / "large.annotated.jpg")).shape == (1100, 2200, 3)


def test_missing_models_is_one_line_and_exit_2(setup, tmp_path):
    root, _ = setup
    result = detect(root / "a.jpg", "--models", tmp_path)
    assert result.returncode == 2
    assert result.stderr.strip().count("\n") == 0 and "default.json is missing" in result.stderr


def test_variant_picks_the_detector_the_folder_names_for_its_tables(tmp_path):
    from tests.vision.scene import scene_photo
    from tests.vision.test_pipeline import _with_a_xiangqi_detector

    folder = _with_a_xiangqi_detector(tmp_path, {"xiangqi": {"detector": "xq.json"}})
    cv2.imwrite(str(tmp_path / "scene.png"), scene_photo())
    counts = {}
    for variant in ("taiwan", "xiangqi"):
        result = detect(tmp_path / "scene.png", "--json", "--models", folder, "--variant", variant)
        assert result.returncode == 0, result.stderr
        counts[variant] = len(json.loads(result.stdout)["tiles"])
    assert counts == {"taiwan": 1, "xiangqi": 2}
    unknown = detect(tmp_path / "scene.png", "--models", folder, "--variant", "go")
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert "unknown variant 'go'" in unknown.stderr


@pytest.mark.parametrize("threads", ["0", "99999999999", "two"])
def test_threads_out_of_range_are_one_line_naming_the_option(threads):
    # 99999999999 once reached onnxruntime, whose refusal read as if the model were broken.
    result = detect(REPO / "examples" / "photos" / "missing.jpg", "--threads", threads)
    assert result.returncode == 2
    assert result.stderr.startswith("error: tilescore detect: argument --threads: ")
    assert result.stderr.count("\n") == 1


def test_a_drawing_never_lands_on_a_photo_being_read(tmp_path):
    # detect a.jpg a.annotated.jpg --annotate . wrote a.jpg's drawing over the second photo, then
    # read the drawing as that photo (a probe).
    from vision.cli import _drawing_paths

    photos = [tmp_path / "a.jpg", tmp_path / "a.annotated.jpg", tmp_path / "b" / "a.png"]
    drawings = _drawing_paths(photos, tmp_path)
    assert [d.name for d in drawings] == [
        "a-2.annotated.jpg",
        "a.annotated.annotated.jpg",
        "a-3.annotated.jpg",
    ]


def test_a_photo_name_that_is_not_utf8_is_escaped_in_the_table_on_a_strict_stdout(setup, tmp_path):
    # With stdout strict UTF-8 (a UTF-8 locale other than C.UTF-8, PYTHONIOENCODING=utf-8) the
    # name's lone surrogate ended the run in a UnicodeEncodeError traceback after the reading.
    root, models = setup
    name = os.fsdecode(b"bad\xffname.jpg")
    (tmp_path / name).write_bytes((root / "a.jpg").read_bytes())
    result = subprocess.run(
        [sys.executable, "-m", "device.cli", "detect", "--models", str(models), name],
        capture_output=True, cwd=tmp_path, timeout=60,
        env=os.environ | {"PYTHONPATH": str(REPO), "PYTHONIOENCODING": "utf-8"},
    )  # fmt: skip
    assert result.returncode == 0 and not result.stderr, result.stderr
    assert result.stdout.decode("utf-8").startswith("bad\\udcffname.jpg: 400x200, 2 tiles")


def test_a_box_with_no_pixel_in_the_photo_is_no_tile(tmp_path):
    # A box the detector put in the letterbox's padding was held to the photo's edge as a line
    # (y1 == y2 == 0), read from a blank crop as a tile, and written in detect's JSON as one that
    # reconstruct refuses.
    rows = np.array(
        [
            detector_row([4, 24, 12, 36], 0, 0.9),  # photo box (25, 50, 75, 125)
            detector_row([20, 2, 28, 10], 0, 0.9),  # above the photo: in the padding
        ]
    )
    models = two_stage_models(tmp_path / "models", rows, {"9p": (10, 200, 200)})
    photo = np.full((200, 400, 3), 114, np.uint8)
    photo[50:125, 25:75] = (200, 200, 10)
    cv2.imwrite(str(tmp_path / "a.png"), photo)
    result = detect(tmp_path / "a.png", "--json", "--models", models)
    assert result.returncode == 0, result.stderr
    tiles = json.loads(result.stdout)["tiles"]
    assert [t["code"] for t in tiles] == ["9p"]
    chained = subprocess.run(
        [sys.executable, "-m", "device.cli", "reconstruct", "-"],
        input=result.stdout, capture_output=True, text=True, cwd=REPO, timeout=60,
        env=os.environ | {"PYTHONPATH": str(REPO)},
    )  # fmt: skip
    assert chained.returncode == 0, chained.stderr


@pytest.mark.parametrize(
    ("options", "said"),
    [
        (["--seat", "Q"], "seat_wind 'Q' is not one of E S W N"),
        (["--round", "X"], "round_wind 'X' is not one of E S W N"),
        (["--variant", "riichi", "--honba", "-2"], "honba -2 is negative"),
        (["--events", "bogus"], "unknown event 'bogus'"),
        (["--variant", "riichi", "--dora", "5q"], "unknown tile code '5q'"),
        (["--seat", "S", "--discarder", "E", "--self-draw"], "a self-drawn win has no discarder"),
    ],
)
def test_score_photo_checks_the_table_options_before_reading_the_photo(
    monkeypatch, capsys, options, said
):
    # Said only after the photo was read: seconds on a Pi, for an option typed wrong.
    import vision.score_photo
    from device.cli import main

    def read(*_args, **_kwargs):
        raise AssertionError("the photo was read before the options were checked")

    monkeypatch.setattr(vision.score_photo, "load_photo", read)
    monkeypatch.setattr(vision.score_photo, "load_pipeline", read)
    assert main(["score", "hand.jpg", *options]) == 2
    err = capsys.readouterr().err
    assert said in err and err.count("\n") == 1, err


@pytest.mark.parametrize(
    "options",
    [
        # What an event needs of the tiles (a kong, eight flowers, the robbed 兵) is the photo's
        # to show: not refused before it is read.
        ["--variant", "xiangqi", "--events", "after_kong", "--self-draw"],
        ["--variant", "xiangqi", "--events", "robbing_kong", "--discarder", "left"],
        ["--variant", "riichi", "--events", "after_kong", "--self-draw"],
        ["--events", "eight_flowers"],
        ["--events", "seven_flowers_rob", "--seat", "S", "--discarder", "E"],
    ],
)
def test_score_photo_leaves_what_events_need_of_the_tiles_to_the_photo(monkeypatch, options):
    import vision.score_photo
    from device.cli import main

    class Read(Exception):
        pass

    def read(*_args, **_kwargs):
        raise Read

    monkeypatch.setattr(vision.score_photo, "load_photo", read)
    with pytest.raises(Read):
        main(["score", "hand.jpg", *options])


def test_detect_with_a_single_stage_folder_reads_no_flower_for_a_rule_set_without(tmp_path):
    # The baseline folder (a detector whose classes are tile codes, no classifier) takes a bird
    # for 1f; riichi has no flowers, so it is read as its runner-up 1s and asked about.
    row = detector_row([4, 24, 12, 36], 1, 0.9, classes=2)  # photo box (25, 50, 75, 125)
    row[4] = 0.6
    models = single_stage_models(tmp_path / "models", np.array([row]), ["1s", "1f"])
    cv2.imwrite(str(tmp_path / "a.png"), np.full((200, 400, 3), 114, np.uint8))
    read = {}
    for variant in ("taiwan", "riichi"):
        run = detect(tmp_path / "a.png", "--models", models, "--variant", variant, "--json")
        assert run.returncode == 0, run.stderr
        (tile,) = json.loads(run.stdout)["tiles"]
        read[variant] = (tile["code"], tile["low_confidence"])
    assert read == {"taiwan": ("1f", False), "riichi": ("1s", True)}
