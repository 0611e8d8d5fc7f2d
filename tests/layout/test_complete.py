"""A hand that is no winning hand as read, completed by its doubtful tiles' runner-up reads."""

from scoring.hand_json import score_json, wins_under
from scoring.notation import parse_tiles
from tests.layout.test_layout import HAND16, row, same, turn
from vision.layout import reconstruct
from vision.layout.complete import (
    MAX_CHANGES,
    SUIT_MATES_UP_TO,
    complete,
    tiles_left_out_that_win,
    tiles_that_win,
)
from vision.layout.tiles import LayoutTile, from_detections

TAIWAN = {"variant": "taiwan", "seat_wind": "S", "discarder": "N"}


def doubtful(tiles, position, code, *runner_ups, confidence=0.3):
    """The tile at ``position`` misread as ``code``, unsure, with these runner-ups."""
    tiles[position] = {
        **tiles[position],
        "code": code,
        "confidence": confidence,
        "alternatives": [[c, 0.2] for c in runner_ups],
    }
    return tiles


def winning_row():
    # 123456789m 23456p 11s + 7p apart: a winning Taiwan hand (pair 1s).
    return row([*HAND16, "7p"], gap_before={16: 40})


def test_a_misread_doubtful_tile_is_read_as_its_runner_up_to_make_the_winning_hand():
    tiles = doubtful(winning_row(), 4, "6m", "8s", "5m")  # a 5m read as 6m, 5m second runner-up
    assert score_json({**TAIWAN, **reconstruct(tiles, "taiwan").hand_json()})["winning"] is False
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.win_tile == "7p"
    assert [p.message for p in reading.problems] == [
        "low confidence: 6m read as 5m to make a winning hand"
    ]
    assert reading.problems[0].tiles == (4,)
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True


def test_the_winning_tile_itself_may_be_the_one_read_again():
    tiles = doubtful(winning_row(), 16, "9s", "7p")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "7p"
    assert any(g.role != "groups" and g.label == "win 7p" for g in reading.groups)


def test_a_sure_misread_is_left_as_read():
    sure = doubtful(winning_row(), 4, "6m", "5m", confidence=0.9)
    reading = reconstruct(sure, "taiwan", wins=wins_under(TAIWAN))
    assert "6m" in reading.hand
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is False


def test_a_doubtful_tile_no_runner_up_helps_is_read_as_the_one_tile_of_its_suit_that_wins():
    # 5m read as 6m, unsure, its one runner-up 8s: of the other 萬, only 5m makes a winning hand.
    tiles = doubtful(winning_row(), 4, "6m", "8s")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert [p.message for p in reading.problems] == [
        "low confidence: 6m read as 5m to make a winning hand"
    ]


def test_a_suit_mate_is_not_guessed_when_two_reads_would_win():
    # 7p apart is the winning tile, read doubtful as 9p with no runner-up: 23456p waits on 1p,
    # 4p and 7p, so 1p, 4p and 7p all win and the hand does not say which it was.
    tiles = doubtful(winning_row(), 16, "9p")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "9p"
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is False


def test_a_suit_mate_is_read_only_among_a_few_doubtful_tiles():
    # The 5m misread as 6m with no runner-up, beside SUIT_MATES_UP_TO other right tiles in doubt:
    # with so many in doubt, the hand has too many ways to win to say which.
    tiles = doubtful(winning_row(), 4, "6m")
    for position in range(SUIT_MATES_UP_TO):
        tiles = doubtful(tiles, 8 + position, tiles[8 + position]["code"], confidence=0.4)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert "6m" in reading.hand and "5m" not in reading.hand
    fewer = doubtful(tiles, 8, tiles[8]["code"], confidence=0.9)
    assert "5m" in reconstruct(fewer, "taiwan", wins=wins_under(TAIWAN)).hand


def test_a_winning_hand_keeps_its_reads():
    # 1m is right and doubtful; its runner-up 4m would make 1m missing: not tried at all, as the
    # hand wins as read.
    tiles = doubtful(winning_row(), 0, "1m", "4m")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.problems[0].message == "low confidence: 1m or 4m?"


