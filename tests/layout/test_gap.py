"""vision/layout/gap.py: the gap a missed tile leaves in a row, and what fits a sorted row."""

import pytest

from tests.layout.test_layout import row
from vision.layout.gap import fitting, in_order, missing_place
from vision.layout.geometry import measure
from vision.layout.tiles import from_detections


@pytest.mark.parametrize(
    ("codes", "sorted_"),
    [
        (["1m", "1m", "2m", "9m", "3p", "1z", "7z"], True),
        (["3p", "4p", "1m", "2m", "5z"], True),  # any order of the suits
        (["1m", "3m", "2m"], False),
        (["1m", "2p", "3m"], False),  # 萬 apart
        (["7z", "1z"], False),
        (["1m", "xx"], False),
        (["0m", "5m", "6m"], True),  # a red five is a five
    ],
)
def test_a_row_is_in_order_when_each_suit_is_together_and_rising(codes, sorted_):
    assert in_order(codes) is sorted_


def test_what_fits_the_place_keeps_the_row_in_order():
    codes = ["3m", "4m", "6m", "7m"]
    assert fitting(codes, 2, ["2m", "5m", "8m", "4m", "6m", "5p"]) == ("5m", "4m", "6m")
    assert fitting(["4m", "3m"], 1, ["3m"]) == ()  # not in order as read: nothing fits


def _tiles(codes, gaps):
    tiles = from_detections(row(codes, gap_before=gaps))
    return tiles, measure(tiles)


def test_one_step_of_about_two_pitches_is_the_missing_tile_s_place():
    tiles, frame = _tiles(["1m", "2m", "3m", "5m", "6m"], {3: 62})  # a tile and a gap wide
    assert missing_place(tiles, frame) == 3
    tiles, frame = _tiles(["1m", "2m", "3m", "5m", "6m"], {})
    assert missing_place(tiles, frame) is None  # touching: no place
    tiles, frame = _tiles(["1m", "2m", "4m", "5m", "7m"], {2: 62, 4: 62})
    assert missing_place(tiles, frame) is None  # two places: which is not said
    tiles, frame = _tiles(["1m", "2m", "3m", "6m"], {3: 124})
    assert missing_place(tiles, frame) is None  # two tiles missing there
