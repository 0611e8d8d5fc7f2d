"""Our riichi adapter against direct calls of the ``mahjong`` library, on seeded generated hands.

The direct call here is written from the library's documentation and 004's settings, without the
adapter's code, so a wrong setting, event, wind or meld type on either side shows as a difference
in 翻, 符 or points. ``benchmarks/bench_riichi.py`` times the same hands both ways.
"""

from __future__ import annotations

import random
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, HandConstants, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld

from scoring.hand_json import parse_hand, score_json
from scoring.variants.riichi_names import YAKU_NAMES

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]
ALL = SUITED + HONOURS
KIND = {code: i for i, code in enumerate(SUITED + HONOURS)}
SEATS = "ESWN"


def _kind(code: str) -> int:
    return KIND[code.replace("0", "5")]


def _copies_fit(codes: list[str]) -> bool:
    counts: dict[str, int] = {}
    for code in codes:
        plain = code.replace("0", "5")
        counts[plain] = counts.get(plain, 0) + 1
    reds = [c for c in codes if c.startswith("0")]
    return max(counts.values()) <= 4 and len(reds) == len(set(reds))


# Tile pools that steer the generator toward different yaku: anything, simples (斷么九, 平和),
# one suit and honours (混一色, 清一色, 九蓮寶燈 shapes), terminals and honours (全帶么九, 混老頭,
# 清老頭, 字一色, 大三元, 四喜), and the green tiles (綠一色).
POOLS = {
    "any": (ALL, "mps", range(1, 8)),
    "simples": ([f"{n}{s}" for s in "mps" for n in range(2, 9)], "mps", range(2, 7)),
    "one suit": (None, None, range(1, 8)),
    "terminals": ([f"{n}{s}" for s in "mps" for n in (1, 9)] + HONOURS, "mps", (1, 7)),
    "honours": (HONOURS, "", ()),
    "green": (["2s", "3s", "4s", "6s", "8s", "6z"], "s", (2,)),
}
POOL_WEIGHTS = {"any": 50, "simples": 15, "one suit": 15, "terminals": 10, "honours": 5, "green": 5}


def _groups(rng: random.Random) -> list[list[str]]:
    """Four sets and a pair, seven pairs, or (rarely) thirteen orphans, from one tile pool."""
    roll = rng.random()
    if roll < 0.04:
        orphans = ["1m", "9m", "1p", "9p", "1s", "9s", *HONOURS]
        return [[t] for t in orphans] + [[rng.choice(orphans)]]
    name = rng.choices(list(POOL_WEIGHTS), weights=list(POOL_WEIGHTS.values()))[0]
    pool, suits, starts = POOLS[name]
    if pool is None:
        suit = rng.choice("mps")
        pool, suits = [f"{n}{suit}" for n in range(1, 10)] + HONOURS * (rng.random() < 0.5), suit
    if roll < 0.14 and len(pool) >= 7:
        return [[t, t] for t in rng.sample(pool, 7)]
    groups: list[list[str]] = []
    while len(groups) < 4:
        if suits and starts and rng.random() < 0.55:
            suit, first = rng.choice(suits), rng.choice(starts)
            groups.append([f"{first + i}{suit}" for i in range(3)])
        else:
            groups.append([rng.choice(pool)] * 3)
    pair = rng.choice(pool)
    return [*groups, [pair, pair]]


def _redden(codes: list[str]) -> list[str]:
    out, seen = [], set()
    for code in codes:
        if code[0] == "5" and code[1] != "z" and code[1] not in seen:
            seen.add(code[1])
            out.append("0" + code[1])
        else:
            out.append(code)
    return out


