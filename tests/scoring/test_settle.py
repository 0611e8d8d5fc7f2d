"""明將麻雀 埋數 (rule text 002): end of game and settlement, as a function and as ``tilescore settle``.

Every expected number is worked by hand from the text: start 150 (four seats: 600 in all), return
180; 2nd-4th score final − 180, 1st minus the sum of those three; ties go 起莊, 下家, 對家, 上家
(seats E S W N as seated in 東一局).
"""

import json
import subprocess

import pytest

from scoring.settle import GameState, SettleError, settle
from tests.cli_run import tilescore as run_tilescore


def table(result):
    return [(s.seat, s.place, s.final, s.points) for s in result.standings]


# Ranking and points ------------------------------------------------------------------------------


def test_points_second_to_fourth_final_minus_180_first_minus_their_sum():
    # 2nd S 170-180 = -10, 3rd W 120-180 = -60, 4th N 80-180 = -100; 1st E = -(-170) = 170.
    result = settle(GameState((230, 170, 120, 80)))
    assert result.ended
    assert table(result) == [
        ("E", 1, 230, 170),
        ("S", 2, 170, -10),
        ("W", 3, 120, -60),
        ("N", 4, 80, -100),
    ]
    assert sum(s.points for s in result.standings) == 0


def test_first_place_need_not_be_the_dealer():
    # N 260 first; W 150 -> -30, E 110 -> -70, S 80 -> -100; N = 200.
    result = settle(GameState((110, 80, 150, 260)))
    assert table(result) == [
        ("N", 1, 260, 200),
        ("W", 2, 150, -30),
        ("E", 3, 110, -70),
        ("S", 4, 80, -100),
    ]


def test_all_equal_ranks_in_seat_order_from_the_first_dealer():
    # Everyone 150: E S W N; 2nd-4th 150-180 = -30 each, 1st = 90.
    result = settle(GameState((150, 150, 150, 150)))
    assert table(result) == [
        ("E", 1, 150, 90),
        ("S", 2, 150, -30),
        ("W", 3, 150, -30),
        ("N", 4, 150, -30),
    ]


def test_tie_for_first_between_next_and_before_goes_to_next():
    # S and N both 190: 下家 (S) before 上家 (N). N 2nd 10, W 120 -> -60, E 100 -> -80; S = 130.
    result = settle(GameState((100, 190, 120, 190)))
    assert table(result) == [
        ("S", 1, 190, 130),
        ("N", 2, 190, 10),
        ("W", 3, 120, -60),
        ("E", 4, 100, -80),
    ]


def test_tie_for_last_between_dealer_and_across_puts_dealer_first():
    # E and W both 100: E (起莊) 3rd, W (對家) 4th. S 2nd 160 -> -20, E -80, W -80; N 240 = 180.
    result = settle(GameState((100, 160, 100, 240)))
    assert table(result) == [
        ("N", 1, 240, 180),
        ("S", 2, 160, -20),
        ("E", 3, 100, -80),
        ("W", 4, 100, -80),
    ]


# When the game ends ------------------------------------------------------------------------------


@pytest.mark.parametrize("after", ["E1", "E4", "S1", "S3"])
def test_reaching_180_before_south_four_ends_nothing(after):
    result = settle(GameState((250, 130, 120, 100), after))
    assert not result.ended
    assert result.next_hand == {"E1": "E2", "E4": "S1", "S1": "S2", "S3": "S4"}[after]


def test_south_four_with_nobody_at_180_goes_west():
    result = settle(GameState((179, 161, 140, 120), "S4"))
    assert not result.ended
    assert result.next_hand == "W1"
    assert "西入" in result.reason


def test_south_four_with_exactly_180_ends():
    # 最少180分: 180 is enough. S 150 -> -30, W 140 -> -40, N 130 -> -50; E = 120.
    result = settle(GameState((180, 150, 140, 130), "S4"))
    assert result.ended
    assert result.next_hand is None
    assert table(result)[0] == ("E", 1, 180, 120)


@pytest.mark.parametrize("after, following", [("W1", "W2"), ("W2", "W3"), ("W3", "W4")])
def test_west_round_goes_on_while_nobody_has_180(after, following):
    result = settle(GameState((170, 170, 140, 120), after))
    assert not result.ended
    assert result.next_hand == following


@pytest.mark.parametrize("after", ["W1", "W2", "W3"])
def test_west_round_stops_as_soon_as_someone_has_180(after):
    result = settle(GameState((140, 185, 150, 125), after))
    assert result.ended
    assert "S" in result.reason
    # S 185 first; W 150 -> -30, E 140 -> -40, N 125 -> -55; S = 125.
    assert table(result) == [
        ("S", 1, 185, 125),
        ("W", 2, 150, -30),
        ("E", 3, 140, -40),
        ("N", 4, 125, -55),
    ]


