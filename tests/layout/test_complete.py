"""A hand that is no winning hand as read, completed by its doubtful tiles' runner-up reads."""

from scoring.hand_json import score_json, wins_under
from tests.layout.test_layout import HAND16, row, same
from vision.layout import reconstruct
from vision.layout.complete import MAX_CHANGES, complete
from vision.layout.tiles import LayoutTile

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


def test_a_sure_misread_or_a_runner_up_that_does_not_win_is_left_as_read():
    sure = doubtful(winning_row(), 4, "6m", "5m", confidence=0.9)
    unhelpful = doubtful(winning_row(), 4, "6m", "8s")
    for tiles in (sure, unhelpful):
        reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
        assert "6m" in reading.hand
        assert score_json({**TAIWAN, **reading.hand_json()})["winning"] is False


def test_a_winning_hand_keeps_its_reads():
    # 1m is right and doubtful; its runner-up 4m would make 1m missing: not tried at all, as the
    # hand wins as read.
    tiles = doubtful(winning_row(), 0, "1m", "4m")
    reading = reconstruct(tiles, "taiwan", wins=wins_under(TAIWAN))
    assert same("".join(reading.hand), "".join(HAND16) + "7p")
    assert reading.problems[0].message == "low confidence: 1m or 4m?"


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
    assert tried == [("1m",)]


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