def generate(count: int, seed: int = 2024) -> list[dict[str, Any]]:
    """Seeded riichi hands as JSON objects: open melds, kongs, red fives, 懸賞 and 裏懸賞, 本場 and
    供託, dealer and non-dealer, self-draws and discards, and every event but 流局滿貫."""
    rng = random.Random(seed)
    hands: list[dict[str, Any]] = []
    while len(hands) < count:
        groups = _groups(rng)
        red = rng.random() < 0.2
        melds: list[tuple[str, list[str]]] = []
        concealed: list[str] = []
        meld_tiles: list[str] = []
        standard = len(groups) == 5
        for index, group in enumerate(groups):
            if standard and index < 4 and rng.random() < 0.25:
                if group[0] != group[1]:
                    kind, tiles = "chi", group
                else:
                    kind = rng.choice(("pon", "pon", "kong", "concealed_kong", "added_kong"))
                    tiles = group if kind == "pon" else [group[0]] * 4
                meld_tiles += tiles
                melds.append((kind, tiles))
            else:
                concealed += group
        everything = concealed + meld_tiles
        if red:
            everything = _redden(everything)
            concealed, meld_tiles = everything[: len(concealed)], everything[len(concealed) :]
        at = 0
        meld_texts = []
        for kind, tiles in melds:
            own = meld_tiles[at : at + len(tiles)]
            at += len(tiles)
            meld_texts.append(f"{kind}:{''.join(t[0] for t in own)}{own[0][1]}")
        kongs = sum("kong" in m for m in meld_texts)
        dora = [rng.choice(ALL) for _ in range(rng.randint(1, 1 + min(kongs, 2)))]
        is_open = any(not m.startswith("concealed") for m in meld_texts)
        self_draw = rng.random() < 0.4
        seat = rng.choice(SEATS)
        events = []
        if self_draw and not melds and rng.random() < 0.1:
            seat = rng.choice("EESWN")
            events.append("heavenly_win" if seat == "E" else "earthly_win")
        elif not is_open and rng.random() < 0.4:
            events.append("double_riichi" if rng.random() < 0.1 else "riichi")
            if rng.random() < 0.2:
                events.append("ippatsu")
        if events and events[0].endswith("win"):
            pass
        elif self_draw and rng.random() < 0.05:
            events.append("last_tile")
        elif self_draw and any("kong" in m for m in meld_texts) and rng.random() < 0.3:
            events.append("after_kong")
        elif not self_draw and rng.random() < 0.05:
            events.append(rng.choice(("last_discard", "robbing_kong")))
        ura = (
            [rng.choice(ALL) for _ in dora]
            if events and events[0].endswith("riichi") and rng.random() < 0.7
            else []
        )
        if not _copies_fit(everything + dora + ura):
            continue
        hand: dict[str, Any] = {
            "variant": "riichi",
            "hand": "".join(concealed),
            "win_tile": rng.choice(concealed),
            "melds": meld_texts,
            "seat_wind": seat,
            "round_wind": rng.choice("ES"),
            "self_draw": self_draw,
            "events": events,
            "dora_indicators": "".join(dora),
            "ura_dora_indicators": "".join(ura),
            "honba": rng.randint(0, 3),
            "riichi_sticks": rng.randint(0, 2),
            "rules": {"red_fives": red},
        }
        if not self_draw:
            hand["discarder"] = rng.choice([s for s in SEATS if s != seat])
        _possible_events(hand, everything)
        hands.append(hand)
    return hands


def _possible_events(hand: dict[str, Any], everything: list[str]) -> None:
    """Events no table can see together, taken out (the scorer refuses them; the library does
    not check): 一發 with 嶺上開花 (the kong ends it), and 搶槓 of a tile the hand holds twice
    (three of it are in the robbed pon)."""
    events = hand["events"]
    if "ippatsu" in events and "after_kong" in events:
        events.remove("ippatsu")
    plain = [("5" + t[1]) if t[0] == "0" else t for t in everything]
    win = hand["win_tile"]
    if "robbing_kong" in events and plain.count(("5" + win[1]) if win[0] == "0" else win) > 1:
        events[events.index("robbing_kong")] = "last_discard"


def _split(text: str) -> list[str]:
    """'123m55z' -> ['1m', '2m', '3m', '5z', '5z'] (the generator's own simple notation)."""
    out, digits = [], ""
    for char in text:
        if char.isdigit():
            digits += char
        else:
            out += [d + char for d in digits]
            digits = ""
    return out


