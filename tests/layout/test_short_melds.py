"""A meld a missed tile broke: its two tiles found say what it was, and the hand is whole again."""

import pytest

from scoring.hand_json import wins_under
from scoring.notation import parse_tiles
from tests.layout.test_complete import TAIWAN
from tests.layout.test_layout import row, same, turn
from vision.layout import reconstruct

# 456789m 234p 11s 55z, winning 5z apart, then a chi 123m laid apart: a winning Taiwan hand.
CODES = [tile.code for tile in parse_tiles("456789m234p11s555z123m")]
GAPS = {13: 40, 14: 40}


def laid(without, codes=CODES, gaps=GAPS, rotated=()):
    return [t for i, t in enumerate(row(codes, gap_before=gaps, rotated=rotated)) if i != without]


def test_a_missed_middle_tile_is_the_one_between_the_two_ends():
    tiles = laid(without=15)
    for rules in ({}, {"wins": wins_under(TAIWAN)}):
        reading = reconstruct(tiles, "taiwan", **rules)
        assert same("".join(reading.hand), "456789m234p11s555z")
        assert [(m.type, m.tiles) for m in reading.melds] == [("chi", ("1m", "2m", "3m"))]
        assert [p.message for p in reading.problems] == [
            "17 tiles expected, 16 found: the one not found taken as 2m, to make a chi of 1m 3m"
        ]
        assert reading.unseen is not None and reading.unseen.code == "2m"
    # The box lies where the 2m lay, between the two ends it is the size of.
    missed = row(CODES, gap_before=GAPS)[15]["box"]
    assert reading.unseen.box == pytest.approx(missed, abs=2)
    # The problem points at the two ends.
    ones = [i for i, t in enumerate(tiles) if t["code"] in ("1m", "3m")][-2:]
    assert reading.problems[0].tiles == tuple(ones)


@pytest.mark.parametrize("degrees", [0, 90, 180, -60])
def test_a_missed_middle_is_found_at_any_angle_and_beside_a_sideways_tile(degrees):
    tiles = turn(laid(without=15, rotated={14}), degrees)
    reading = reconstruct(tiles, "taiwan", seat="E")
    assert reading.win_tile == "5z"
    assert [m.to_json() for m in reading.melds] == [{"type": "chi", "tiles": "123m", "from": "N"}]
    # The sideways 1m is longer along the row: the box sits in the gap, upright.
    full = turn(row(CODES, gap_before=GAPS, rotated={14}), degrees)[15]["box"]
    assert reading.unseen.box == pytest.approx(full, abs=10)


def test_a_pon_missing_its_middle_or_an_end():
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z777z")]
    middle = laid(without=15, codes=codes)
    reading = reconstruct(middle, "taiwan")
    assert [m.to_json() for m in reading.melds] == [{"type": "pon", "tiles": "777z"}]
    end = laid(without=16, codes=codes)
    reading = reconstruct(end, "taiwan")
    assert [m.to_json() for m in reading.melds] == [{"type": "pon", "tiles": "777z"}]
    assert reading.unseen is None  # which end is not shown
    assert reading.problems[0].kind == "unseen"


def test_a_chi_missing_an_end_takes_the_only_tile_that_fits_or_wins():
    # 1m 2m: only 3m makes a chi of them.
    reading = reconstruct(laid(without=16), "taiwan")
    assert [m.to_json() for m in reading.melds] == [{"type": "chi", "tiles": "123m"}]
    # 2m 3m: 1m or 4m. Both win this hand, so neither is taken and the meld stays short; the
    # problem says which two to look for, and given the rules the reading offers both melds.
    both = laid(without=14)
    for rules in ({}, {"wins": wins_under(TAIWAN)}):
        reading = reconstruct(both, "taiwan", **rules)
        assert reading.melds == ()
        assert [p.kind for p in reading.problems] == ["short_meld", "count"]
        said = "meld of 2 tiles (2m 3m): not counted; a tile not found? With 1m or 4m it is a chi"
        assert reading.problems[0].message == said + (
            ", and the hand wins either way" if rules else ""
        )
    pair = [i for i, t in enumerate(both) if t["code"] in ("2m", "3m")][-2:]
    assert reading.to_json()["would_win_with_meld"] == [
        {"tiles": pair, "meld": {"type": "chi", "tiles": "123m"}},
        {"tiles": pair, "meld": {"type": "chi", "tiles": "234m"}},
    ]
    assert (
        "would_win_with_meld" not in reconstruct(both, "taiwan").to_json()
    )  # no rules: no win known
    # 4m 5m beside four 3m in the row: a fifth 3m is no tile, so 6m is taken by the rules.
    codes = [tile.code for tile in parse_tiles("123333m789p234p11s456m")]
    four = laid(without=16, codes=codes, gaps={13: 40, 14: 40})
    reading = reconstruct(four, "taiwan", wins=wins_under(TAIWAN))
    assert [m.to_json() for m in reading.melds] == [{"type": "chi", "tiles": "456m"}]
    assert reading.would_win_with_meld == ()  # taken: nothing to offer
    assert reconstruct(four, "taiwan").melds == ()


