"""``tilescore reconstruct`` on detections of the wrong shape: one line naming the tile and the
field, exit status 2, never a traceback."""

import json
import subprocess
import sys

import numpy as np
import pytest

from device.cli import main
from tests.cli_run import REPO, tilescore
from tests.layout.test_layout import HAND16, photo, row
from vision.detection import Detection
from vision.layout import reconstruct
from vision.layout.tiles import DetectionError, from_detections


def one_tile(**fields):
    return {"tiles": [{"code": "1m", "box": [0, 0, 30, 40], **fields}]}


def reconstruct_file(tmp_path, capsys, content):
    path = tmp_path / "detections.json"
    path.write_bytes(content if isinstance(content, bytes) else json.dumps(content).encode())
    status = main(["reconstruct", "--json", str(path)])
    out, err = capsys.readouterr()
    return status, out, err


def one_line_error(status, out, err, *words):
    assert status == 2 and out == ""
    assert err.startswith("error: ") and err.count("\n") == 1, err
    for word in words:
        assert word in err, err
    return err


@pytest.mark.parametrize(
    ("fields", "named"),
    [
        ({"box": "abcd"}, "tiles[0].box"),
        ({"box": 5}, "tiles[0].box"),
        ({"box": [None, 1, 2, 3]}, "tiles[0].box"),
        ({"box": [[0], [0], [1], [1]]}, "tiles[0].box"),
        ({"box": [0, 0, 30]}, "tiles[0].box"),
        ({"box": [True, 0, 30, 40]}, "tiles[0].box"),
        ({"box": [10**400, 0, 30, 40]}, "tiles[0].box"),
        # A number, but no photo's: it overflowed the distances, and the hand fell apart.
        ({"box": [1e300, 0, 1e300 + 30, 40]}, "tiles[0].box must be within 100000 pixels"),
        # No area, or corners the other way round ([x, y, width, height]): read as a tile, a
        # line of a box moved the rows about; swapped, a width-and-height box became another.
        ({"box": [30, 0, 30, 40]}, "tiles[0].box must be [x1, y1, x2, y2] with x1 < x2"),
        ({"box": [0, 40, 30, 40]}, "tiles[0].box must be [x1, y1, x2, y2] with x1 < x2"),
        ({"box": [30, 40, 0, 0]}, "a box of some area), got [30, 40, 0, 0]"),
        ({"box": [500, 300, 60, 90]}, "tiles[0].box"),
        ({"confidence": "high"}, "tiles[0].confidence"),
        ({"confidence": [1]}, "tiles[0].confidence"),
        ({"confidence": 2}, "tiles[0].confidence must be a number from 0 to 1"),
        ({"alternatives": [["9z", 0.5]]}, "tiles[0].alternatives names '9z': no tile code"),
        ({"alternatives": 5}, "tiles[0].alternatives"),
        ({"alternatives": [[]]}, "tiles[0].alternatives"),
        ({"alternatives": [[5, 0.3]]}, "tiles[0].alternatives"),
        ({"alternatives": [["zz", 0.9]]}, "tiles[0].alternatives"),  # asked as "9p or zz?"
        ({"alternatives": [["5m", "x"]]}, "tiles[0].alternatives"),
        ({"alternatives": [["5m", -0.1]]}, "tiles[0].alternatives"),
        ({"alternatives": [["5m", 0.1, 3]]}, "tiles[0].alternatives"),
        ({"code": 5}, "tiles[0].code"),
        # Left out with a problem line, exit 0, the hand was scored a tile short.
        ({"code": "1q"}, "tiles[0].code names '1q': no tile code"),
        ({"code": "back"}, "tiles[0].code names 'back': no tile code"),  # a back's code is null
        ({"face_down": "no"}, "tiles[0].face_down"),
        ({"rotated": 1}, "tiles[0].rotated"),
        ({"low_confidence": "yes"}, "tiles[0].low_confidence"),
    ],
)
def test_a_field_of_the_wrong_type_is_one_line_naming_tile_and_field(
    tmp_path, capsys, fields, named
):
    one_line_error(*reconstruct_file(tmp_path, capsys, one_tile(**fields)), named)


def test_the_tile_named_is_the_one_at_fault(tmp_path, capsys):
    tiles = row(HAND16)
    tiles[5] = {**tiles[5], "confidence": "high"}
    one_line_error(*reconstruct_file(tmp_path, capsys, photo(tiles)), "tiles[5].confidence")
    one_line_error(*reconstruct_file(tmp_path, capsys, {"tiles": [5]}), "tiles[0] must be")