def direct_args(data: dict[str, Any]) -> dict[str, Any]:
    """What a direct caller of the library prepares for one hand: 136 ids, meld specs, config."""
    used = [0] * 34

    def ident(code: str) -> int:
        kind = _kind(code)
        if code[0] == "0":
            return kind * 4
        copy = used[kind]
        used[kind] += 1
        # copy 0 of a five is the red one; plain fives take 1, 2, 3 (then 0 when no red is used)
        return kind * 4 + ((copy + 1) % 4 if code[0] == "5" and code[1] != "z" else copy)

    concealed = _split(data["hand"])
    tiles = [ident(c) for c in concealed]
    win = tiles[concealed.index(data["win_tile"])]
    kinds = {
        "chi": (Meld.CHI, True),
        "pon": (Meld.PON, True),
        "kong": (Meld.KAN, True),
        "added_kong": (Meld.SHOUMINKAN, True),
        "concealed_kong": (Meld.KAN, False),
    }
    melds = []
    for text in data["melds"]:
        kind, _, codes = text.partition(":")
        ids = sorted(ident(c) for c in _split(codes))
        tiles += ids
        melds.append((*kinds[kind], ids))
    events = set(data["events"])
    winds = {s: 27 + i for i, s in enumerate(SEATS)}
    config = {
        "is_tsumo": data["self_draw"],
        "is_riichi": "riichi" in events,
        "is_daburu_riichi": "double_riichi" in events,
        "is_ippatsu": "ippatsu" in events,
        "is_haitei": "last_tile" in events,
        "is_houtei": "last_discard" in events,
        "is_rinshan": "after_kong" in events,
        "is_chankan": "robbing_kong" in events,
        "is_tenhou": "heavenly_win" in events,
        "is_chiihou": "earthly_win" in events,
        "player_wind": winds[data["seat_wind"]],
        "round_wind": winds[data["round_wind"]],
        "tsumi_number": data["honba"],
        "kyoutaku_number": data["riichi_sticks"],
    }
    return {
        "tiles": tiles,
        "win": win,
        "melds": melds,
        "dora": [_kind(c) * 4 for c in _split(data["dora_indicators"])],
        "ura": [_kind(c) * 4 for c in _split(data["ura_dora_indicators"])],
        "config": config,
        "red": data["rules"]["red_fives"],
    }


def direct_call(args: dict[str, Any]) -> HandResponse:
    """The library called directly, with 004's settings and a fresh config."""
    options = OptionalRules(
        has_open_tanyao=True,  # 斷么九 一翻 非門清 too
        has_aka_dora=args["red"],  # 赤懸賞 only with the table option
        has_double_yakuman=True,  # the (雙)役滿 rows
        kazoe_limit=HandConstants.KAZOE_LIMITED,  # 13+翻 役滿, no more
        kiriage=False,  # 無…進位滿貫
        fu_for_open_pinfu=True,  # an open hand with no 符 won on a discard: 30 符
        fu_for_pinfu_tsumo=False,  # 平胡自摸20符
    )
    return HandCalculator.estimate_hand_value(
        args["tiles"],
        args["win"],
        melds=[Meld(meld_type=k, tiles=ids, opened=o) for k, o, ids in args["melds"]],
        dora_indicators=args["dora"],
        config=HandConfig(options=options, **args["config"]),
        ura_dora_indicators=args["ura"],
    )


HANDS = generate(400)

LIBRARY_ERRORS = {
    HandCalculator.ERR_NO_YAKU: "no yaku",
    HandCalculator.ERR_HAND_NOT_WINNING: "not a winning hand",
}


def _theirs(response: HandResponse) -> dict[str, Any]:
    assert response.cost is not None and response.yaku is not None
    cost = response.cost
    return {
        "han": response.han,
        "fu": response.fu,
        "yaku": sorted(
            (YAKU_NAMES[y.yaku_id].code, y.han_open if response.is_open_hand else y.han_closed)
            for y in response.yaku
        ),
        "paid": cost["total"],
        "hand": cost["main"] + 2 * cost["additional"],  # additional is 0 on a discard
        "honba": cost["main_bonus"] + 2 * cost["additional_bonus"],
        "sticks": cost["kyoutaku_bonus"],
    }


