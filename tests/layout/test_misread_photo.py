"""A tile the models read surely as another, on a real photo: ``tilescore score PHOTO`` leaves it
as read and names the one read of it that makes the hand win, in its JSON and its text."""

import json

import cv2

from tests.cli_run import tilescore
from tests.painted import face_copied


def test_the_read_that_would_make_the_hand_win_is_named(tmp_path):
    # The pinghu example with its 2m showing the 6p's face.
    image, two_m = face_copied("taiwan-pinghu", 1, 13)
    assert two_m["code"] == "2m"
    photo = tmp_path / "hand.png"
    cv2.imwrite(str(photo), image)
    run = tilescore("score", photo, "--seat", "S", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["result"]["winning"] is False
    [offer] = out["reading"]["would_win_as"]
    assert offer["code"] == "2m"
    misread = out["tiles"][offer["tile"]]
    assert misread["code"] == "6p" and not misread["low_confidence"]
    assert abs(misread["box"][0] - two_m["box"][0]) < 10  # the tile whose face was changed
    assert "not a winning hand as read; it wins with 6p read as 2m" in out["problems"]
    text = tilescore("score", photo, "--seat", "S")
    assert "! not a winning hand as read; it wins with 6p read as 2m" in text.stdout
