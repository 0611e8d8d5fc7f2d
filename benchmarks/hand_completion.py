"""Winning hands read from real tile reads, with and without completing them by runner-up reads.

    PYTHONPATH=. python benchmarks/hand_completion.py [--hands 2000] [--seed 0] [--models models]
        [--labels datasets/real/labels] [--photos ../shared/data/real-photos-unlabeled]

No labelled photo of a laid-down winning hand exists (the 30 real photos show loose tiles), so
this builds winning hands from real reads. The shipped models read the 30 labelled photos; each
labelled tile's read (its code, confidence, doubt and runner-ups, as ``tilescore detect`` gives
them), or its miss, goes into a pool under the tile it truly is. A random winning hand (Taiwan:
five sets and a pair, 17 tiles; riichi: four and a pair, 14, self-drawn) is laid in a row with
the winning tile apart, and each of its tiles is given a read drawn from its pool: the hand reads
as this tile set's tiles read. The layout rebuilds it with and without ``wins`` (the scorer's
"is this a winning hand"), and both are compared with the truth. Of the hands left not
winning, those whose misread the reading names (``would_win_as``: the few reads of one tile that
would make the hand win, for a person to check), and those it names reads for, none of them the
misread. The last two columns: hands that win as read but are not the hand laid down (a misread
that still makes a winning hand, scored as read), and of them those with no tile flagged, so that
the display asks nothing: a wrong score nobody checks.

``--extra`` lays one box more in each row, at a random place, with a random tile's read: a box
on something that holds no tile (a key, a coin) read as one. A second table then says in how
many hands the reading names that box among the tiles without which the hand wins
(``would_win_without``), and in how many it names others only.

Only winning hands are laid down: with ``--melds``, an open riichi hand without a yaku is drawn
again.

``--sorted`` lays each hand as most players do, its tiles sorted by suit (萬 筒 索 字) and number,
the winning tile still apart; without it the row is in random order. ``--suit-gaps`` sorts it and
parts the row by half a tile where the suit changes.

What this leaves out: extra boxes, boxes the detector splits or merges, and tiles turned the
wrong way (every box here is where a tile lies); and reads of one tile in one photo are reused
across hands, so the pools are as varied as 449 tiles of one set.
"""

from __future__ import annotations

import argparse
import random
import sys
from collections import Counter
from dataclasses import replace
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments, labelled_photos  # noqa: E402
from scoring.hand_json import wins_under  # noqa: E402
from scoring.variant import flowers_in_play  # noqa: E402
from vision.evaluate import match_photo  # noqa: E402
from vision.layout import reconstruct  # noqa: E402
from vision.layout.reading import MeldReading, Reading  # noqa: E402
from vision.pipeline import load_pipeline  # noqa: E402

SUITS = "mps"
HONOURS = [f"{n}z" for n in range(1, 8)]
TILE_W, TILE_H, GAP, WIN_GAP = 60.0, 80.0, 2.0, 40.0
SUIT_GAP = TILE_W / 2  # --suit-gaps: half a tile between two suits of the row
EXTRA = "extra"  # marks the box laid into a row on something that holds no tile (--extra)
CONTEXTS = {
    "taiwan": ({"variant": "taiwan", "seat_wind": "S", "discarder": "N"}, 5),
    "riichi": ({"variant": "riichi", "seat_wind": "S", "self_draw": True}, 4),
}


def real_reads(
    models: Path, labels_dir: Path, photos: Path, flowers: bool = True
) -> dict[str, list[dict[str, Any] | None]]:
    """Each labelled face-up tile's read by the shipped models (None where it was missed), read
    as a table of a rule set with or without ``flowers`` reads them."""
    pipeline = load_pipeline(models)
    pool: dict[str, list[dict[str, Any] | None]] = {}
    labels, images = labelled_photos(labels_dir, photos)
    for label, (image, facts) in zip(labels, images, strict=True):
        reading = pipeline.read(image, flowers=flowers, **facts.read_options)
        result = match_photo(label, reading.tiles)
        found = dict(result.pairs)
        for position, truth in enumerate(result.labels):
            if truth.face_down or truth.code is None:
                continue
            read = found.get(position)
            pool.setdefault(truth.code, []).append(
                None if read is None else result.predictions[read].to_json()
            )
    return pool


