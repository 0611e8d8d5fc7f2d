"""Layout reconstruction from detection fixtures built here: rows, gaps, melds, angles."""

import json
import math
import subprocess
import sys
from pathlib import Path

import pytest

from scoring.errors import TilescoreError
from scoring.notation import format_tiles, parse_tiles
from scoring.tiles import tile_from_code
from vision.layout import reconstruct_json

REPO = Path(__file__).resolve().parents[2]
W, H = 60.0, 80.0  # a tile's width and height in pixels


def row(codes, x=100.0, y=500.0, gap_before=None, step=W + 2, down=(), rotated=()):
    """Detections for tiles side by side; ``gap_before`` maps index -> extra gap in pixels."""
    out = []
    for i, code in enumerate(codes):
        x += (gap_before or {}).get(i, 0)
        w, h = (H, W) if i in rotated else (W, H)
        out.append(
            {
                "code": None if i in down else code,
                "box": [x, y, x + w, y + h],
                "face_down": i in down,
                "rotated": i in rotated,
                "confidence": 0.95,
            }
        )
        x += w + 2
    return out


def turn(tiles, degrees, centre=(800.0, 600.0)):
    """The same layout photographed turned by ``degrees`` (boxes stay axis-aligned). Turned a
    quarter, the detector calls the upright tiles sideways and the sideways ones upright (it
    says which way a tile lies in the image); a round piece keeps its flag."""
    a = math.radians(degrees)
    quarter = bool(round(degrees / 90) % 2)
    out = []
    for t in tiles:
        x1, y1, x2, y2 = t["box"]
        cx, cy = (x1 + x2) / 2 - centre[0], (y1 + y2) / 2 - centre[1]
        nx = cx * math.cos(a) - cy * math.sin(a) + centre[0]
        ny = cx * math.sin(a) + cy * math.cos(a) + centre[1]
        w, h = x2 - x1, y2 - y1
        rotated = t.get("rotated", False)
        if quarter:
            w, h = h, w
            rotated = rotated != (not _is_piece(t.get("code")))
        out.append(
            {**t, "box": [nx - w / 2, ny - h / 2, nx + w / 2, ny + h / 2], "rotated": rotated}
        )
    return out


def _is_piece(code):
    try:
        return code is not None and tile_from_code(code).is_piece
    except TilescoreError:
        return False


HAND16 = [
    "1m",
    "2m",
    "3m",
    "4m",
    "5m",
    "6m",
    "7m",
    "8m",
    "9m",
    "2p",
    "3p",
    "4p",
    "5p",
    "6p",
    "1s",
    "1s",
]


def same(a, b):
    """Same tiles, whatever the notation (compact or code by code)."""
    return format_tiles(parse_tiles(a)) == format_tiles(parse_tiles(b))


def photo(tiles):
    return {"image": "x.jpg", "width": 1600, "height": 1200, "tiles": tiles}


def test_straight_row_with_winning_tile_apart():
    tiles = row([*HAND16, "7p"], gap_before={16: 40})
    out = reconstruct_json(photo(tiles), "taiwan")
    assert out["win_tile"] == "7p"
    assert same(out["hand"], "".join(HAND16) + "7p")
    assert out["problems"] == []


@pytest.mark.parametrize("degrees", [0, 30, 90, -60])
def test_rotated_photo_gives_the_same_hand(degrees):
    tiles = turn(row([*HAND16, "7p"], gap_before={16: 40}), degrees)
    out = reconstruct_json(photo(tiles), "taiwan")
    assert out["win_tile"] == "7p"
    assert same(out["hand"], "".join(HAND16) + "7p")


def test_winning_tile_not_apart_is_reported_and_last_tile_used():
    out = reconstruct_json(photo(row([*HAND16, "7p"])), "taiwan")
    assert out["win_tile"] == "7p"
    assert "winning tile not set apart: last tile used (7p)" in out["problems"]


@pytest.mark.parametrize("degrees", [0, 90, 135, 180, -90])
def test_a_sorted_row_says_its_way_up_when_the_winning_tile_touches_it(degrees):
    # Photographed from any side, the row's tiles but the last are in order one way only: the
    # 7p, out of order at the end, is the winning tile, not the 1m at the other end.
    out = reconstruct_json(photo(turn(row([*HAND16, "7p"]), degrees)), "taiwan")
    assert out["win_tile"] == "7p"
    assert "winning tile not set apart: last tile used (7p)" in out["problems"]


