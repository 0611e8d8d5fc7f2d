"""流局 (drawn hands) of xiangqi mahjong: when a hand is drawn, 聽 payments and 片甲不留."""

import pytest

from scoring.errors import HandError
from scoring.hand import Meld, MeldType
from scoring.notation import parse_tiles
from scoring.variants.xiangqi import Xiangqi
from scoring.variants.xiangqi_draws import (
    clean_sweep_tai,
    draw_payments,
    is_ready,
    is_soldier_run_draw,
    is_wall_draw,
)
from scoring.variants.xiangqi_shapes import waits


def paid(payments):
    return [(p.payer, p.payee, p.amount) for p in payments]


@pytest.mark.parametrize(("players", "drawn_at", "goes_on_at"), [(4, 2, 3), (3, 3, 4), (2, 4, 5)])
def test_wall_draw_at_six_minus_players(players, drawn_at, goes_on_at):
    assert is_wall_draw(drawn_at, players)
    assert not is_wall_draw(goes_on_at, players)


def test_four_soldiers_of_one_colour_in_a_row():
    assert is_soldier_run_draw(parse_tiles("士卒卒卒卒"))
    assert is_soldier_run_draw(parse_tiles("兵兵兵兵"))
    # mixed colours, or a piece between them, is no run
    assert not is_soldier_run_draw(parse_tiles("卒卒兵卒卒"))
    assert not is_soldier_run_draw(parse_tiles("卒卒卒車卒"))


def test_clean_sweep():
    assert clean_sweep_tai(parse_tiles("兵兵兵兵兵")) == 6
    assert clean_sweep_tai(parse_tiles("卒卒卒卒卒兵兵兵兵兵")) == 12
    assert clean_sweep_tai(parse_tiles("卒卒卒卒兵")) == 0


def test_ready_hands():
    # 士象車 waiting on 帥 for 將帥, or 將士象 waiting on 車 for 車車
    assert [t.name for t in waits(parse_tiles("士象車將"), ())] == ["車", "帥"]
    assert is_ready(parse_tiles("將帥士士"))  # 兩對 waiting on 象
    kong = Meld(MeldType.CONCEALED_KONG, parse_tiles("卒卒卒卒"))
    assert [t.name for t in waits(parse_tiles("俥"), (kong,))] == ["俥"]
    # 士象車 + 馬馬, or 五路聯軍 with 包
    assert [t.name for t in waits(parse_tiles("士象車馬"), ())] == ["馬", "包"]
    # 兵兵兵 + 將帥, or 兵卒襲將 with a fourth 兵
    assert [t.name for t in waits(parse_tiles("將兵兵兵"), ())] == ["帥", "兵"]
    assert not is_ready(parse_tiles("士馬兵卒"))
    # a wait needs a copy left in the set: 將帥 held, 士士 waits on nothing but 象 (兩對)
    assert [t.name for t in waits(parse_tiles("將帥士士"), ())] == ["象"]


def test_ready_players_collect_from_the_others():
    assert paid(draw_payments(4, dealer=1, ready={2, 4})) == [
        ("seat 1", "seat 2", 250),
        ("seat 3", "seat 2", 250),
        ("seat 1", "seat 4", 250),
        ("seat 3", "seat 4", 250),
    ]
    assert paid(draw_payments(4, dealer=1, ready={1, 2, 3, 4})) == []
    assert paid(draw_payments(3, dealer=1, ready={2}, ready_payment=100)) == [
        ("seat 1", "seat 2", 100),
        ("seat 3", "seat 2", 100),
    ]


def test_no_ready_payments_after_a_soldier_run_draw():
    assert draw_payments(4, dealer=1, ready={2}, wall_draw=False) == []


def test_clean_sweep_is_a_six_tai_self_draw():
    # seat 3 (not the dealer) discarded all five 兵: 6 台 = 3000; dealer ×2, others ×1
    discards = {3: parse_tiles("兵兵兵車兵兵")}
    assert paid(draw_payments(4, dealer=1, ready=(), discards=discards)) == [
        ("seat 1", "seat 3", 6000),
        ("seat 2", "seat 3", 3000),
        ("seat 4", "seat 3", 3000),
    ]