def test_a_code_that_is_not_text_is_not_reported_as_an_unknown_code():
    with pytest.raises(DetectionError, match=r"tiles\[0\]\.code must be .* got 5$"):
        from_detections(one_tile(code=5)["tiles"])


@pytest.mark.parametrize(
    ("content", "words"),
    [
        (b'{"tiles": [{"code": "\xff"}]}', ["not UTF-8 text"]),
        (b'{"tiles": [{"code": "1m", "box": [0, 0, 30, NaN]}]}', ["NaN"]),
        (b'{"tiles": [], "width": Infinity}', ["Infinity"]),
        (b'{"tiles": [], "width": ' + b"9" * 5000 + b"}", ["more than", "digits"]),
        (b"[" * 100_000, ["nested too deeply"]),
    ],
)
def test_input_no_json_reader_should_take_is_one_line(tmp_path, capsys, content, words):
    one_line_error(*reconstruct_file(tmp_path, capsys, content), "detections.json", *words)


def test_non_utf8_stdin_is_one_line():
    run = subprocess.run(
        [sys.executable, "-m", "device.cli", "reconstruct", "--json", "-"],
        input=b'{"tiles": [{"code": "\xff"}]}',
        capture_output=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 2 and run.stdout == b""
    assert run.stderr == b"error: stdin is not UTF-8 text\n"


def test_well_formed_detections_still_read(tmp_path, capsys):
    tiles = row([*HAND16, "7p"], gap_before={16: 40})
    # What labels leave out or set to null reads as before: no box yet, no confidence measured.
    tiles.append({"code": "1f", "box": None, "confidence": None, "alternatives": None})
    tiles[3] = {**tiles[3], "confidence": 0.3, "alternatives": [["9s", 0.3], "8s"]}
    status, out, err = reconstruct_file(tmp_path, capsys, photo(tiles))
    assert status == 0, err
    reading = json.loads(out)
    assert reading["win_tile"] == "7p" and reading["flowers"] == "1f"


def test_runtime_detections_with_numpy_values_still_read():
    # The pipeline's boxes and flags may be numpy scalars: only JSON is held to JSON's types.
    tiles = [
        Detection(
            code=t["code"],
            box=tuple(np.float32(v) for v in t["box"]),
            confidence=np.float32(0.9),
            detector_confidence=0.9,
            classifier_confidence=1.0,
            face_down=np.bool_(False),
            rotated=np.bool_(False),
            low_confidence=np.float32(0.9) < 0.5,
        )
        for t in row([*HAND16, "7p"], gap_before={16: 40})
    ]
    assert reconstruct(tiles, "taiwan").win_tile == "7p"


def test_a_five_read_as_red_is_plain_where_the_rule_set_has_none(tmp_path, capsys):
    # detect | reconstruct | score: a 0m read in a taiwan hand was refused by score ("red five
    # 0m is not used in taiwan") on 17 of the 30 real photos.
    tiles = row([*HAND16, "7p"], gap_before={16: 40})
    tiles[4] = {**tiles[4], "code": "0m", "alternatives": [["0m", 0.6], ["5m", 0.3]]}
    status, out, _ = reconstruct_file(tmp_path, capsys, photo(tiles))
    reading = json.loads(out)
    assert status == 0 and "0" not in reading["hand"] and "rules" not in reading
    scored = tilescore("score", "--json", "-", stdin=out)
    assert "error" not in json.loads(scored.stdout)
    path = tmp_path / "detections.json"
    # Asked for, they stay red where the rule set plays them, and the output says so to score.
    assert main(["reconstruct", "--variant", "riichi", "--red-fives", str(path)]) == 0
    riichi = json.loads(capsys.readouterr().out)
    assert riichi["rules"] == {"red_fives": True} and "0" in riichi["hand"]
    assert main(["reconstruct", "--variant", "taiwan", "--red-fives", str(path)]) == 2
    assert "taiwan is played without red fives" in capsys.readouterr().err


def test_a_box_of_no_area_is_refused_naming_it():
    # One tile's box made a line (x1 == x2) in a hand's detections: the hand came back with its
    # first three tiles as an open chi, exit status 0 and no problem said.
    tiles = row(HAND16)
    x1, y1, _, y2 = tiles[2]["box"]
    tiles[2] = {**tiles[2], "box": [x1, y1, x1, y2]}
    run = tilescore("reconstruct", "-", stdin=json.dumps(photo(tiles)))
    assert run.returncode == 2 and run.stdout == ""
    assert run.stderr.startswith("error: tiles[2].box must be [x1, y1, x2, y2] with x1 < x2")
    assert run.stderr.count("\n") == 1, run.stderr