def test_melds_on_one_side_say_the_way_up_before_the_rows_order():
    # Sorted high to low (8s8s 876p 222m), its winning 2m touching, melds on the right: the
    # melds say which end is right; the order, read low to high, would say the other.
    codes = ["8s", "8s", "8p", "7p", "6p", "2m", "2m", "2m", "7s", "8s", "9s", "7z", "7z", "7z"]
    out = reconstruct_json(photo(row(codes, gap_before={8: 40, 11: 40})), "taiwan")
    assert out["win_tile"] == "2m"
    assert [m["type"] for m in out["melds"]] == ["chi", "pon"]


def test_melds_to_the_right_with_a_sideways_claimed_tile():
    concealed = ["2p", "3p", "4p", "5p", "6p", "7p", "1s", "1s"]
    tiles = row(
        [*concealed, "9s", "7z", "7z", "7z", "1m", "2m", "3m"],
        gap_before={8: 40, 9: 40, 12: 40},
        rotated={9},
    )
    out = reconstruct_json(photo(tiles), "taiwan")
    assert out["win_tile"] == "9s"
    assert {m["type"] for m in out["melds"]} == {"pon", "chi"}
    assert "15 tiles" not in " ".join(out["problems"])


def test_melds_in_a_row_in_front_and_a_concealed_kong():
    concealed = row(
        ["1m", "2m", "3m", "4m", "5m", "6m", "2p", "3p", "4p", "1s", "1s", "5z"],
        gap_before={11: 40},
    )
    melds = row(["9s", "9s", "9s", "9s", "7z", "7z", "7z"], y=700, gap_before={4: 40}, down={0, 3})
    out = reconstruct_json(photo(concealed + melds), "taiwan")
    kinds = sorted(m["type"] for m in out["melds"])
    assert kinds == ["concealed_kong", "pon"]
    assert next(m for m in out["melds"] if m["type"] == "concealed_kong")["tiles"] == "9999s"


def test_flowers_anywhere_are_flowers():
    tiles = row([*HAND16, "7p"], gap_before={16: 40}) + row(["1f", "6f"], y=100, x=900)
    out = reconstruct_json(photo(tiles), "taiwan")
    assert same(out["flowers"], "1f6f")
    assert out["win_tile"] == "7p"


def test_a_tile_the_rule_set_has_not_is_said_and_left_out():
    # A riichi hand and a tile read as a flower beside it: the hand is read without it and
    # scores; it failed whole, "riichi is played without flowers".
    hand = ["1m", "2m", "3m", "4m", "5m", "6m", "7m", "8m", "9m", "2p", "3p", "4p", "1s", "1s"]
    tiles = row(hand, gap_before={13: 40}) + row(["2f"], y=100, x=900)
    out = reconstruct_json(photo(tiles), "riichi")
    assert out["flowers"] == "" and same(out["hand"], "123456789m234p11s")
    assert out["problems"] == [
        "tile 2f is a flower, and riichi is played without flowers: not counted"
    ]
    # A xiangqi piece read in a Taiwan hand is none of its tiles.
    tiles = row([*HAND16, "7p"], gap_before={16: 40}) + row(["1b"], y=100, x=900)
    out = reconstruct_json(photo(tiles), "taiwan")
    assert out["problems"] == ["tile 1b is a xiangqi piece: not counted"]
    assert out["win_tile"] == "7p" and "1b" not in out["hand"]


def test_four_alike_soldiers_with_the_general_apart_are_a_xiangqi_hand():
    # 兵卒襲將: four red soldiers in a row and 將 apart; the row read as a kong (4 alike) left
    # the hand "5 tiles expected, 4 found" and no score.
    out = reconstruct_json(photo(row(["7r"] * 4 + ["1b"], gap_before={4: 40})), "xiangqi")
    assert (out["hand"], out["win_tile"], out["melds"]) == ("將兵兵兵兵", "1b", [])
    assert out["problems"] == []
    # A kong laid apart beside a pair still reads as the kong: its count fits as it is.
    kong_and_pair = row(["7r"] * 4, y=100) + row(["1b", "1r"], gap_before={1: 40})
    out = reconstruct_json(photo(kong_and_pair), "xiangqi")
    assert out["melds"] == [{"type": "kong", "tiles": "兵兵兵兵"}], out
    assert (out["win_tile"], out["problems"]) == ("1r", [])
    # A kong and one piece of its pair, the other missed: still a kong and a piece short (the
    # four read as the row fit the count too, but make no hand).
    out = reconstruct_json(photo(row(["7r"] * 4 + ["4b"], gap_before={4: 40})), "xiangqi")
    assert out["melds"] == [{"type": "kong", "tiles": "兵兵兵兵"}], out
    assert "5 tiles expected, 4 found (a kong counts as 3)" in out["problems"]