def hand_with_melds(
    rng: random.Random, sets: int, melds: int, in_order: bool = False
) -> tuple[list[str], list[list[str]]]:
    """A random hand of ``sets`` sets (runs or triplets) and a pair, four copies at most, with
    ``melds`` of its sets claimed: the concealed tiles, the last one the winning tile (the others
    sorted with ``in_order``, as a player lays them), and the melds."""
    while True:
        groups: list[list[str]] = []
        for _ in range(sets):
            if rng.random() < 0.6:
                suit, start = rng.choice(SUITS), rng.randint(1, 7)
                groups.append([f"{start + k}{suit}" for k in range(3)])
            else:
                groups.append([_any_tile(rng)] * 3)
        groups.append([_any_tile(rng)] * 2)  # the pair
        if max(Counter(code for group in groups for code in group).values()) <= 4:
            concealed = list(Counter(code for group in groups[melds:] for code in group).elements())
            rng.shuffle(concealed)
            if in_order:
                concealed[:-1] = sorted(
                    concealed[:-1], key=lambda code: ("mpsz".index(code[1]), code[0])
                )
            return concealed, groups[:melds]


def _any_tile(rng: random.Random) -> str:
    return rng.choice([f"{n}{s}" for s in SUITS for n in range(1, 10)] + HONOURS)


def laid_out(
    truth: list[str],
    pool: dict[str, list[Any]],
    rng: random.Random,
    melds: list[list[str]] | None = None,
    extra: bool = False,
    suit_gaps: bool = False,
) -> list[dict[str, Any]]:
    """The hand in a row, the last tile (the winning one) apart, then each meld apart, each
    tile with a real read. With ``extra``, one box more lies in the row at a random place, with
    a random tile's real read: a box on something that holds no tile, read as one (marked
    ``EXTRA``). With ``suit_gaps``, the row is parted by half a tile where the suit changes, as
    many players lay a sorted hand."""
    detections = []
    x = 100.0
    row = list(truth[:-1])
    at = rng.randrange(len(row) + 1) if extra else -1
    if extra:
        row.insert(at, rng.choice(sorted(pool)))
    groups = [row, truth[-1:], *(melds or [])]
    for number, group in enumerate(groups):
        if number:
            x += WIN_GAP
        for place, code in enumerate(group):
            if suit_gaps and number == 0 and place and code[1] != group[place - 1][1]:
                x += SUIT_GAP
            is_extra = number == 0 and place == at
            reads = [r for r in pool[code] if r is not None] if is_extra else pool[code]
            read = rng.choice(reads)
            if read is not None:
                box = [x, 500.0, x + TILE_W, 500.0 + TILE_H]
                detections.append(
                    {**read, "box": box, "rotated": False, **({EXTRA: True} if is_extra else {})}
                )
            x += TILE_W + GAP
    return detections


def laid_down(truth: list[str], melds: list[list[str]]) -> dict[str, Any]:
    """The hand laid down, as the scorer takes it."""
    return Reading(
        tuple(truth),
        truth[-1],
        tuple(MeldReading(_meld_type(m), tuple(m)) for m in melds),
        (),
        problems=(),
    ).hand_json()


def _meld_type(meld: list[str]) -> str:
    return "pon" if len(set(meld)) == 1 else "chi"


def read_right(reading: Any, truth: list[str], melds: list[list[str]]) -> bool:
    """Whether a reading is the hand laid down: its concealed tiles, winning tile and melds."""
    laid = sorted(sorted(meld) for meld in melds)
    read = sorted(sorted(meld.tiles) for meld in reading.melds)
    # No hand laid down here holds a flower: a tile read as one scores a flower's 台 it has not.
    return (sorted(reading.hand), reading.win_tile, read, reading.flowers) == (
        sorted(truth),
        truth[-1],
        laid,
        (),
    )