def test_a_tile_the_detector_missed_is_the_one_tile_that_makes_the_hand_win():
    # The 5m not found: 1234m 6789m can only be 123 456 789m again.
    tiles = [t for i, t in enumerate(winning_row()) if i != 4]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert [(p.kind, p.message) for p in reading.problems] == [
        ("split_row", "gap inside the concealed row after 4m: read as one row"),
        (
            "unseen",
            "17 tiles expected, 16 found: the one not found taken as 5m, the only tile that "
            "makes a winning hand",
        ),
    ]
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is True
    # The display points at the gap it left: where the 5m lay, taken as 5m.
    assert reading.unseen is not None and reading.unseen.code == "5m"
    where = zip(reading.unseen.box, winning_row()[4]["box"], strict=True)
    assert all(abs(a - b) < 1 for a, b in where)
    assert reading.to_json()["unseen"]["code"] == "5m"
    # Without the rules nothing is added; the gap is still pointed at, with no tile taken.
    geometry = reconstruct(tiles, "taiwan")
    assert len(geometry.hand) == 16
    assert "17 tiles expected, 16 found" in [p.message for p in geometry.problems]
    assert geometry.unseen is not None and geometry.unseen.code is None


def test_of_several_tiles_that_would_win_the_one_that_fits_the_gap_of_a_sorted_row():
    # The 4p not found: 23p 56p 7p waits on 1p and 4p; in the sorted row the gap lies between
    # 3p and 5p, where only 4p keeps it in order.
    tiles = [t for i, t in enumerate(winning_row()) if i != 11]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.problems[-1].message == (
        "17 tiles expected, 16 found: the one not found taken as 4p, the only tile that makes "
        "a winning hand in the gap it left"
    )
    # The same row out of order (its first two tiles swapped) says nothing of the gap: the
    # tiles that would win are named for the player to look for.
    swapped = ["2m", "1m", *HAND16[2:9]]
    unsorted = [{**t, "code": code} for t, code in zip(tiles[:9], swapped, strict=True)]
    unsorted += tiles[9:]
    short = reconstruct(unsorted, "taiwan", wins=wins_under(TAIWAN))
    assert len(short.hand) == 16
    assert short.problems[-1].message == (
        "17 tiles expected, 16 found: 1p or 4p would make a winning hand"
    )


def test_a_gap_between_two_suits_is_no_missing_tiles_place():
    # Some players leave a tile's width between suits: here between 筒 and 索, while the tile
    # missed is a 2s at the row's end. 1s or 2s would win; the gap must not choose 1s.
    codes = [tile.code for tile in parse_tiles("123789m234567p11222s")]
    tiles = row(codes, gap_before={12: 62, 16: 40})
    del tiles[15]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert len(reading.hand) == 16
    assert reading.problems[-1].message == (
        "17 tiles expected, 16 found: 1s or 2s would make a winning hand"
    )


def test_a_tile_missed_at_the_end_of_the_row_leaves_no_gap_to_say_which():
    # The 1m not found: 23456789m can be 123 456 789m, 234 456 789m or 234 567 789m.
    tiles = [t for i, t in enumerate(winning_row()) if i != 0]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert len(reading.hand) == 16
    assert [p.message for p in reading.problems] == [
        "17 tiles expected, 16 found: 1m or 4m or 7m would make a winning hand"
    ]
    assert reading.unseen is None and "unseen" not in reading.to_json()  # no gap to point at


def test_a_lone_tile_a_missed_tile_cut_off_before_the_winning_tile_stays_in_the_row():
    # The 1s (HAND16[14]) not found leaves the other 1s alone before the winning tile: it is the
    # row's, not the winning tile (with the real one a stray), so the one tile that wins is found.
    tiles = [t for i, t in enumerate(winning_row()) if i != 14]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.win_tile == "7p"
    assert [p.message for p in reading.problems] == [
        "gap inside the concealed row before 1s: read as one row",
        "17 tiles expected, 16 found: the one not found taken as 1s, the only tile that makes "
        "a winning hand",
    ]
    # Without the rules the hand is still read a tile short, not two.
    assert len(reconstruct(tiles, "taiwan").hand) == 16


