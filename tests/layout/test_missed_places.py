"""A tile the detector missed, read where the layout says it lies (``missed_places``).

The ``look`` here reads a place as a photo would show it: the laid tile whose box the place
covers well (IoU 0.5), the surer the closer, as the classifier reads a crop cut close to a tile
and calls one cut a fifth of a tile off no tile. The real classifier's reads of real places are measured in
``benchmarks/missed_places.py`` and tested in tests/vision/test_read_places.py.
"""

import numpy as np
import pytest

from scoring.hand_json import score_json, wins_under
from scoring.notation import parse_tiles
from tests.layout.test_complete import TAIWAN, winning_row
from tests.layout.test_layout import HAND16, H, W, row, same
from vision.boxes import intersection_matrix, iou_matrix
from vision.detection import Detection
from vision.layout import reconstruct
from vision.layout.missed_places import COVERED
from vision.layout.tiles import from_detections

WHOLE = "".join(HAND16) + "7p"


def reader(laid, code_at=None):
    """A look at the photo of the tiles ``laid``: each place that covers one reads it (or
    ``code_at(place)`` where given); the places looked at are kept in ``reader.places``."""
    tiles = from_detections(laid)

    def look(places):
        look.places += list(places)
        found = []
        for place in places:
            tile = max(tiles, key=lambda t: _iou(t.box, place), default=None)
            fit = _iou(tile.box, place) if tile else 0.0
            code = code_at(place) if code_at else tile.code if fit >= 0.5 else None
            if code is not None:  # the closer the cut, the surer the read
                sure = 0.5 + fit / 2
                found.append(Detection(code, tuple(place), sure, 0.0, sure, False, False, False))
        return found

    look.places = []
    return look


def read(tiles, look):
    return reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN), look=look)


def without(tiles, index):
    return [t for i, t in enumerate(tiles) if i != index]


def test_a_tile_missed_in_the_row_is_read_in_the_gap_it_left_and_said():
    laid = winning_row()
    tiles = without(laid, 5)  # the 6m
    reading = read(tiles, reader(laid))
    assert same("".join(reading.hand), WHOLE)
    assert reading.win_tile == "7p"
    assert [p.message for p in reading.problems] == [
        "tile 6m not found by the detector, read in its place in the hand: check it"
    ]
    # The tile read counts after the caller's detections, who adds it to them.
    assert reading.problems[0].tiles == (len(tiles),)
    assert [t.code for t in reading.looked] == ["6m"]
    concealed = next(g for g in reading.groups if g.role == "concealed")
    assert len(tiles) in concealed.tiles
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True


def test_without_a_look_the_hand_stays_a_tile_short_as_before():
    tiles = without(winning_row(), 5)
    reading = read(tiles, None)
    assert reading == reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.looked == ()
    assert any(p.kind in ("count", "unseen") for p in reading.problems)


def test_the_missed_winning_tile_set_apart_is_read_past_the_rows_end():
    laid = winning_row()  # the 7p lies 40 pixels (two thirds of a tile) apart
    reading = read(without(laid, 16), reader(laid))
    assert reading.win_tile == "7p"
    assert same("".join(reading.hand), WHOLE)


def test_the_tile_missed_before_the_winning_tile_set_apart_is_read_where_it_lies():
    # The second 1s of the pair, beside the 7p set apart. Without the table's rules the layout
    # guesses nothing: the photo alone says the tile (a step past the row's last pair, over
    # the gap to the 7p, looked only past the 7p).
    laid = winning_row()
    tiles = without(laid, 15)
    reading = reconstruct(tiles, "taiwan", look=reader(laid))
    assert [t.code for t in reading.looked] == ["1s"]
    assert same("".join(reading.hand), WHOLE) and reading.win_tile == "7p"


def test_a_missed_end_tile_of_the_row_is_read_past_it():
    laid = winning_row()
    reading = read(without(laid, 0), reader(laid))
    assert same("".join(reading.hand), WHOLE)


def test_a_whole_hand_is_not_looked_at():
    def look(places):
        raise AssertionError("looked at a whole hand")

    reading = read(winning_row(), look)
    assert reading.looked == () and reading.problems == ()


def test_a_hand_of_xiangqi_pieces_is_not_looked_at():
    # The places are read by the tile classifier, which reads no piece (the piece reader
    # reads the detector's round boxes): looking would cost a short hand and find nothing.
    def look(places):
        raise AssertionError("looked at a hand of pieces")

    laid = row(["1r", "1r", "1r", "2b"], gap_before={2: W + 2})  # a piece missed between
    reading = reconstruct(laid, "xiangqi", look=look)
    assert reading.places and reading.looked == ()