def test_clean_sweep_by_the_dealer_with_both_colours_and_a_draw_before():
    # 12 台 = 8000; dealer streak 1: 連莊 +125; each pays ×2 + 40 for one draw before
    discards = {1: parse_tiles("兵兵兵兵兵卒卒卒卒卒")}
    payments = draw_payments(
        3, dealer=1, ready=(), discards=discards, dealer_streak=1, draws_in_a_row=1
    )
    assert paid(payments) == [("seat 2", "seat 1", 16290), ("seat 3", "seat 1", 16290)]


def test_two_sweepers_both_collect():
    discards = {2: parse_tiles("兵兵兵兵兵"), 3: parse_tiles("卒卒卒卒卒")}
    payees = {p.payee for p in draw_payments(4, dealer=1, ready=(), discards=discards)}
    assert payees == {"seat 2", "seat 3"}


@pytest.mark.parametrize(
    ("kwargs", "message"),
    [
        ({"players": 5, "dealer": 1, "ready": ()}, "players 5 is not 2, 3 or 4"),
        ({"players": 3, "dealer": 4, "ready": ()}, "seat 4 is not one of 1-3"),
        ({"players": 4, "dealer": 1, "ready": {0}}, "seat 0 is not one of 1-4"),
    ],
)
def test_bad_draw_input(kwargs, message):
    with pytest.raises(HandError, match=message):
        draw_payments(**kwargs)


# ---- the JSON interface: {"variant": "xiangqi", ..., "draw": {...}} ----

VARIANT = Xiangqi()


def test_draw_json_works_out_who_is_ready():
    result = VARIANT.score_draw(
        {
            "variant": "xiangqi",
            "players": 4,
            "draw": {
                "reason": "wall",
                "dealer": 1,
                "wall_left": 2,
                "hands": {
                    "1": "士象車將",  # 將士象 + 車車, or 士象車 + 將帥
                    "2": "士馬兵卒",  # nothing completes it
                    "3": {"hand": "帥", "melds": ["pon:兵兵兵"]},  # 兵兵兵 + 將帥
                    "4": "俥俥傌炮",  # 兩對 俥俥傌傌 + 炮, or 俥俥炮炮 + 傌 (傌 is 俥's prey)
                },
            },
        }
    )
    assert result["ready"] == [1, 3, 4]
    assert result["waits"] == {"1": ["車", "帥"], "2": [], "3": ["將"], "4": ["傌", "炮"]}
    # the one player who is not 聽 pays each 聽 player 250 (ready_payment)
    assert result["payments"] == [
        {"payer": "seat 2", "payee": "seat 1", "amount": 250},
        {"payer": "seat 2", "payee": "seat 3", "amount": 250},
        {"payer": "seat 2", "payee": "seat 4", "amount": 250},
    ]
    assert result["clean_sweep"] == {}


def test_draw_json_ready_list_and_payment_option():
    result = VARIANT.score_draw(
        {"players": 2, "rules": {"ready_payment": 100}, "draw": {"dealer": 2, "ready": [1]}}
    )
    assert result["payments"] == [{"payer": "seat 2", "payee": "seat 1", "amount": 100}]


def test_draw_json_clean_sweep_after_a_soldier_run():
    # Seat 1 (not the dealer) discarded all five 卒: a 6 台 self-draw = 3000, + 胡莊家 50×1 (the
    # dealer's streak is 1) = 3050. The dealer (seat 2) pays ×2 = 6100 + 100×1 (被閒家自摸) + 40×1
    # (one drawn hand before) = 6240; seat 3 pays 3050 + 40 = 3090. No 聽 payments on a soldier run.
    result = VARIANT.score_draw(
        {
            "players": 3,
            "dealer_streak": 1,
            "rules": {"draws_in_a_row": 1},
            "draw": {
                "reason": "soldiers",
                "dealer": 2,
                "opening": "士卒卒卒卒",
                "ready": [3],
                "discards": {"1": "卒卒卒卒車卒"},
            },
            "id": 7,
        }
    )
    assert result["id"] == 7
    assert result["clean_sweep"] == {"1": 6}
    assert result["payments"] == [
        {"payer": "seat 2", "payee": "seat 1", "amount": 6240},
        {"payer": "seat 3", "payee": "seat 1", "amount": 3090},
    ]


