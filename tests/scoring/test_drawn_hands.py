"""流局 at the tables seated by wind (Taiwan, riichi, 明將): what a drawn hand pays and how it
moves the deal, through the same JSON interface as ``tilescore score``."""

import json

import pytest

from scoring.drawn_hands import DealMove, Streak, ready_payments
from scoring.hand_json import score_json
from scoring.result_notes import notes
from tests.cli_run import tilescore

CHAIRS = ("E", "S", "W", "N")


def drawn(variant, draw, **top):
    return score_json({"variant": variant, "draw": draw, **top})


def paid(result):
    return sorted((p["payer"], p["payee"], p["amount"]) for p in result["payments"])


@pytest.mark.parametrize(
    ("ready", "each"),
    [({"E"}, 1000), ({"E", "S"}, 750), ({"E", "S", "W"}, 1000), (set(), 0), (set(CHAIRS), 0)],
)
def test_riichi_noten_payment_is_3000_shared_on_both_sides(ready, each):
    payments = ready_payments(ready, CHAIRS, 3000)
    received = {seat: sum(p.amount for p in payments if p.payee == seat) for seat in CHAIRS}
    given = {seat: sum(p.amount for p in payments if p.payer == seat) for seat in CHAIRS}
    assert all(p.amount == each for p in payments)
    if 0 < len(ready) < 4:
        assert all(received[s] == 3000 // len(ready) for s in ready)
        assert all(given[s] == 3000 // (4 - len(ready)) for s in CHAIRS if s not in ready)
    else:
        assert not payments


def test_riichi_wall_draw_dealer_not_ready_passes_the_deal_with_one_more_honba():
    result = drawn("riichi", {"reason": "wall", "ready": ["S"]})
    assert result["drawn"] is True and result["ready"] == ["S"]
    assert paid(result) == [("E", "S", 1000), ("N", "S", 1000), ("W", "S", 1000)]
    assert DealMove.from_json(result["deal"]) == DealMove(False, Streak.UP)
    assert notes(result) == ["The deal passes; one more 本場"]


def test_riichi_ready_dealer_deals_again_and_the_ready_order_is_the_tables():
    result = drawn("riichi", {"ready": ["W", "E"]})  # the usual reason: the wall ran out
    assert result["reason"] == "wall" and result["ready"] == ["E", "W"]
    assert result["deal"] == {"dealer": "stays", "streak": "up"}


def test_riichi_abortive_draw_pays_nothing_and_the_dealer_stays():
    result = drawn("riichi", {"reason": "abortive"})
    assert result["payments"] == [] and result["deal"] == {"dealer": "stays", "streak": "up"}


def test_riichi_nagashi_pays_each_maker_a_self_drawn_mangan_instead_of_noten():
    result = drawn("riichi", {"reason": "nagashi", "ready": ["S"], "nagashi": ["W", "E"]})
    # The dealer East: 4,000 from each; West: 4,000 from the dealer, 2,000 from the others.
    assert paid(result) == [
        ("E", "W", 4000),
        ("N", "E", 4000),
        ("N", "W", 2000),
        ("S", "E", 4000),
        ("S", "W", 2000),
        ("W", "E", 4000),
    ]
    assert result["nagashi"] == ["E", "W"]
    assert result["deal"] == {"dealer": "passes", "streak": "up"}  # East was not ready


@pytest.mark.parametrize(
    ("draw", "words"),
    [
        ({"reason": "nagashi"}, "draw.nagashi: name who made 流局滿貫"),
        ({"reason": "nagashi", "nagashi": []}, "draw.nagashi: name who made 流局滿貫"),
        ({"reason": "wall", "nagashi": ["S"]}, "goes with reason 'nagashi' only"),
        ({"reason": "nagashi", "nagashi": ["S", "S"]}, "names a chair twice"),
    ],
)
def test_riichi_nagashi_names_its_makers_with_its_reason_only(draw, words):
    assert words in drawn("riichi", draw)["error"]


def test_riichi_noten_payment_is_a_rule_option():
    result = drawn("riichi", {"ready": ["N"]}, rules={"noten_payment": 1500})
    assert paid(result) == [("E", "N", 500), ("S", "N", 500), ("W", "N", 500)]


def test_taiwan_draw_keeps_the_deal_unless_the_table_passes_it():
    assert drawn("taiwan", {})["deal"] == {"dealer": "stays", "streak": "up"}
    passed = drawn("taiwan", {}, rules={"draw_keeps_deal": False})
    assert passed["deal"] == {"dealer": "passes", "streak": "reset"} and passed["payments"] == []


def test_mingjiang_draw_passes_the_deal_and_pays_nothing():
    result = drawn("mingjiang", {"reason": "wall"})
    assert result["deal"] == {"dealer": "passes", "streak": "reset"} and result["payments"] == []


def test_xiangqi_draw_keeps_the_dealer_and_the_streak():
    result = drawn("xiangqi", {"dealer": 1, "ready": [2]})
    assert result["deal"] == {"dealer": "stays", "streak": "same"}


@pytest.mark.parametrize(
    ("variant", "draw", "top", "words"),
    [
        ("taiwan", {"ready": ["E"]}, {}, "who was ready changes nothing"),
        ("riichi", {"reason": "exhausted"}, {}, "is not one of riichi's: wall, abortive, nagashi"),
        ("riichi", {"reason": "abortive", "ready": ["S"]}, {}, "changes nothing on a 途中流局"),
        ("riichi", {"ready": ["E", "E"]}, {}, "names a chair twice"),
        ("riichi", {"ready": ["X"]}, {}, "must be a list of chairs (E S W N)"),
        ("riichi", {"ready": "E"}, {}, "must be a list of chairs"),
        ("riichi", {"winner": "E"}, {}, "key 'winner' is not used"),
        ("riichi", [], {}, "draw must be an object"),
        ("mingjiang", {}, {"players": 3}, "played by 4 players"),
        ("riichi", {}, {"players": True}, "players must be a whole number"),
        ("riichi", {}, {"seat_wind": "E"}, "key 'seat_wind' is not used for a drawn hand"),
        ("riichi", {}, {"rules": {"noten_payment": -3}}, "at least 0"),
        ("taiwan", {}, {"rules": {"draw_keeps_deal": "yes"}}, "takes true or false"),
        ("riichi", {}, {"rules": {"noten_payment": 1000}}, "a multiple of 12"),  # 999 was paid
    ],
)
def test_a_draw_no_table_has_is_one_line(variant, draw, top, words):
    result = drawn(variant, draw, **top)
    assert words in result["error"], result


def test_the_cli_scores_a_draw_from_json():
    draw = {"variant": "riichi", "draw": {"ready": ["E"]}, "id": 7}
    run = tilescore("score", "--json", "-", stdin=json.dumps(draw))
    result = json.loads(run.stdout)
    assert run.returncode == 0 and result["id"] == 7 and len(result["payments"]) == 3


def test_a_mingjiang_draw_says_no_streak_it_has_not():
    assert notes(drawn("mingjiang", {})) == ["The deal passes"]