def test_places_read_as_no_tile_leave_the_reading_as_it_was():
    tiles = without(winning_row(), 5)
    reading = read(tiles, reader([]))
    assert reading == read(tiles, None)


def test_no_place_a_found_box_covers_is_looked_at():
    laid = winning_row()
    tiles = without(laid, 5)
    look = reader(laid)
    read(tiles, look)
    assert look.places
    for place in look.places:
        area = (place[2] - place[0]) * (place[3] - place[1])
        for tile in tiles:
            assert _overlap(tile["box"], place) < COVERED * area


def test_a_read_that_leaves_a_group_no_meld_is_not_taken():
    # 456789m 234p 11s 555z, then a chi 123m apart whose 1m the detector missed: read as 9p
    # (a claimed tile lying sideways, cut upright, read wrongly), it would be a group 9p 2m 3m.
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z123m")]
    laid = row(codes, gap_before={13: 40, 14: 40})
    tiles = without(laid, 14)
    meld_starts = laid[14]["box"][0] - 10
    wrong = read(tiles, reader(laid, code_at=lambda p: "9p" if p[0] > meld_starts else None))
    assert wrong.looked == ()
    assert not any("no chi" in p.message for p in wrong.problems)
    right = read(tiles, reader(laid))
    assert [m.to_json() for m in right.melds] == [{"type": "chi", "tiles": "123m"}]
    assert [t.code for t in right.looked] == ["1m"]


def test_a_face_missed_in_a_concealed_kong_is_read_in_the_gap_it_left():
    # back 9p 9p back, laid apart: its second 9p missed, the kong read as 9p and a back.
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z")] + ["9p"] * 4
    laid = row(codes, gap_before={13: 40, 14: 40}, down={14, 17})
    tiles = without(laid, 16)
    before = read(tiles, None)
    assert not any(m.type == "concealed_kong" for m in before.melds)
    reading = read(tiles, reader(laid))
    assert [m.to_json() for m in reading.melds] == [{"type": "concealed_kong", "tiles": "9999p"}]
    assert [t.code for t in reading.looked] == ["9p"]


def test_a_tile_made_up_between_melds_laid_in_line_does_not_take_the_hand_elsewhere():
    # 234m 678m 5s + 5s apart, then pons 111z 999p and a chi 567s in line, 1.2 tiles apart; the
    # hand's 5s missed and unread. The gap between 111z and 999p read as 4s made 111z 4s 999p the
    # longest row: the concealed row moved there and 234m 678m were read as chis (helper 70).
    codes = [t.code for t in parse_tiles("234m678m5s")] + ["5s"]
    hand = row(codes, gap_before={7: 40})
    apart = 1.2 * W
    start = hand[-1]["box"][2] + 2 + apart
    melds = row(
        [t.code for t in parse_tiles("111z999p567s")], x=start, gap_before={3: apart, 6: apart}
    )
    tiles = without(hand + melds, 6)
    gap = (melds[2]["box"][2], melds[3]["box"][0])
    made_up = reader(tiles, code_at=lambda p: "4s" if gap[0] < (p[0] + p[2]) / 2 < gap[1] else None)
    reading = read(tiles, made_up)
    assert reading.looked == ()
    assert [m.to_json()["tiles"] for m in reading.melds] == ["111z", "999p", "567s"]
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True


@pytest.mark.parametrize("middle", [False, True])
def test_a_claimed_tile_lying_sideways_is_read_at_a_melds_end_or_middle(middle):
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z123m")]
    claimed = 15 if middle else 14
    laid = row(codes, gap_before={13: 40, 14: 40}, rotated={claimed})
    x1, y1, x2, y2 = laid[claimed]["box"]
    flush = H - W  # lying flush with its meld's front edge, nearest the player
    laid[claimed] = {**laid[claimed], "box": [x1, y1 + flush, x2, y2 + flush]}
    reading = read(without(laid, claimed), reader(laid))
    assert [m.to_json()["tiles"] for m in reading.melds] == ["123m"]
    (tile,) = reading.looked
    width, height = tile.box[2] - tile.box[0], tile.box[3] - tile.box[1]
    assert width > height  # read as it lies, sideways


def _overlap(box, place):
    return intersection_matrix(np.array([box], float), np.array([place], float))[0, 0]


def _iou(box, place):
    return iou_matrix(np.array([box], float), np.array([place], float))[0, 0]