def test_missing_tile_is_counted():
    out = reconstruct_json(photo(row([*HAND16[:-1], "7p"], gap_before={15: 40})), "taiwan")
    assert "17 tiles expected, 16 found" in out["problems"]


def test_overlap_and_low_confidence_are_reported():
    tiles = row([*HAND16, "7p"], gap_before={16: 40})
    tiles[3] = {**tiles[3], "confidence": 0.3, "alternatives": [["9s", 0.3]]}
    tiles.append({**tiles[0], "box": [t + 5 for t in tiles[0]["box"]]})
    out = reconstruct_json(photo(tiles), "taiwan")
    assert any(p.startswith("two tiles overlap") for p in out["problems"])
    assert "low confidence: 4m or 9s?" in out["problems"]


def test_empty_photo_is_a_problem_not_an_error():
    assert reconstruct_json(photo([]), "taiwan")["problems"] == ["no tiles found in the photo"]


def test_reconstruct_and_score_chain_through_the_cli():
    detections = json.dumps(photo(row([*HAND16, "7p"], gap_before={16: 40})))
    run = subprocess.run(
        [sys.executable, "-m", "device.cli", "reconstruct", "--json", "-"],
        input=detections,
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    assert run.returncode == 0, run.stderr
    # Taken as it is, problems and all: only who won and how is the table's to add.
    hand = {**json.loads(run.stdout), "seat_wind": "S", "discarder": "N"}
    assert hand["variant"] == "taiwan" and "problems" in hand
    score = subprocess.run(
        [sys.executable, "-m", "device.cli", "score", "--json", "-"],
        input=json.dumps(hand),
        capture_output=True,
        text=True,
        cwd=REPO,
        timeout=60,
    )
    result = json.loads(score.stdout)
    assert result["winning"] and result["total"] == 3  # 平胡 2 + 門清 1


def test_every_key_a_reading_writes_is_one_score_takes():
    from scoring.hand_json import INPUT_KEYS, READING_KEYS
    from vision.layout.problems import no_win_tile
    from vision.layout.reading import MeldReading, Reading, Unseen

    meld = MeldReading("chi", ("1m", "2m", "3m"))
    reading = Reading(
        hand=("1m",), win_tile="1m", melds=(meld,), flowers=(), problems=(no_win_tile(),),
        would_win=("2m",), unseen=Unseen((0, 0, 1, 1), "2m"), would_win_as=((0, "2m"),),
        would_win_without=(0,), would_win_with_meld=(((0, 1), meld),),
    )  # fmt: skip
    assert set(reading.to_json()) <= INPUT_KEYS | READING_KEYS
    assert not READING_KEYS - set(reading.to_json())  # none named that a reading never writes


def test_a_box_said_to_hold_no_tile_is_set_aside_and_an_unknown_code_is_refused():
    # "other" (the labels' code for a box a person said holds no tile: a key, a cap) is left out
    # without a word, where a tile would be a stray; any other unknown code is refused, naming
    # the tile, as one among its alternatives is (it was left out, the hand scored a tile short).
    tiles = row([*HAND16, "7p"], gap_before={16: 40})
    key = {"code": "other", "box": [400.0, 200.0, 460.0, 280.0]}
    reading = reconstruct_json({"tiles": [*tiles, key]}, "taiwan")
    assert len(parse_tiles(reading["hand"])) == 17 and reading["problems"] == []
    with pytest.raises(TilescoreError, match=r"^tiles\[17\]\.code names 'zz': no tile code$"):
        reconstruct_json({"tiles": [*tiles, {**key, "code": "zz"}]}, "taiwan")


@pytest.mark.parametrize("degrees", [0, 180, 90])
def test_a_concealed_hand_parted_between_its_suits_is_one_row(degrees):
    """123456m | 789p | 11234678s, the 8s apart (a helper's probe): the 789p and the 123456m
    before the longest group are no claimed chis (it scored 自摸 alone, not 自摸 門清 不求人)."""
    codes = [t.code for t in parse_tiles("123456m789p11234678s8s")]
    tiles = turn(row(codes, gap_before={6: W // 2, 9: W // 2, 17: W * 2 // 3}), degrees)
    reading = reconstruct_json({"tiles": tiles}, "taiwan")
    assert reading["melds"] == [] and reading["win_tile"] == "8s"
    assert same(reading["hand"], "123456m789p11234678s8s")
    assert "gap inside the concealed row after 9p: read as one row" in reading["problems"]


def test_a_set_with_a_sideways_tile_stays_a_claimed_meld_beside_a_parted_row():
    # riichi 234m | 345678p | 2267s | 8s: the 234m is the row's; turned, it is a claimed chi.
    codes = [t.code for t in parse_tiles("234m345678p2267s8s")]
    gaps = {3: W // 2, 9: W // 2, 13: W * 2 // 3}
    assert reconstruct_json({"tiles": row(codes, gap_before=gaps)}, "riichi")["melds"] == []
    claimed = reconstruct_json({"tiles": row(codes, gap_before=gaps, rotated={0})}, "riichi")
    assert claimed["melds"] == [{"type": "chi", "tiles": "234m"}]


def test_an_upright_second_box_on_a_pon_tile_is_no_added_kong():
    # A smaller box on the face of the pon's last 中 (it outlives NMS: IoU 0.36) was taken as
    # the fourth tile of an added kong, 1 台 more, without a word (a helper's probe).
    codes = [t.code for t in parse_tiles("123456m789p9s9s345s777z")]
    tiles = row(codes, gap_before={10: 40, 11: 90, 14: 90}, rotated={11, 15})
    x1, y1, x2, y2 = tiles[-1]["box"]
    cx, cy, w, h = (x1 + x2) / 2, (y1 + y2) / 2, (x2 - x1) * 0.6, (y2 - y1) * 0.6
    face = {**tiles[-1], "box": [cx - w / 2, cy - h / 2, cx + w / 2, cy + h / 2], "rotated": False}
    reading = reconstruct_json({"tiles": [*tiles, face]}, "taiwan")
    assert sorted(m["type"] for m in reading["melds"]) == ["chi", "pon"]
    assert "two tiles overlap: 7z and 7z; 7z ignored" in reading["problems"]
    # Lying sideways on the claimed tile it is the added kong's fourth tile.
    x1, y1, x2, y2 = tiles[15]["box"]
    on_top = {**tiles[15], "box": [x1 + 6, y1 - 10, x2 + 6, y2 - 10]}
    added = reconstruct_json({"tiles": [*tiles, on_top]}, "taiwan")
    assert sorted(m["type"] for m in added["melds"]) == ["added_kong", "chi"]


@pytest.mark.parametrize("down", [{14}, {15, 16}, {14, 15, 16}])  # 123456789m234p1s 1s 9999s
def test_a_concealed_kong_is_four_alike_whichever_of_them_lie_face_down(down):
    # back 9s 9s 9s, 9s back back 9s, back back back 9s: each was "no chi, pon or kong" and the
    # hand three tiles short (a helper's probe); back 9s 9s back read already.
    codes = [t.code for t in parse_tiles("123456789m234p1s1s9999s")]
    tiles = row(codes, gap_before={13: 40, 14: 90}, down=down)
    reading = reconstruct_json({"tiles": tiles}, "taiwan")
    assert reading["melds"] == [{"type": "concealed_kong", "tiles": "9999s"}]
    assert reading["problems"] == []


def test_a_concealed_kong_with_a_tile_taken_for_sideways_names_no_seat():
    # A kong laid face down is claimed from nobody: a seat named for it (one face of it boxed
    # as sideways) had the scorer refuse the whole hand.
    codes = [t.code for t in parse_tiles("123456789m234p1s1s9999s")]
    tiles = row(codes, gap_before={13: 40, 14: 90}, down={14, 17}, rotated={16})
    reading = reconstruct_json({"tiles": tiles}, "taiwan", "S")
    assert reading["melds"] == [{"type": "concealed_kong", "tiles": "9999s"}]


def test_four_backs_ask_for_a_tile_turned_up():
    codes = [t.code for t in parse_tiles("123456789m234p1s1s9999s")]
    tiles = row(codes, gap_before={13: 40, 14: 90}, down={14, 15, 16, 17})
    problems = reconstruct_json({"tiles": tiles}, "taiwan")["problems"]
    assert (
        "four tiles face down: a concealed kong shows which it is; turn one of them up" in problems
    )


def test_a_claimed_meld_laid_against_the_row_is_said():
    # 123456m789p 99s then chi 3s~45s and pon 7z7z~7z pushed against it, no gap (a helper's
    # probe): one row of 20, scored 門清, with no word of the turned tiles.
    codes = [t.code for t in parse_tiles("123456m789p99s345s777z")]
    reading = reconstruct_json({"tiles": row(codes, rotated={11, 15})}, "taiwan")
    assert (
        "3s 7z lies sideways in the concealed row: a claimed meld laid against it? Set the melds"
        " apart" in reading["problems"]
    )


def test_lone_tiles_past_a_set_are_a_broken_meld_not_the_winning_tile():
    # 123456m78p999s | 777z || 4s [5s not found] 6s, the winning tile not set apart: the 777z
    # is no set parted from the row, as no winning tile lies past it (a helper's probe).
    codes = [t.code for t in parse_tiles("123456m78p999s777z4s6s")]
    tiles = row(codes, gap_before={11: 36, 14: 90, 15: W + 2})
    reading = reconstruct_json({"tiles": tiles}, "taiwan")
    assert sorted(m["tiles"] for m in reading["melds"]) == ["456s", "777z"]


def test_an_upright_fourth_tile_on_a_pon_that_turned_none_is_an_added_kong():
    # A table that turns no claimed tile lays the fourth as the pon's lie.
    codes = [t.code for t in parse_tiles("123456m789p9s9s222s")]
    tiles = row(codes, gap_before={10: 40, 11: 90})
    x1, y1, x2, y2 = tiles[-1]["box"]
    on_top = {**tiles[-1], "box": [x1 + 6, y1 - 10, x2 + 6, y2 - 10]}
    reading = reconstruct_json({"tiles": [*tiles, on_top]}, "taiwan")
    assert [m["type"] for m in reading["melds"]] == ["added_kong"]


@pytest.mark.parametrize("degrees", [0, 90, 180, 270])
def test_the_rows_one_turned_end_is_the_winning_tile_whatever_lies_behind_it(degrees):
    # IMG_3088 as labelled: 13 tiles and the 5p laid turned at the row's right end, loose tiles
    # piled behind. The pile was taken for melds in front and the row read backwards: won on
    # the photo's first tile, scored so (a helper's probe); turned 180 or 270 degrees too.
    label = json.loads((REPO / "datasets" / "real" / "labels" / "IMG_3088.json").read_text())
    centre = (label["width"] / 2, label["height"] / 2)
    out = reconstruct_json({"tiles": turn(label["tiles"], degrees, centre)}, "riichi", "E")
    assert out["win_tile"] == "5p"
    assert not [p for p in out["problems"] if "sideways" in p or "not set apart" in p]


def test_an_added_kong_laid_in_the_row_keeps_whom_its_pon_was_claimed_from():
    # The fourth tile laid on the turned one, a third of it covered, in the row's line: read as
    # a claimed kong (two turned tiles), its source lost (a helper's probe, IMG_3085's sizes).
    w, h, y, pitch = 83.0, 113.0, 880.0, 83.5

    def tile(code, x, top=y, turned=False):
        size = (h, w) if turned else (w, h)
        top += h - w if turned else 0
        box = [x, top, x + size[0], top + size[1]]
        return {"code": code, "box": box, "face_down": False, "rotated": turned}

    hand = [tile(c.code, 175 + i * pitch) for i, c in enumerate(parse_tiles("123m456p789s9m"))]
    x = 175 + 10 * pitch + 0.6 * w
    win = tile("9m", x)
    x += 2.2 * w
    pon = [tile("6z", x), tile("6z", x + pitch, turned=True), tile("6z", x + pitch + h)]
    added = tile("6z", x + pitch, top=y - w + (h - w) - 2, turned=True)
    out = reconstruct_json({"tiles": [*hand, win, *pon, added]}, "taiwan", "E")
    assert out["melds"] == [{"type": "added_kong", "tiles": "6666z", "from": "W"}]


def test_a_pon_pushed_against_the_rows_end_is_no_winning_tile_laid_turned():
    # Its outer tile turned at the row's end made it the winning tile laid so: one concealed
    # row of 14, a claimed pon scored concealed, nothing said (a review's probe).
    codes = [t.code for t in parse_tiles("234m567p789s1z1z555z")]
    out = reconstruct_json({"tiles": row(codes, rotated={13})}, "riichi", "E")
    assert any("lies sideways in the concealed row" in p for p in out["problems"])
    assert any("not set apart" in p for p in out["problems"])


def test_a_xiangqi_set_the_scorer_takes_as_no_chi_is_no_chi_meld():
    # 帥仕相 is a 面子 made in the hand, never claimed (吃 takes 俥傌炮 only): laid apart it
    # was typed chi, and the scorer refused the hand. Three alike officers are none either.
    out = reconstruct_json(
        photo(row(["7b", "7b", "1r", "2r", "3r"], gap_before={2: 180})), "xiangqi"
    )
    assert out["melds"] == [] and same(out["hand"], "卒卒帥仕相"), out
    from vision.layout.melds import is_sequence

    assert is_sequence(parse_tiles("俥傌炮")) and not is_sequence(parse_tiles("帥仕相"))
