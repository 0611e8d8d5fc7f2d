"""Our riichi adapter against direct calls of the ``mahjong`` library, on seeded generated hands.

The direct call here is written from the library's documentation and 004's settings, without the
adapter's code, so a wrong setting, event, wind or meld type on either side shows as a difference
in 翻, 符 or points. ``benchmarks/bench_riichi.py`` times the same hands both ways.
"""

from __future__ import annotations

import random
from typing import Any

from mahjong.hand_calculating.hand import HandCalculator
from mahjong.hand_calculating.hand_config import HandConfig, OptionalRules
from mahjong.hand_calculating.hand_response import HandResponse
from mahjong.meld import Meld

from scoring.hand_json import parse_hand, score_json

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


def _groups(rng: random.Random) -> list[list[str]]:
    """Four sets and a pair, seven pairs, or (rarely) thirteen orphans."""
    roll = rng.random()
    if roll < 0.03:
        orphans = ["1m", "9m", "1p", "9p", "1s", "9s", *HONOURS]
        return [[t] for t in orphans] + [[rng.choice(orphans)]]
    if roll < 0.12:
        return [[t, t] for t in rng.sample(ALL, 7)]
    groups: list[list[str]] = []
    while len(groups) < 4:
        if rng.random() < 0.55:
            suit, start = rng.choice("mps"), rng.randint(1, 7)
            groups.append([f"{start + i}{suit}" for i in range(3)])
        else:
            groups.append([rng.choice(ALL)] * 3)
    pair = rng.choice(ALL)
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
    """Seeded riichi hands as JSON objects: some open, some with kongs, red fives and events."""
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
        dora = [rng.choice(ALL) for _ in range(rng.randint(1, 2))]
        is_open = any(not m.startswith("concealed") for m in meld_texts)
        self_draw = rng.random() < 0.4
        events = []
        if not is_open and rng.random() < 0.4:
            events.append("double_riichi" if rng.random() < 0.1 else "riichi")
            if rng.random() < 0.2:
                events.append("ippatsu")
        if self_draw and rng.random() < 0.05:
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
        seat = rng.choice(SEATS)
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
        hands.append(hand)
    return hands


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
    options = OptionalRules(has_open_tanyao=True, has_aka_dora=args["red"], kiriage=False)
    return HandCalculator.estimate_hand_value(
        args["tiles"],
        args["win"],
        melds=[Meld(meld_type=k, tiles=ids, opened=o) for k, o, ids in args["melds"]],
        dora_indicators=args["dora"],
        config=HandConfig(options=options, **args["config"]),
        ura_dora_indicators=args["ura"],
    )


HANDS = generate(400)


def test_generated_hands_are_valid_input():
    errors = [r["error"] for r in map(score_json, HANDS) if "error" in r]
    assert errors == []


def test_adapter_matches_the_library():
    differences = []
    winning = 0
    for data in HANDS:
        ours = score_json(data)
        theirs = direct_call(direct_args(data))
        if theirs.error is not None:
            if ours["winning"]:
                differences.append((data, "library refused", theirs.error))
            continue
        winning += 1
        assert theirs.cost is not None
        got = (ours["han"], ours["fu"] or 0, ours["points"]["total"])
        want = (theirs.han, theirs.fu, theirs.cost["total"])
        if got != want or sum(p["amount"] for p in ours["payments"]) != theirs.cost["total"]:
            differences.append((data, got, want))
    assert differences == []
    assert winning > 150  # enough hands that score, not only refusals


def test_the_same_hands_parse_once():
    # The benchmark scores parsed hands; parsing must accept every generated one.
    assert all(parse_hand(h)[1].context.seat_wind in SEATS for h in HANDS[:20])