@pytest.mark.parametrize(
    ("data", "message"),
    [
        ({"draw": {"reason": "wall"}}, "draw.dealer is missing"),
        ({"draw": {"dealer": 1, "who": 2}}, "unknown key 'who' in draw"),
        ({"draw": {"dealer": 1, "reason": "tired"}}, "draw.reason 'tired' is one of"),
        ({"draw": {"dealer": 5}}, "draw.dealer 5 is not a seat 1-4"),
        ({"players": 3, "draw": {"dealer": 1, "ready": [4]}}, "draw.ready seat 4 is not a seat"),
        ({"draw": {"dealer": 1, "wall_left": 3}}, "no wall draw: 3 tiles left"),
        ({"draw": {"dealer": 1, "reason": "soldiers", "opening": "卒卒兵卒卒"}}, "no soldier draw"),
        ({"draw": {"dealer": 1, "hands": {"1": "士象車"}}}, "draw.hands seat 1 has 3 tiles"),
        (
            {"draw": {"dealer": 1, "hands": {"1": "士象車將", "2": "士象車帥"}}},
            "draw.hands lacks seat 3",
        ),
        (
            {"draw": {"dealer": 1, "ready": [1], "hands": {"1": "士象車將"}}},
            "give draw.hands or draw.ready, not both",
        ),
        (
            {"draw": {"dealer": 1, "ready": [], "discards": {"1": "士士", "2": "士"}}},
            "3 copies of 士 among the hands and discards",
        ),
        (
            {"draw": {"dealer": 1, "hands": {"1": {"hand": "帥", "melds": ["pon:士士士"]}}}},
            "meld pon:士士士 is not 3 兵 or 3 卒",
        ),
        ({"draw": {"dealer": 1}, "hand": "將"}, "key 'hand' is not used for a drawn hand"),
        ({"draw": "wall"}, "draw must be an object"),
    ],
)
def test_bad_draw_json(data, message):
    with pytest.raises(HandError, match=message):
        VARIANT.score_draw({"variant": "xiangqi", **data})


def test_a_drawn_hand_scores_through_the_score_json_command() -> None:
    """`tilescore score --json` routes an object with a ``draw`` key to the variant's 流局 rules;
    a draw said in another rule set's words (a Taiwan draw names no dealer seat) is refused for
    that hand, and the other hands are still scored."""
    import json

    from tests.cli_run import tilescore

    hands = [
        {
            "variant": "xiangqi",
            "players": 2,
            "rules": {"ready_payment": 100},
            "draw": {"dealer": 2, "ready": [1]},
            "id": "d1",
        },
        {"variant": "taiwan", "draw": {"dealer": 1}},
        {"variant": "xiangqi", "hand": "士象車帥將", "win_tile": "將", "self_draw": True},
    ]
    run = tilescore("score", "--json", "-", stdin=json.dumps(hands))
    assert run.returncode == 0, run.stderr
    drawn, refused, won = json.loads(run.stdout)
    assert drawn["id"] == "d1" and drawn["drawn"] is True
    assert drawn["payments"] == [{"payer": "seat 2", "payee": "seat 1", "amount": 100}]
    assert refused == {
        "error": "key 'dealer' is not used for a drawn hand in taiwan (known: reason)"
    }
    assert won["winning"] is True and won["total"] == 5


def test_what_a_payer_pays_beyond_the_base_is_said_under_the_total() -> None:
    """After two drawn hands the discarder paid 240 more with nothing on the Result screen
    saying why (a helper's play-through); a non-dealer's self-draw says the dealer's extra."""
    from scoring.hand_json import score_json
    from scoring.result_notes import notes

    won = {"variant": "xiangqi", "hand": "士象車帥將", "win_tile": "將"}
    discard = score_json({**won, "discarder": "left", "rules": {"draws_in_a_row": 2}})
    assert discard["payments"][0]["amount"] == 750 * 4 + 240
    assert "流局後放槍 +240: the discarder pays 120 × 2 drawn hands more" in notes(discard)
    drawn = score_json({**won, "self_draw": True, "dealer": False, "dealer_streak": 2})
    assert [p["name"] for p in drawn["surcharges"]] == ["當莊時被閒家自摸"]
    assert "surcharges" not in score_json({**won, "discarder": "left"})  # nothing beyond