def test_a_lone_tile_at_each_end_of_a_sorted_row_takes_its_way_up_from_the_order():
    # The 2m not found leaves the 1m alone before the row, and the 7p lies alone after it:
    # turned round the layout looks the same, and only the order says the 7p is the winning
    # tile (1m 3456789m 23456p 11s is sorted, 7p 11s 65432p 9876543m is not).
    for degrees in (0, 180, -90):
        tiles = turn([t for i, t in enumerate(winning_row()) if i != 1], degrees)
        reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
        assert reading.win_tile == "7p"
        assert same("".join(reading.hand), "".join(HAND16) + "7p")
        assert reading.problems[-1].message == (
            "17 tiles expected, 16 found: the one not found taken as 2m, the only tile that "
            "makes a winning hand"
        )
        assert reading.unseen is not None and reading.unseen.code == "2m"


def test_a_lone_tile_at_each_end_of_an_unsorted_row_leaves_the_way_up_unsaid():
    # The same with the row out of order (its 3m and 4m swapped): either end may hold the
    # winning tile, and taking one into the row would choose; the hand is left two short.
    laid = winning_row()
    laid[2], laid[3] = {**laid[2], "code": "4m"}, {**laid[3], "code": "3m"}
    tiles = [t for i, t in enumerate(laid) if i != 1]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert len(reading.hand) == 15
    assert "17 tiles expected, 15 found" in [p.message for p in reading.problems]


