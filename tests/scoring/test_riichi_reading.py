"""Riichi's ``decomposition``: the division of the tiles the ``mahjong`` library scored.

The library keeps the most expensive way to divide the tiles but does not say which it kept; the
reading must be that one (scoring/variants/riichi_reading.py), written as the other rule sets
write theirs.
"""

from __future__ import annotations

import json
from collections import Counter

from mahjong.hand_calculating.divider import HandDivider
from mahjong.tile import TilesConverter

from scoring.hand_json import parse_hand, score_json
from scoring.notation import parse_tiles
from scoring.tiles import index34
from scoring.variants.riichi_adapter import library_call
from scoring.variants.riichi_reading import _fu_key, _fu_of
from tests.cli_run import tilescore
from tests.scoring.test_riichi_library import HANDS

# Two divisions give the same 符 parts here (a closed triplet and a tsumo either way), but only
# 22 234 234 555 789 has 一盃口: the library scores that one, so the reading must be it, not the
# first division it found (222 234 345 55 789).
TWO_WAYS = {
    "variant": "riichi",
    "hand": "22223344555789m",
    "win_tile": "5m",
    "seat_wind": "S",
    "round_wind": "S",
    "self_draw": True,
    "events": ["riichi"],
}
READINGS = [
    (TWO_WAYS, "22m 234m 234m 555m* 789m"),
    # 二盃口 (3 翻) over 七對子 (2): the library's choice of the two shapes of these tiles
    (
        {"variant": "riichi", "hand": "11223344556677m", "win_tile": "7m", "self_draw": True},
        "11m 234m 234m 567m* 567m",
    ),
    # 111 222 333 on a discard of 3m: 三暗刻 and 對對和 outscore 123 123 123's 一盃口
    (
        {"variant": "riichi", "hand": "11122233388899m", "win_tile": "3m", "discarder": "N"},
        "99m 111m 222m 333m* 888m",
    ),
    (
        {"variant": "riichi", "hand": "1133557799m1122z", "win_tile": "2z", "self_draw": True},
        "11m 33m 55m 77m 99m 11z 22z*",
    ),
    (
        {"variant": "riichi", "hand": "19m19p19s1234567z1z", "win_tile": "1z", "self_draw": True},
        "1m 9m 1p 9p 1s 9s 11z* 2z 3z 4z 5z 6z 7z",
    ),
    # melds as laid down after the concealed groups, claimed ones in brackets, red fives as fives
    (
        {
            "variant": "riichi",
            "hand": "123m11z",
            "win_tile": "1m",
            "seat_wind": "S",
            "discarder": "W",
            "melds": ["concealed_kong:1111p", "pon:999s", "chi:789m"],
        },
        "11z 123m* 1111p [999s] [789m]",
    ),
    (
        {
            "variant": "riichi",
            "hand": "234m456p55s",
            "win_tile": "5s",
            "discarder": "N",
            "melds": ["pon:777z", "chi:0s34s"],
            "rules": {"red_fives": True},
        },
        "55s* 234m 456p [777z] [345s]",
    ),
]


def test_score_says_the_reading_the_library_scored():
    run = tilescore("score", "--json", "-", stdin=json.dumps([hand for hand, _ in READINGS]))
    assert run.returncode == 0, run.stderr
    got = [result.get("decomposition", result.get("error")) for result in json.loads(run.stdout)]
    assert got == [reading for _, reading in READINGS]


def test_the_text_shows_the_reading():
    run = tilescore(
        "score", "--variant", "riichi", "--hand", "22223344555789m", "--win", "5m",
        "--seat", "S", "--round", "S", "--self-draw", "--events", "riichi",
    )  # fmt: skip
    assert run.returncode == 0, run.stderr
    assert "Reading  22m 234m 234m 555m* 789m\n" in run.stdout
    assert "一盃口" in run.stdout


def _groups(reading: str) -> list[list[int]]:
    return sorted(
        sorted(index34(tile) for tile in parse_tiles(group.strip("[]*")))
        for group in reading.split()
    )


def test_every_generated_hand_reads_as_the_division_it_was_scored_on():
    """Over the seeded hands: the reading holds the hand's tiles; scored alone, its division
    gives the whole hand's answer; the group starred holds the winning tile and gives the
    answer's 符 parts."""
    shapes: Counter[str] = Counter()
    for data in HANDS:
        result = score_json(data)
        if "error" in result:
            continue
        reading = result["decomposition"]
        _, hand = parse_hand(data)
        held = sorted(kind for group in _groups(reading) for kind in group)
        assert held == sorted(index34(tile) for tile in hand.all_tiles), (data, reading)
        starred = [group for group in reading.split() if group.endswith("*")]
        assert len(starred) == 1, (data, reading)
        assert index34(hand.win_tile) in _groups(starred[0])[0], (data, reading)
        call = library_call(hand, data["rules"]["red_fives"])
        whole = call.run()
        divisions = HandDivider.divide_hand(TilesConverter.to_34_array(call.tiles), call.melds)
        if not divisions:  # 國士無雙
            shapes["thirteen orphans"] += 1
            continue
        division = next(d for d in divisions if sorted(d) == _groups(reading))
        alone = library_call(hand, data["rules"]["red_fives"]).run_alone(division)
        assert alone is not None
        assert (alone.han, alone.fu, alone.cost) == (whole.han, whole.fu, whole.cost), data
        assert [y.yaku_id for y in alone.yaku or []] == [y.yaku_id for y in whole.yaku or []]
        win_kinds = _groups(starred[0])[0]
        group = next(g for g in division if g == win_kinds)
        assert _fu_of(call, division, group) == _fu_key(whole), (data, reading)
        shapes["seven pairs" if len(division) == 7 else "sets"] += 1
    assert shapes["sets"] >= 200 and shapes["seven pairs"] >= 10, shapes