def named_right(
    reading: Any, detections: list[dict[str, Any]], truth: list[str], melds: list[list[str]]
) -> bool:
    """Whether one of the reads a hand that does not win names (``would_win_as``) makes it the
    hand laid down: the misread that explains it."""
    win_index = next((g.tiles[0] for g in reading.groups if g.role == "win"), None)
    for index, code in reading.would_win_as:
        hand = list(reading.hand)
        hand.remove(detections[index]["code"])
        win = code if index == win_index else reading.win_tile
        if read_right(replace(reading, hand=(*hand, code), win_tile=win), truth, melds):
            return True
    return False


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--hands", type=int, default=2000)
    parser.add_argument("--seed", type=int, default=0)
    parser.add_argument(
        "--sorted", action="store_true", help="lay each hand sorted, the winning tile apart"
    )
    parser.add_argument(
        "--suit-gaps",
        action="store_true",
        help="lay each hand sorted and parted by half a tile where the suit changes",
    )
    parser.add_argument(
        "--melds",
        type=int,
        default=0,
        help="lay this many of each hand's sets as claimed melds, apart past the winning tile",
    )
    parser.add_argument(
        "--extra",
        action="store_true",
        help="lay one box more in each row, read as a random tile: a box on no tile",
    )
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    add_photo_arguments(parser)
    args = parser.parse_args()
    # Riichi's photos are read with no flower in play (TilePipeline.read), Taiwan's with them.
    pools = {
        flowers: real_reads(args.models, args.labels, args.photos, flowers)
        for flowers in dict.fromkeys(flowers_in_play(variant) for variant in CONTEXTS)
    }
    for flowers, pool in pools.items():
        reads = [r for rs in pool.values() for r in rs]
        print(
            f"{len(reads)} real reads of {len(pool)} tiles "
            f"({'flowers' if flowers else 'no flowers'} in play): "
            f"{sum(r is None for r in reads)} missed, "
            f"{sum(r is not None and bool(r['low_confidence']) for r in reads)} doubtful"
        )
    print(
        "| rule set | hands | read right as read | read right, completed "
        "| completed wrong | left not winning | of them, the misread named | named, none right "
        "| won as read, wrong | of them, nothing asked |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|")
    extras: dict[str, Counter[str]] = {}
    for variant, (context, sets) in CONTEXTS.items():
        pool = pools[flowers_in_play(variant)]
        rng = random.Random(args.seed)
        wins = wins_under(context)
        right = Counter[str]()
        for _ in range(args.hands):
            truth, melds = hand_with_melds(rng, sets, args.melds, args.sorted or args.suit_gaps)
            while not wins(laid_down(truth, melds)):
                # Nobody lays down a hand that does not win (an open riichi hand without a yaku):
                # drawn again. Closed hands always win here, so only --melds draws again.
                truth, melds = hand_with_melds(rng, sets, args.melds, args.sorted or args.suit_gaps)
            detections = laid_out(truth, pool, rng, melds, args.extra, args.suit_gaps)
            plain = reconstruct(detections, variant)
            completed = reconstruct(detections, variant, wins=wins)
            right["as read"] += read_right(plain, truth, melds)
            is_right = read_right(completed, truth, melds)
            right["completed"] += is_right
            changed = (completed.hand, completed.win_tile, completed.melds) != (
                plain.hand,
                plain.win_tile,
                plain.melds,
            )
            right["completed wrong"] += changed and not is_right
            winning = wins(completed.hand_json())
            right["not winning"] += not winning
            if completed.would_win_without:
                # A hand a tile over names the tiles without which it wins: the box on no tile,
                # or a copy of what it was read as (left out, the same hand is left)?
                named = [detections[i] for i in completed.would_win_without]
                box = next((d for d in detections if EXTRA in d), None)
                boxed = any(EXTRA in d for d in named)
                alike = (
                    not boxed and box is not None and any(d["code"] == box["code"] for d in named)
                )
                right["box named"] += boxed
                right["its read named"] += alike
                right["box not named"] += not boxed and not alike
            if not winning and completed.would_win_as:
                named = named_right(completed, detections, truth, melds)
                right["named"] += named
                right["named wrong"] += not named
            # A misread that still makes a winning hand is scored as it is; where no tile of it
            # was flagged, nobody is asked: the wrong score nobody checks.
            wrong_win = winning and not changed and not is_right
            right["wrong win"] += wrong_win
            right["silent"] += wrong_win and not any(d["low_confidence"] for d in detections)
        n = args.hands
        print(
            f"| {variant} | {n} | {right['as read'] / n:.1%} | {right['completed'] / n:.1%} "
            f"| {right['completed wrong'] / n:.1%} | {right['not winning'] / n:.1%} "
            f"| {right['named'] / n:.1%} | {right['named wrong'] / n:.1%} "
            f"| {right['wrong win'] / n:.1%} | {right['silent'] / n:.1%} |"
        )
        extras[variant] = right
    if args.extra:
        print(
            "\n| rule set | a tile over, the box on no tile named "
            "| a copy of its read named instead | others named only |"
        )
        print("|---|---|---|---|")
        for variant, right in extras.items():
            print(
                f"| {variant} | {right['box named'] / args.hands:.1%} "
                f"| {right['its read named'] / args.hands:.1%} "
                f"| {right['box not named'] / args.hands:.1%} |"
            )
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