def test_west_four_ends_even_when_nobody_has_180():
    result = settle(GameState((170, 170, 140, 120), "W4"))
    assert result.ended
    # Tie E/S at 170: E first. S -10, W -40, N -60; E = 110.
    assert table(result)[:2] == [("E", 1, 170, 110), ("S", 2, 170, -10)]


def test_a_limit_hand_ends_the_game_at_once():
    result = settle(GameState((205, 135, 130, 130), "E1", limit_hand=True))
    assert result.ended
    assert "例牌" in result.reason


def test_a_negative_score_ends_the_game_at_once():
    # 詐糊 etc. can drive a score below 0. W -10 ends it in 東二局.
    result = settle(GameState((250, 190, -10, 170), "E2"))
    assert result.ended
    assert table(result) == [
        ("E", 1, 250, 190),
        ("S", 2, 190, 10),
        ("N", 3, 170, -10),
        ("W", 4, -10, -190),
    ]


def test_zero_is_not_negative_unless_the_option_says_so():
    scores = (250, 200, 0, 150)
    assert not settle(GameState(scores, "E2")).ended
    assert settle(GameState(scores, "E2"), {"zero_ends_game": True}).ended


def test_chinese_hand_names():
    assert settle(GameState((170, 160, 140, 130), "南四局")).next_hand == "W1"
    assert settle(GameState((170, 160, 140, 130), "東2")).next_hand == "E3"


# Bad input ---------------------------------------------------------------------------------------


@pytest.mark.parametrize(
    "scores, after, rules, message",
    [
        ((150, 150, 150), None, None, "got 3"),
        ((150, 150, 150, 150, 0), None, None, "got 5"),
        ((150, 150, "x", 150), None, None, "score of W"),
        ((150, 150, 150.5, 150), None, None, "score of W"),
        ((150, 150, 150, 151), None, None, "add up to 601"),
        ((150, 150, 150, 150), "N1", None, "no 北 round"),
        ((150, 150, 150, 150), None, {"bogus": 1}, "unknown rule option 'bogus'"),
        ((150, 150, 150, 150), None, {"zero_ends_game": 3}, "true or false"),
    ],
)
def test_bad_input_is_one_line(scores, after, rules, message):
    with pytest.raises(SettleError if rules is None else ValueError) as caught:
        settle(GameState(scores, after), rules)
    assert message in str(caught.value)
    assert "\n" not in str(caught.value)


def test_total_check_can_be_turned_off_and_other_start_and_return():
    result = settle(GameState((151, 150, 150, 150)), {"check_total": False})
    assert table(result)[0] == ("E", 1, 151, 90)
    # A 250 / 300 table: 2nd-4th final - 300.
    result = settle(GameState((400, 250, 200, 150)), {"start_points": 250, "return_points": 300})
    assert [s.points for s in result.standings] == [300, -50, -100, -150]


# The real command --------------------------------------------------------------------------------


def tilescore(*args: str) -> subprocess.CompletedProcess[str]:
    return run_tilescore("settle", *args)


def test_cli_text():
    run = tilescore("230", "170", "120", "80")
    assert run.returncode == 0, run.stderr
    assert run.stdout.startswith("Game over")
    lines = run.stdout.splitlines()
    assert "E 起莊" in lines[2] and "+170" in lines[2]
    assert "N 上家" in lines[5] and "-100" in lines[5]


def test_cli_json_west_round():
    run = tilescore("170", "160", "140", "130", "--after", "S4", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ended"] is False
    assert out["next_hand"] == "W1"
    assert out["after"] == "S4"
    assert (out["start_points"], out["return_points"]) == (150, 180)
    assert out["standings"][0] == {"seat": "E", "place": 1, "final": 170, "points": 110}
    assert [s["points"] for s in out["standings"]] == [110, -20, -40, -50]


def test_cli_negative_score_and_limit():
    run = tilescore("-20", "250", "190", "180", "--after", "E2", "--json")
    assert run.returncode == 0, run.stderr
    out = json.loads(run.stdout)
    assert out["ended"] is True
    assert [s["seat"] for s in out["standings"]] == ["S", "W", "N", "E"]
    run = tilescore("260", "150", "110", "80", "--after", "E3", "--limit", "--json")
    assert json.loads(run.stdout)["ended"] is True


@pytest.mark.parametrize(
    "args, message",
    [
        (("150", "150", "150"), "got 3"),
        (("150", "150", "abc", "150"), "score of W"),
        (("150", "150", "150", "150", "--rule", "bogus=1"), "unknown rule option"),
        (
            ("150",) * 4 + ("--rule", "start_points=250", "--rule", "start_points=300"),
            "rule start_points given twice",
        ),
        (("150", "150", "150", "150", "--after", "Z9"), "is not one of"),
    ],
)
def test_cli_errors_are_one_line(args, message):
    run = tilescore(*args)
    assert run.returncode != 0
    assert run.stdout == ""
    assert run.stderr.count("\n") == 1, run.stderr
    assert run.stderr.startswith("error: ") and message in run.stderr
    assert "Traceback" not in run.stderr
