"""A doubtful flower read lying in a row a tile short: the tile the classifier took for a flower."""

from scoring.hand_json import score_json, wins_under
from tests.layout.test_complete import TAIWAN, doubtful, winning_row
from tests.layout.test_layout import HAND16, H, W, row, same
from vision.layout import reconstruct
from vision.layout.flower_misreads import flower_as_missing_tile
from vision.layout.tiles import from_detections

PAIR_1S = 14  # the first of winning_row()'s pair of 1s


def read(tiles):
    return reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))


def test_a_doubtful_flower_in_the_rows_empty_place_is_read_as_its_runner_up_tile():
    # A bird 1s read as the 4f, 1s its runner-up: as the real photos' birds read.
    tiles = doubtful(winning_row(), PAIR_1S, "4f", "1s")
    reading = read(tiles)
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.flowers == ()
    assert [p.message for p in reading.problems] == [
        "low confidence: 4f read as 1s to make a winning hand"
    ]
    assert reading.problems[0].tiles == (PAIR_1S,)
    concealed = next(g for g in reading.groups if g.role == "concealed")
    assert PAIR_1S in concealed.tiles
    assert not any(g.role == "flowers" for g in reading.groups)
    assert reading.unseen is None
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True


def test_without_the_table_rules_it_stays_a_flower_and_the_hand_a_tile_short():
    reading = reconstruct(doubtful(winning_row(), PAIR_1S, "4f", "1s"), "taiwan")
    assert reading.flowers == ("4f",)
    assert any(p.kind == "count" for p in reading.problems)


def test_a_flower_read_surely_stays_a_flower():
    tiles = doubtful(winning_row(), PAIR_1S, "4f", "1s", confidence=0.9)
    reading = read(tiles)
    assert reading.flowers == ("4f",)
    assert "4f read as" not in " ".join(p.message for p in reading.problems)


def test_a_doubtful_flower_set_apart_from_the_row_stays_a_flower():
    tiles = doubtful(winning_row(), PAIR_1S, "4f", "1s")
    x1, y1, x2, y2 = tiles[PAIR_1S]["box"]
    tiles[PAIR_1S]["box"] = [x1, y1 + 2 * H, x2, y2 + 2 * H]  # a row in front of the hand
    reading = read(tiles)
    assert reading.flowers == ("4f",)


def test_a_flower_whose_runner_ups_make_no_winning_hand_stays_a_flower():
    tiles = doubtful(winning_row(), PAIR_1S, "4f", "9s", "2f")
    reading = read(tiles)
    assert reading.flowers == ("4f",)
    assert not reading.hand.count("9s")


def test_the_first_runner_up_that_wins_is_taken_past_flowers_and_losers():
    tiles = doubtful(winning_row(), PAIR_1S, "4f", "2f", "9s", "1s")
    assert read(tiles).flowers == ()
    assert read(tiles).hand.count("1s") == 2


def test_a_flower_at_the_rows_end_is_read_in_too():
    tiles = doubtful(winning_row(), PAIR_1S + 1, "1f", "1s")  # the row's last tile
    reading = read(tiles)
    assert reading.flowers == ()
    assert reading.hand.count("1s") == 2
    assert reading.win_tile == "7p"


def test_a_flower_past_the_rows_end_stays_a_flower_where_a_gap_in_the_row_shows_the_missing_tile():
    # A sorted row missing its 5m leaves a gap after 4m; a doubtful 3f past the row's end whose
    # runner-up is 5m is not that tile: the gap says where the 5m lay (helper 61).
    codes = [c for i, c in enumerate(HAND16) if i != 4] + ["3f", "7p"]
    tiles = doubtful(row(codes, gap_before={4: W + 2, 16: 40}), 15, "3f", "5m")
    reading = read(tiles)
    assert reading.flowers == ("3f",)
    assert reading.taken == "5m" and reading.unseen is not None


def test_two_flowers_either_of_which_would_win_say_nothing_of_which():
    tiles = from_detections(doubtful(doubtful(winning_row(), 14, "4f", "1s"), 15, "1f", "1s"))
    reading = reconstruct(tiles, "taiwan")
    again = lambda as_tiles: reconstruct(as_tiles, "taiwan")  # noqa: E731
    assert flower_as_missing_tile(tiles, reading, again, lambda r: True, lambda h: True) is None
    only_15 = flower_as_missing_tile(  # read as a tile, only the 1f makes a whole hand
        tiles, reading, again, lambda r: r.hand.count("1s") and 15 not in _flowers(r), bool
    )
    assert only_15 is not None and only_15.flowers == ("4f",)


def _flowers(reading):
    return {i for g in reading.groups if g.role == "flowers" for i in g.tiles}


def test_a_flower_in_a_melds_empty_place_is_the_melds_tile():
    # 123456789m 1s + 1s apart, then a pon of 7z and a chi of 789s; the pon's last 7z read
    # as 2f: the pon was mended with a 7z not found and the 2f counted too, a tile twice.
    codes = [*HAND16[:9], "1s", "1s", "7z", "7z", "7z", "7s", "8s", "9s"]
    gaps = {10: 40, 11: 40, 14: 40}
    tiles = doubtful(row(codes, gap_before=gaps), 13, "2f", "7z")
    reading = read(tiles)
    assert reading.flowers == ()
    assert [m.type for m in reading.melds] == ["pon", "chi"]
    assert "low confidence: 2f read as 7z to make a winning hand" in [
        p.message for p in reading.problems
    ]
    assert not any(p.kind == "unseen" for p in reading.problems)
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True


def test_the_winning_tile_set_apart_read_as_a_flower_is_the_winning_tile():
    tiles = doubtful(winning_row(), 16, "4f", "7p")
    reading = read(tiles)
    assert reading.flowers == () and reading.win_tile == "7p"
    assert any(g.role == "win" and g.tiles == (16,) for g in reading.groups)


def test_a_flower_in_a_chis_middle_is_said_as_the_tile_the_chi_holds():
    # Read again as its first runner-up 6s, the meld step read it as 8s to make the chi, and the
    # line said "2f read as 6s" of a chi 789s (helper 63).
    codes = [*HAND16[:9], "1s", "1s", "7z", "7z", "7z", "7s", "8s", "9s"]
    tiles = doubtful(row(codes, gap_before={10: 40, 11: 40, 14: 40}), 15, "2f", "6s", "8s")
    reading = read(tiles)
    assert [str(m) for m in reading.melds] == ["pon:777z", "chi:789s"]
    assert [p.message for p in reading.problems] == [
        "low confidence: 2f read as 8s to make a winning hand"
    ]


def test_of_the_tiles_that_would_win_the_one_that_keeps_a_sorted_row_in_order_is_taken():
    # 2p 3p [3f] 5p 6p: 1p (its first runner-up) wins too, as 123p 567p, but lies out of order
    # where the 4p lay (helper 63).
    base = [*HAND16, "7p"]
    tiles = doubtful(row(base, gap_before={16: 40}), base.index("4p"), "3f", "1p", "4p")
    reading = read(tiles)
    assert [p.message for p in reading.problems] == [
        "low confidence: 3f read as 4p to make a winning hand"
    ]