def test_tiles_that_make_no_meld_or_a_whole_hand_stay_strays():
    # Honours make no chi: 1z and 3z a tile apart are two strays.
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z123z")]
    reading = reconstruct(laid(without=15, codes=codes), "taiwan")
    assert reading.melds == ()
    assert {p.kind for p in reading.problems} == {"stray", "count"}
    # A whole hand: two alike strays a tile apart past it are strays, not a meld.
    whole = row([*CODES[:17], "9p", "9p"], gap_before={13: 40, 14: 40, 17: 40, 18: 62})
    reading = reconstruct(whole, "taiwan")
    assert [m.tiles for m in reading.melds] == [("1m", "2m", "3m")]
    assert [p.kind for p in reading.problems] == ["stray", "stray"]


def test_two_broken_melds_say_nothing():
    # Two melds each lost a tile: the hand is six short, and neither is guessed.
    codes = [tile.code for tile in parse_tiles("456789m11s555z123m234p")]
    tiles = row(codes, gap_before={10: 40, 11: 40, 14: 40})
    tiles = [t for i, t in enumerate(tiles) if i not in (12, 15)]
    reading = reconstruct(tiles, "taiwan")
    assert reading.melds == ()
    assert reading.unseen is None


def test_a_kong_missing_a_tile_is_not_read_as_a_pon():
    # 7z 7z past the winning tile, and a third 7z lying beside or on them: a kong (or added
    # kong) one tile short. Taking a fourth as a pon's third would read a kong as a pon.
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z777z7z")]
    beside = laid(without=15, codes=codes, gaps={13: 40, 14: 40, 17: 40})
    stacked = laid(without=15, codes=codes[:17])
    x1, y1, x2, y2 = stacked[-1]["box"]
    stacked.append({**stacked[-1], "box": [x1 + 6, y1 - 10, x2 + 6, y2 - 10]})
    for tiles in (beside, stacked):
        reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
        assert reading.melds == ()
        assert "count" in [p.kind for p in reading.problems]


def test_a_doubtful_tile_of_the_meld_leaves_it_broken():
    # 1m read as 2m, unsure (runner-up 1m): 2m and 3m a tile apart make no meld as read, and
    # 2m 2m would make a pon: which meld it was is not read.
    tiles = laid(without=15)
    tiles[-2] = {
        **tiles[-2],
        "confidence": 0.4,
        "low_confidence": True,
        "alternatives": [["3m", 0.3]],
    }
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.melds == ()
    assert reading.unseen is None


def test_given_the_rules_the_hand_must_win_with_the_mended_meld():
    # The row holds a sure misread (a 2p read as 9s): with the chi made whole the hand does
    # not win, as read or completed, so the meld stays broken and the count stays said.
    tiles = laid(without=15)
    tiles[6] = {**tiles[6], "code": "9s"}
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.melds == ()
    assert "count" in [p.kind for p in reading.problems]
    # Without the rules the geometry alone says it.
    assert [m.tiles for m in reconstruct(tiles, "taiwan").melds] == [("1m", "2m", "3m")]


def test_a_group_that_is_no_meld_is_not_counted_as_one():
    # 4s 5s 7s past the winning tile (no meld) and a pon missing a tile: the hand is six
    # tiles short as the final count counts it, not three; nothing is taken.
    codes = [tile.code for tile in parse_tiles("456789m11s555z457s777z")]
    tiles = row(codes, gap_before={10: 40, 11: 40, 14: 40})[:-1]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert not [p for p in reading.problems if p.kind == "unseen"]
    assert "bad_meld" in [p.kind for p in reading.problems]


def test_a_concealed_kong_missing_a_back_is_the_kong():
    # 456789m 234p 11s 55z, winning 5z apart, then a concealed kong of 9s laid apart: back 9s
    # 9s back, one back not found. A back and two alike faces together are that kong.
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z9999s")]
    whole = row(codes, gap_before=GAPS, down={14, 17})
    for missed in (14, 17):
        tiles = [t for i, t in enumerate(whole) if i != missed]
        for rules in ({}, {"wins": wins_under(TAIWAN)}):
            reading = reconstruct(tiles, "taiwan", **rules)
            assert [m.to_json() for m in reading.melds] == [
                {"type": "concealed_kong", "tiles": "9999s"}
            ]
            labels = "9s 9s back" if missed == 14 else "back 9s 9s"
            assert [p.message for p in reading.problems] == [
                f"a back not found: {labels} taken as the concealed kong 9999s"
            ]
            assert reading.problems[0].tiles == tuple(sorted(reading.problems[0].tiles))
    # Two faces that are not alike, or a hand short of more than the kong, stay as read.
    odd = [
        t
        for i, t in enumerate(row([*codes[:15], "8s", *codes[16:]], gap_before=GAPS, down={14, 17}))
        if i != 17
    ]
    assert [p.kind for p in reconstruct(odd, "taiwan").problems] == ["bad_meld", "count"]
    short = [t for i, t in enumerate(whole) if i not in (0, 17)]
    assert reconstruct(short, "taiwan").melds == ()


def test_a_concealed_kong_missing_a_back_keeps_its_red_five():
    # Riichi with red fives: back 0m 5m back reads with its red five, and so must the kong
    # that lost a back (it was 5555m, which the scorer refuses where red fives count).
    codes = [tile.code for tile in parse_tiles("234567p234s11z")] + ["5m", "0m", "5m", "5m"]
    whole = row(codes, gap_before={10: 40, 11: 40}, down={11, 14})
    read_whole = reconstruct(whole, "riichi").melds
    assert [m.to_json() for m in read_whole] == [{"type": "concealed_kong", "tiles": "0555m"}]
    short = [t for i, t in enumerate(whole) if i != 14]
    assert reconstruct(short, "riichi").melds == read_whole
