"""Riichi hands scored per second: through our adapter, and the bare ``mahjong`` library.

    python benchmarks/bench_riichi.py [--hands 2000] [--repeat 5]

Both run in the same process on the same seeded hands (the generator of
tests/scoring/test_riichi_library.py). "bare library" is what a direct caller does per hand: build
a fresh ``HandConfig`` and the ``Meld`` objects from ready 136-format ids and call
``estimate_hand_value``. "adapter" is ``Riichi.score`` on parsed hands: the conversion from our
hand model, the same library call, and the result with 004's names and payments. The rounds
alternate so both see the same machine load; the best and median rates are printed, and the
adapter's share of the bare rate (the target is at least 80%).
"""

from __future__ import annotations

import argparse
import statistics
import sys
import time
from collections.abc import Callable
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))
sys.path.insert(0, str(ROOT / "tests" / "scoring"))

from test_riichi_library import direct_args, direct_call, generate  # noqa: E402

from scoring.errors import HandError  # noqa: E402
from scoring.hand import Hand  # noqa: E402
from scoring.hand_json import parse_hand, score_json  # noqa: E402
from scoring.variant import Variant  # noqa: E402


def _time(work: Callable[[], object]) -> float:
    start = time.perf_counter()
    work()
    return time.perf_counter() - start


def _adapter(parsed: list[tuple[Variant, Hand]]) -> int:
    """Score parsed hands; the library's refusals (no yaku ...) come back as our errors."""
    refused = 0
    for variant, hand in parsed:
        try:
            variant.score(hand)
        except HandError:
            refused += 1
    return refused


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--repeat", type=int, default=5)
    args = parser.parse_args()
    hands = generate(args.hands)
    parsed = [parse_hand(h) for h in hands]
    prepared = [direct_args(h) for h in hands]
    work = {
        "bare library": lambda: [direct_call(a) for a in prepared],
        "adapter (parsed hands)": lambda: _adapter(parsed),
        "JSON in, result out": lambda: [score_json(h) for h in hands],
    }
    for run in work.values():  # warm caches the way a long-running app has them
        run()
    times: dict[str, list[float]] = {label: [] for label in work}
    for _ in range(args.repeat):
        for label, run in work.items():
            times[label].append(_time(run))
    n = len(hands)
    print(f"{'riichi':<24}{'hands':>7}{'median s':>10}{'hands/s':>10}{'best/s':>10}")
    for label, spent in times.items():
        median = statistics.median(spent)
        print(f"{label:<24}{n:>7}{median:>10.3f}{n / median:>10.0f}{n / min(spent):>10.0f}")
    bare = n / statistics.median(times["bare library"])
    ours = n / statistics.median(times["adapter (parsed hands)"])
    print(f"adapter / bare library (median rates): {ours / bare:.0%} (target: at least 80%)")


if __name__ == "__main__":
    main()
