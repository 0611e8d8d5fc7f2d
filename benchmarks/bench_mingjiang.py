"""明將麻雀 hands scored per second on a fixed seeded set (every reading tried, payments included).

    python benchmarks/bench_mingjiang.py [--hands 5000] [--repeat 3] [--seed 7]

Prints hands, median seconds and hands/s for parse+score (the JSON interface) and for scoring
already-parsed hands. One process, one core. The per-suit split caches are warmed on 50 hands,
as in a long-running app; nothing per hand is cached, so every repeat does the full work.
"""

from __future__ import annotations

import argparse
import random
import statistics
import sys
import time
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from scoring.hand_json import parse_hand, score_json

SUITED = [f"{n}{s}" for s in "mps" for n in range(1, 10)]
HONOURS = [f"{n}z" for n in range(1, 8)]
EVENTS = ("last_tile", "after_kong", "robbing_kong", "last_discard", "furiten")


def generate(count: int, seed: int = 7) -> list[dict]:
    """Seeded winning hands: four sets and a pair (some melds, kongs, seven pairs), random context."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        used: dict[str, int] = {}
        groups: list[list[str]] = []
        pairs_hand = rng.random() < 0.05
        while len(groups) < (7 if pairs_hand else 5):
            if pairs_hand or len(groups) == 4:
                group = [rng.choice(SUITED + HONOURS)] * 2
            elif rng.random() < 0.6:
                suit, start = rng.choice("mps"), rng.randint(1, 7)
                group = [f"{start + i}{suit}" for i in range(3)]
            else:
                group = [rng.choice(SUITED + HONOURS)] * 3
            if all(used.get(t, 0) + group.count(t) <= 4 for t in group):
                for t in group:
                    used[t] = used.get(t, 0) + 1
                groups.append(group)
        melds = []
        if not pairs_hand:
            for group in groups[: rng.choice((0, 0, 0, 1, 2, 3))]:
                kind = "chi" if group[0] != group[1] else "pon"
                if kind == "pon" and used[group[0]] == 3 and rng.random() < 0.3:
                    kind = rng.choice(("kong", "concealed_kong"))
                    group = group + group[:1]
                    used[group[0]] += 1
                melds.append({"type": kind, "tiles": "".join(group)})
        concealed = [t for g in groups[len(melds) :] for t in g]
        self_draw = rng.random() < 0.4
        seat = rng.choice("ESWN")
        hand = {
            "variant": "mingjiang",
            "hand": "".join(concealed),
            "win_tile": rng.choice(concealed),
            "melds": melds,
            "seat_wind": seat,
            "round_wind": rng.choice("ES"),
            "self_draw": self_draw,
        }
        if not self_draw:
            hand["discarder"] = rng.choice([s for s in "ESWN" if s != seat])
        if rng.random() < 0.05:
            event = rng.choice(EVENTS)
            kongs = any(m["type"].endswith("kong") for m in melds)
            if (event in ("last_tile", "after_kong")) == self_draw and (
                event != "after_kong" or kongs
            ):
                hand["events"] = [event]
        hands.append(hand)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    parser.add_argument("--seed", type=int, default=7)
    args = parser.parse_args()
    hands = generate(args.hands, args.seed)
    parsed = [parse_hand(h) for h in hands]
    for variant, hand in parsed[:50]:
        variant.score(hand)
    rows = []
    for label, work in (
        ("JSON in, result out", lambda: [score_json(h) for h in hands]),
        ("score parsed hands", lambda: [v.score(h) for v, h in parsed]),
    ):
        times = []
        for _ in range(args.repeat):
            start = time.perf_counter()
            work()
            times.append(time.perf_counter() - start)
        best, median = min(times), statistics.median(times)
        rows.append((label, len(hands), median, len(hands) / median, len(hands) / best))
    print(f"{'mingjiang':<22}{'hands':>8}{'median s':>10}{'hands/s':>10}{'best/s':>10}")
    for label, n, median, rate, best_rate in rows:
        print(f"{label:<22}{n:>8}{median:>10.3f}{rate:>10.0f}{best_rate:>10.0f}")
    results = [score_json(h) for h in hands]
    errors = [r["error"] for r in results if "error" in r]
    limits = sum(1 for r in results if "limit" in r)
    chickens = sum(1 for r in results if "chicken" in r)
    print(f"(errors: {len(errors)}, 例牌: {limits}, 雞糊: {chickens}, of {len(hands)} hands)")
    if errors:
        print("first error:", errors[0])


if __name__ == "__main__":
    main()
