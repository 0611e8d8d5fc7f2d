"""A tile the detector missed, on a real photo: ``tilescore score PHOTO`` takes the one tile that
wins, or the one a broken meld lacks, and points at the gap it left, in its JSON and on the
drawing."""

import json

import cv2
import numpy as np

from tests.cli_run import tilescore
from tests.painted import PHOTOS, painted_out, pinghu_without
from vision.annotate import UNSEEN_COLOUR


def _red_share(image, box):
    """The share of pixels on the box's outline drawn in the unseen tile's colour."""
    x1, y1, x2, y2 = (int(round(v)) for v in box)
    edge = np.concatenate([image[y1, x1:x2], image[y2, x1:x2], image[y1:y2, x1], image[y1:y2, x2]])
    return float(np.mean(np.all(np.abs(edge.astype(int) - UNSEEN_COLOUR) < 60, axis=1)))


def _scored(tmp_path, image, seat):
    """``tilescore score`` of a photo, as JSON, and the drawing ``--annotate`` made of it."""
    photo, drawing = tmp_path / "hand.png", tmp_path / "drawn.png"
    cv2.imwrite(str(photo), image)
    run = tilescore("score", photo, "--seat", seat, "--json", "--annotate", drawing)
    assert run.returncode == 0, run.stderr
    return json.loads(run.stdout), cv2.imread(str(drawing))


def _lies_on(box, tile, share):
    """Whether every side of ``box`` lies within ``share`` of a tile's width of ``tile``'s."""
    width = tile["box"][2] - tile["box"][0]
    return all(abs(a - b) < share * width for a, b in zip(box, tile["box"], strict=True))


def test_the_gap_a_missed_tile_left_is_pointed_at_and_drawn(tmp_path):
    image, five = pinghu_without(4)  # 1234m 6789m: only 5m makes the hand win
    assert five["code"] == "5m"
    out, drawn = _scored(tmp_path, image, "S")
    reading = out["reading"]
    assert reading["hand"].startswith("123456789m")
    unseen = reading["unseen"]
    assert unseen["code"] == "5m"
    assert _lies_on(unseen["box"], five, 0.2)
    assert _red_share(drawn, unseen["box"]) > 0.3
    assert _red_share(image, unseen["box"]) < 0.05  # the photo had none there


def test_the_middle_tile_a_meld_lost_is_taken_and_pointed_at(tmp_path):
    # The melds photo's chi 6s~ 7s 8s with its 7s painted out: 6s and 8s lie alone, a tile
    # apart, in a hand three tiles short; they are a chi, and only a 7s lies between them.
    image, seven = painted_out("taiwan-melds", 12)
    assert seven["code"] == "7s"
    out, drawn = _scored(tmp_path, image, "E")
    reading = out["reading"]
    assert [m["tiles"] for m in reading["melds"]] == ["777z", "678s", "9999m"]  # as unpainted
    assert reading["unseen"]["code"] == "7s"
    assert _lies_on(reading["unseen"]["box"], seven, 0.3)
    assert not [p for p in out["problems"] if "expected" in p and "taken as 7s" not in p]
    assert out["result"]["total"] > 0
    assert _red_share(drawn, reading["unseen"]["box"]) > 0.3


def test_a_concealed_kong_that_lost_a_back_is_read_whole(tmp_path):
    # The melds photo's concealed kong back 9m 9m back with its last back painted out: a back
    # and two alike faces together, in a hand a kong short, are that kong; scored as unpainted.
    whole, _ = _scored(tmp_path, cv2.imread(str(PHOTOS / "taiwan-melds.jpg")), "E")
    image, back = painted_out("taiwan-melds", 17)
    assert back["face_down"]
    out, _ = _scored(tmp_path, image, "E")
    assert [m["tiles"] for m in out["reading"]["melds"]] == ["777z", "678s", "9999m"]
    assert out["problems"] == ["a back not found: back 9m 9m taken as the concealed kong 9999m"]
    assert out["result"]["total"] == whole["result"]["total"]
