"""Taiwan hands scored per second, wait analysis included, on a fixed generated set.

    python benchmarks/bench_taiwan.py [--hands 5000] [--repeat 3]

Prints a table: hands, seconds, hands/s for parse+score (the JSON interface) and for scoring
already-parsed hands. One process, one core.
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


def generate(count: int, seed: int = 7) -> list[dict]:
    """Seeded winning hands: sets and a pair, some melds, flowers, random context."""
    rng = random.Random(seed)
    hands = []
    while len(hands) < count:
        used: dict[str, int] = {}
        groups: list[list[str]] = []
        while len(groups) < 6:
            if len(groups) == 5:
                group = [rng.choice(SUITED + HONOURS)] * 2
            elif rng.random() < 0.55:
                suit, start = rng.choice("mps"), rng.randint(1, 7)
                group = [f"{start + i}{suit}" for i in range(3)]
            else:
                group = [rng.choice(SUITED + HONOURS)] * 3
            if all(used.get(t, 0) + group.count(t) <= 4 for t in group):
                for t in group:
                    used[t] = used.get(t, 0) + 1
                groups.append(group)
        melds = []
        for group in groups[: rng.choice((0, 0, 1, 2))]:
            kind = "chi" if group[0] != group[1] else "pon"
            melds.append({"type": kind, "tiles": "".join(group)})
        concealed = [t for g in groups[len(melds) :] for t in g]
        self_draw = rng.random() < 0.4
        seat = rng.choice("ESWN")
        hand = {
            "variant": "taiwan",
            "hand": "".join(concealed),
            "win_tile": rng.choice(concealed),
            "melds": melds,
            "seat_wind": seat,
            "round_wind": rng.choice("ESWN"),
            "self_draw": self_draw,
            "flowers": "".join(sorted(rng.sample("12345678", rng.randint(0, 2)))) + "f",
            "dealer_streak": rng.randint(0, 2),
        }
        if hand["flowers"] == "f":
            del hand["flowers"]
        if not self_draw:
            hand["discarder"] = next(s for s in "ESWN" if s != seat)
        hands.append(hand)
    return hands


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=5000)
    parser.add_argument("--repeat", type=int, default=3)
    args = parser.parse_args()
    hands = generate(args.hands)
    parsed = [parse_hand(h) for h in hands]
    for variant, hand in parsed[:50]:  # warm the per-suit caches the way a long-running app has
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
    print(f"{'taiwan':<22}{'hands':>8}{'median s':>10}{'hands/s':>10}{'best/s':>10}")
    for label, n, median, rate, best_rate in rows:
        print(f"{label:<22}{n:>8}{median:>10.3f}{rate:>10.0f}{best_rate:>10.0f}")
    errors = [r for r in (score_json(h) for h in hands[:200]) if "error" in r]
    print(f"(errors in the first 200 generated hands: {len(errors)})")


if __name__ == "__main__":
    main()