def test_what_lies_past_the_winning_tile_is_not_taken_into_the_row():
    # A tile missed in the row (the 5m) and a stray past the winning tile: the winning tile
    # stays the winning tile, and the stray a stray.
    tiles = row([*HAND16, "7p", "9s"], gap_before={16: 40, 17: 62})
    del tiles[4]
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "7p"
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    # A claimed chi past the winning tile, its middle tile missed: its ends stay out of the row
    # (they are the chi's, tests/layout/test_short_melds.py).
    codes = [tile.code for tile in parse_tiles("456789m234p11s555z123m")]
    chi = [t for i, t in enumerate(row(codes, gap_before={13: 40, 14: 40})) if i != 15]
    reading = reconstruct(chi, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "5z"
    assert same("".join(reading.hand), "456789m234p11s555z")
    # A kong laid flat between the row and the winning tile, a tile missed: not a row of 17.
    codes = [tile.code for tile in parse_tiles("123456789m234p1s7777z1s")]
    kong = [t for i, t in enumerate(row(codes, gap_before={13: 40, 17: 40})) if i != 4]
    assert len(reconstruct(kong, "taiwan", wins=wins_under(TAIWAN)).hand) < 16


def test_a_set_a_missed_tile_cut_off_before_the_winning_tile_stays_in_the_row():
    # 123456789m 11p 3s [4s not found] 555s, 2s apart: the 555s lie between the row and the
    # winning tile, where no meld lies, one tile's gap from the row: concealed, not a pon.
    codes = [tile.code for tile in parse_tiles("123456789m11p3s555s2s")]
    tiles = row(codes, gap_before={12: 62, 15: 40})
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.melds == ()
    assert same("".join(reading.hand), "123456789m11p34555s2s")
    assert reading.problems[-1].message == (
        "17 tiles expected, 16 found: the one not found taken as 4s, the only tile that makes "
        "a winning hand in the gap it left"
    )
    # A set with a tile turned sideways is a claimed meld wherever it lies.
    claimed = row(codes, gap_before={12: 62, 15: 40}, rotated={13})
    assert [m.type for m in reconstruct(claimed, "taiwan", wins=wins_under(TAIWAN)).melds] == [
        "pon"
    ]
    # Further than one missed tile from the row, it is a meld laid apart.
    apart = row(codes, gap_before={12: 124, 15: 40})
    assert [m.type for m in reconstruct(apart, "taiwan").melds] == ["pon"]
    # Past a gap between two suits, unturned, it is the row's too: a claimed meld shows its
    # claimed tile and lies past the winning tile; players part their suits (a helper's probe).
    honours = [tile.code for tile in parse_tiles("123456789m234p1s777z1s")]
    whole = row(honours, gap_before={13: 40, 16: 40})
    short = [t for i, t in enumerate(whole) if i != 4]
    for tiles in (whole, short):
        reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
        assert reading.melds == () and same("".join(reading.hand), "123456789m234p11s777z")
        assert "gap inside the concealed row before 7z: read as one row" in [
            p.message for p in reading.problems
        ]


def test_a_whole_hand_keeps_a_lone_tile_past_its_winning_tile_apart():
    # Nothing was missed: a tile lying past the winning tile is a stray, whatever the gap.
    tiles = row([*HAND16, "7p", "9s"], gap_before={16: 40, 17: 62})
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "7p"
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert [p.kind for p in reading.problems] == ["stray"]


def test_the_unseen_tile_of_a_hand_of_pieces_is_a_piece():
    tried = []

    def wins(codes):
        tried.append(codes[-1])
        return codes[-1] == "1b"

    assert tiles_that_win(("2b", "3b"), wins) == ("1b",)
    assert tried == [f"{n}{colour}" for colour in "br" for n in range(1, 8)]
    assert tiles_that_win(("1m",), lambda codes: codes[-1] in ("1m", "2m")) == ("1m", "2m")


def test_without_the_rules_nothing_is_tried():
    tiles = doubtful(winning_row(), 4, "6m", "5m")
    assert "6m" in reconstruct(tiles, "taiwan").hand


def _tile(index, code, confidence=0.3, alternatives=()):
    return LayoutTile(
        index, code, (0, 0, 1, 1), confidence, low_confidence=confidence < 0.5,
        alternatives=alternatives,
    )  # fmt: skip


def test_fewest_changes_first_then_first_runner_ups_then_the_least_sure_tile():
    tiles = [
        _tile(0, "1m", 0.4, ("2m", "3m")),
        _tile(1, "4p", 0.2, ("5p",)),
        _tile(2, "7s", 0.9, ("8s",)),  # sure: never changed
    ]
    tried = []

    def wins(codes):
        tried.append(codes)
        return codes in {("3m", "4p", "7s"), ("2m", "5p", "7s"), ("1m", "4p", "8s")}

    done = complete(tiles, wins)
    assert done is not None and done.codes == ("3m", "4p", "7s")  # one change beats two
    assert [(t.index, code) for t, code in done.swaps] == [(0, "3m")]
    # As read, then one change each: the less sure tile's runner-up, the first runner-up of the
    # other, then its second.
    assert tried == [
        ("1m", "4p", "7s"),
        ("1m", "5p", "7s"),
        ("2m", "4p", "7s"),
        ("3m", "4p", "7s"),
    ]


def test_runner_ups_that_name_no_tile_are_not_tried():
    tiles = [_tile(0, "1m", 0.2, ("back", "xx", "1m"))]
    tried = []
    assert complete(tiles, lambda codes: tried.append(codes) or False) is None
    # As read, then (no runner-up naming a tile) each other 萬 in its place.
    assert tried == [("1m",)] + [(f"{n}m",) for n in range(2, 10)]


def test_suit_mates_of_an_honour_a_red_five_and_a_piece():
    tried = []

    def wins(codes):
        tried.append(codes[0])
        return False

    for code in ("6z", "0p", "3r", "2f"):
        complete([_tile(0, code)], wins)
    assert tried == [
        "6z", *(f"{n}z" for n in (1, 2, 3, 4, 5, 7)),
        "0p", *(f"{n}p" for n in (1, 2, 3, 4, 6, 7, 8, 9)),  # 5p: the scorer's 0p
        "3r", *(f"{n}r" for n in (1, 2, 4, 5, 6, 7)),
        "2f",  # a flower is no hand's tile: nothing tried
    ]  # fmt: skip


def test_no_more_than_max_changes():
    tiles = [_tile(i, "1m", 0.1, ("2m",)) for i in range(MAX_CHANGES + 1)]
    assert complete(tiles, lambda codes: codes == ("2m",) * (MAX_CHANGES + 1)) is None
    assert complete(tiles, lambda codes: codes.count("2m") == MAX_CHANGES) is not None


def test_reconstruct_completes_on_the_command_line_only_when_asked():
    import json

    from tests.cli_run import tilescore
    from tests.layout.test_layout import photo

    detections = json.dumps(photo(doubtful(winning_row(), 4, "6m", "8s", "5m")))
    hands = {}
    for extra in ([], ["--complete"]):
        run = tilescore("reconstruct", "--json", "-", *extra, stdin=detections, timeout=60)
        assert run.returncode == 0, run.stderr
        hands[bool(extra)] = json.loads(run.stdout)
    assert hands[False]["hand"].startswith("123466789m")  # as read: 6m twice, no 5m
    assert hands[True]["hand"].startswith("123456789m")
    assert "low confidence: 6m read as 5m to make a winning hand" in hands[True]["problems"]
    assert score_json({**TAIWAN, **{k: hands[True][k] for k in ("hand", "win_tile", "melds")}})[
        "winning"
    ]
    unknown = tilescore(
        "reconstruct", "--json", "-", "--variant", "go", stdin=detections, timeout=60
    )
    assert unknown.returncode == 2 and unknown.stderr.count("\n") == 1
    assert "unknown variant 'go'" in unknown.stderr


def _named(reading):
    return [(p.message, p.tiles) for p in reading.problems if p.kind == "would_win_as"]


def test_a_sure_misread_is_left_as_read_and_the_read_that_would_win_is_named():
    # The 7m read surely as 9p: never changed, but the one read that makes the hand win is
    # named for the player to check.
    tiles = doubtful(winning_row(), 6, "9p", confidence=0.99)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert "9p" in reading.hand and "7m" not in reading.hand
    assert _named(reading) == [("not a winning hand as read; it wins with 9p read as 7m", (6,))]
    assert reading.would_win_as == ((6, "7m"),)
    fixed = [*reading.hand]
    fixed[fixed.index("9p")] = "7m"
    assert score_json({**TAIWAN, **reading.hand_json(), "hand": "".join(fixed)})["winning"]
    # Without the rules nothing is known to win, so nothing is named.
    assert reconstruct(tiles, "taiwan").would_win_as == ()


def test_the_reads_of_one_tile_are_named_together():
    # The 4p read surely as 9p: 23p 56p 7p waits on 1p or 4p.
    tiles = doubtful(winning_row(), 11, "9p", confidence=0.99)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert _named(reading) == [
        ("not a winning hand as read; it wins with 9p read as 1p or 4p", (11,))
    ]
    assert reading.would_win_as == ((11, "1p"), (11, "4p"))


def test_the_winning_tile_misread_is_named_as_the_winning_tile():
    # The winning 7p read surely as 5z: 23456p waits on 1p, 4p and 7p, and the read changes the
    # winning tile, so it is tried apart from any 5z in the row.
    tiles = doubtful(winning_row(), 16, "5z", confidence=0.99)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.win_tile == "5z"
    assert _named(reading) == [
        ("not a winning hand as read; it wins with the winning 5z read as 1p, 4p or 7p", (16,))
    ]


def test_two_tiles_either_of_which_would_win_are_both_named():
    # The 2m read as 5p (less surely than the real 5p, so it stands for both): 2m again wins,
    # and so does the 2p read as 2m (1m 2m 3m ... and 345p 56p 7p).
    tiles = doubtful(winning_row(), 1, "5p", confidence=0.9)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert _named(reading) == [
        ("not a winning hand as read; it wins with 5p read as 2m, or 2p read as 2m", (1, 9))
    ]


def test_a_tile_with_copies_is_named_by_its_least_sure_copy():
    # The 7m read as 5m, less surely than the real 5m: either 5m read as 7m wins, so the one the
    # classifier was less sure of is the one named.
    tiles = doubtful(winning_row(), 6, "5m", confidence=0.9)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.would_win_as == ((6, "7m"),)
    surer = doubtful(winning_row(), 6, "5m", confidence=0.99)  # the real 5m (0.95) less sure
    assert reconstruct(surer, "taiwan", wins=wins_under(TAIWAN)).would_win_as == ((4, "7m"),)


def test_more_reads_that_would_win_than_a_person_can_check_name_none():
    # The 5m read surely as 6m: in a hand of 1-9m six reads of one tile win (6m as 5m, 1m as
    # 6m, 9m as 5m ...): they say little of which tile is wrong.
    tiles = doubtful(winning_row(), 4, "6m", confidence=0.99)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.would_win_as == () and _named(reading) == []
    assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is False


def test_a_hand_that_wins_or_is_short_names_no_read():
    assert reconstruct(winning_row(), "taiwan", wins=wins_under(TAIWAN)).would_win_as == ()
    short = [t for i, t in enumerate(winning_row()) if i != 0]
    reading = reconstruct(short, "taiwan", wins=wins_under(TAIWAN))
    assert reading.would_win_as == () and reading.would_win == ("1m", "4m", "7m")


RIICHI = {"variant": "riichi", "seat_wind": "S", "self_draw": True}


def _riichi_row(codes, rules=None):
    """A riichi hand (tile codes) laid in a row, its last tile apart as the winning tile."""
    tiles = row(codes, gap_before={len(codes) - 1: 40})
    return tiles, wins_under({**RIICHI, **({"rules": rules} if rules else {})})


def test_a_red_five_under_rules_without_them_is_named_read_as_its_five():
    # 234m 34p and a red 5p, 567s 111z, 5p pair: riichi without red fives takes no hand that
    # holds one, so the red five read as a plain 5p is one of the reads that win.
    tiles, wins = _riichi_row([t.code for t in parse_tiles("234m340p567s111z55p")])
    reading = reconstruct(tiles, "riichi", wins=wins)
    assert (5, "5p") in reading.would_win_as


def test_a_red_five_and_a_plain_one_read_as_the_same_tile_are_named_once():
    # With red fives on, the 0p and a 5p read as 1s make the same hand: said once.
    codes = [t.code for t in parse_tiles("3s7p0p5p8p5p4s5p4s4s1s0s6p4s")]
    tiles, wins = _riichi_row(codes, {"red_fives": True})
    reading = reconstruct(tiles, "riichi", wins=wins)
    reads = [(codes[i], code) for i, code in reading.would_win_as]
    assert reads.count(("0p", "1s")) + reads.count(("5p", "1s")) == 1
    assert ("8p", "1s") in reads


def _with_a_box_in_the_row(code, after=15, confidence=0.4):
    """The winning row with one box more after tile ``after``, read as ``code``: a box on
    something that holds no tile (a key) read as one; the tiles after it move a tile on."""
    tiles = winning_row()
    box = {**tiles[after], "code": code, "confidence": confidence}
    shifted = [{**t, "box": [t["box"][0] + 62, t["box"][1], t["box"][2] + 62, t["box"][3]]}
               for t in tiles[after + 1 :]]  # fmt: skip
    box["box"] = [box["box"][0] + 62, box["box"][1], box["box"][2] + 62, box["box"][3]]
    return [*tiles[: after + 1], box, *shifted]


def test_a_hand_a_tile_over_names_the_tile_without_which_it_wins():
    tiles = _with_a_box_in_the_row("5z")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.would_win_without == (16,)
    assert reading.problems[-1].message == (
        "17 tiles expected, 18 found: without 5z it is a winning hand"
    )
    assert reading.problems[-1].tiles == (16,)
    assert reading.to_json()["would_win_without"] == [16]
    # Without the rules nothing is known to win: the count alone.
    plain = reconstruct(tiles, "taiwan")
    assert plain.would_win_without == ()
    assert plain.problems[-1].message == "17 tiles expected, 18 found"


def test_of_two_copies_the_least_sure_is_named():
    # A 9m box after the 1s: either 9m left out leaves the winning hand, so the less sure one is
    # named.
    tiles = _with_a_box_in_the_row("9m", confidence=0.9)
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert reading.would_win_without == (16,)
    tiles[8] = {**tiles[8], "confidence": 0.8}  # the real 9m, now the less sure
    assert reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN)).would_win_without == (8,)