def _ours(result: dict[str, Any]) -> dict[str, Any]:
    return {
        "han": result["han"],
        "fu": result["fu"] or 0,  # None for 役滿, where the library says 0
        "yaku": sorted((i["code"], i["value"]) for i in result["items"]),
        "paid": sum(p["amount"] for p in result["payments"]),
        "hand": result["points"]["hand"],
        "honba": result["points"]["honba"],
        "sticks": result["points"]["riichi_sticks"],
    }


def test_generated_hands_are_varied():
    """A few hundred hands, and enough of each kind that a wrong setting would show."""

    def count(test: Any) -> int:
        return sum(1 for h in HANDS if test(h))

    kinds = {
        "open meld": lambda h: any(
            m.split(":")[0] in ("chi", "pon", "kong", "added_kong") for m in h["melds"]
        ),
        "kong": lambda h: any("kong" in m for m in h["melds"]),
        "concealed kong": lambda h: any(m.startswith("concealed_kong") for m in h["melds"]),
        "riichi": lambda h: "riichi" in h["events"] or "double_riichi" in h["events"],
        "ura dora": lambda h: h["ura_dora_indicators"] != "",
        "red five": lambda h: "0" in h["hand"] + "".join(h["melds"]),
        "self-draw": lambda h: h["self_draw"],
        "dealer": lambda h: h["seat_wind"] == "E",
        "honba": lambda h: h["honba"] > 0,
        "sticks": lambda h: h["riichi_sticks"] > 0,
        "seven pairs": lambda h: not h["melds"] and len(set(_split(h["hand"]))) == 7,
    }
    counts = {name: count(test) for name, test in kinds.items()}
    assert len(HANDS) >= 300
    assert all(n >= 15 for n in counts.values()), counts
    events = {e for h in HANDS for e in h["events"]}
    assert events >= {
        "riichi",
        "double_riichi",
        "ippatsu",
        "last_tile",
        "last_discard",
        "after_kong",
        "robbing_kong",
        "heavenly_win",
        "earthly_win",
    }


def test_adapter_matches_the_library():
    """Same 翻, 符, yaku (with their 翻) and points as the library called directly; the same hands
    refused, with our one-line error for the library's reason."""
    differences = []
    scored = set()
    limits = set()
    for data in HANDS:
        ours = score_json(data)
        theirs = direct_call(direct_args(data))
        if theirs.error is not None:
            want = LIBRARY_ERRORS.get(theirs.error, theirs.error)
            if want not in ours.get("error", ""):
                differences.append((data, ours, theirs.error))
            continue
        assert theirs.cost is not None
        got, expected = _ours(ours), _theirs(theirs)
        if got != expected:
            differences.append((data, got, expected))
        cost = theirs.cost
        split = (cost["main"] + cost["main_bonus"], cost["additional"] + cost["additional_bonus"])
        payers = sorted(p["amount"] for p in ours["payments"] if p["payer"] != "table")
        if data["self_draw"]:
            want_split = sorted(
                [split[0]] * 3 if data["seat_wind"] == "E" else [split[0], split[1], split[1]]
            )
        else:
            want_split = [split[0]]
        if payers != want_split:
            differences.append((data, payers, want_split))
        scored.update(code for code, _ in got["yaku"])
        limits.add(ours["limit"])
    assert differences == []
    assert len(scored) >= 30, sorted(scored)  # many different yaku met, not only a few
    assert {"mangan", "haneman", "baiman", "yakuman"} <= limits, limits


def test_a_fresh_config_per_hand():
    """The library writes into its config while scoring; hands scored in another order, or after a
    double 役滿, come out the same."""
    first = [score_json(h) for h in HANDS[:120]]
    score_json(
        {
            "variant": "riichi",
            "hand": "19m19p19s1234567z1m",
            "win_tile": "1m",
            "seat_wind": "S",
            "discarder": "W",
        }
    )
    again = [score_json(h) for h in reversed(HANDS[:120])][::-1]
    assert first == again


def test_the_same_hands_parse_once():
    # The benchmark scores parsed hands; parsing must accept every generated one.
    assert all(parse_hand(h)[1].context.seat_wind in SEATS for h in HANDS[:20])