def test_the_tiles_left_out_are_never_the_winning_tile_and_none_when_too_many():
    concealed = from_detections(row(["1m", "2m", "3m", "4m", "5m", "6m", "7m"]))
    win = concealed[-1]
    every = tiles_left_out_that_win(concealed, win, lambda codes: True, 6)
    assert [t.code for t in every] == ["1m", "2m", "3m", "4m", "5m", "6m"]  # not the 7m
    assert tiles_left_out_that_win(concealed, win, lambda codes: True, 5) == ()


def test_a_box_set_aside_keeps_its_place_in_the_row():
    # A key read as 5z between the 1m and the 2m, then said to hold no tile: it leaves no gap
    # that cuts the row or strands the 1m as a stray, and the hand wins as laid.
    for after in (0, 7, 15):
        tiles = _with_a_box_in_the_row("other", after=after)
        reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
        assert same("".join(reading.hand), "".join(HAND16) + "7p"), after
        assert reading.win_tile == "7p" and reading.problems == ()
    # One lying on a tile (a box drawn on a tile's edge) takes no tile's place.
    tiles = winning_row()
    on_top = {**tiles[3], "code": "other", "confidence": 1.0}
    reading = reconstruct([*tiles, on_top], "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p") and reading.problems == ()
    # The same gap with no box in it is a gap: the row is cut there, and the 1m is a stray.
    gap = [t for t in _with_a_box_in_the_row("other", after=0) if t["code"] != "other"]
    assert "tile 1m lies apart from the hand: not counted" in [
        p.message for p in reconstruct(gap, "taiwan", wins=wins_under(TAIWAN)).problems
    ]


def test_a_riichi_hand_whose_one_yaku_is_riichi_is_not_read_into_another_hand():
    # 234678m 4556p 123s + 5p: closed, no yaku but 立直, which a photo cannot show. Its 1s read
    # doubtfully with 4s second would make 斷么九: a right read changed to find a yaku.
    riichi = {"variant": "riichi", "seat_wind": "S", "discarder": "E"}
    codes = ["2m", "3m", "4m", "6m", "7m", "8m", "4p", "5p", "5p", "6p", "1s", "2s", "3s", "5p"]
    tiles = doubtful(row(codes, gap_before={13: 40}), 10, "1s", "4s", confidence=0.45)
    hand = reconstruct(tiles, "riichi").hand_json()
    assert "error" in score_json({**riichi, **hand})  # no yaku as read
    assert score_json({**riichi, **hand, "events": ["riichi"]})["winning"] is True
    reading = reconstruct(tiles, "riichi", wins=wins_under(riichi))
    assert reading.hand_json() == hand
    # A riichi it was never said to have wins no hand of another shape, nor an open one.
    assert wins_under(riichi)({**hand, "hand": hand["hand"].replace("123s", "124s")}) is False
    chi = {**hand, "hand": "234678m4556p5p", "melds": [{"type": "chi", "tiles": "123s"}]}
    assert wins_under(riichi)(chi) is False


def test_a_xiangqi_chi_is_only_what_the_scorer_takes_so_a_runner_up_may_make_one():
    # 卒卒 and a set 帥俥炮 whose 帥 is doubtful with 傌 (5r) as runner-up: typed chi as read,
    # the scorer refused 帥俥炮 and the runner-up that makes 俥傌炮 was never tried.
    tiles = doubtful(row(["7b", "7b", "4r", "1r", "6r"], gap_before={2: 180}), 3, "1r", "5r")
    xiangqi = {"variant": "xiangqi", "discarder": "left"}
    reading = reconstruct(tiles, "xiangqi", wins=wins_under(xiangqi))
    assert [(m.type, m.tiles) for m in reading.melds] == [("chi", ("4r", "5r", "6r"))]
    assert score_json({**xiangqi, **reading.hand_json()})["winning"] is True
