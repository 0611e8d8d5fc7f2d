"""Where to draw the low-confidence line: the display's questions against the mistakes it lets by.

    PYTHONPATH=. python benchmarks/question_lines.py [--models models] [--labels DIR] [--photos DIR]

A read flagged low confidence is kept and questioned ("1s or 8p?"); a wrong read with no flag is
a wrong count nobody is asked to check. The labelled photos are read once; each row flags the
same reads again by another rule, after the fact: as the reader flags them (the combined
confidence under ``LOW_CONFIDENCE``, reads it moved to fit the set, and tiles the folder's second
opinion reads as another tile, vision/second_opinion.py), the combined confidence under another
line, or the classifier's own probability under a line with the detector's score under another
(the rules after the first leave the second opinion out). Columns: questions (flagged boxes, a photo), of them read right (a tap to
confirm), misreads and extra boxes with no flag, and the photos right or with every mistake asked
(every tile found), all and in the halves (even and odd positions, as threshold_sweep.py): choose
on the even half. Missed tiles no flag can ask about; the count is the same in every row.
"""

from __future__ import annotations

import argparse
import sys
from collections.abc import Callable, Sequence
from dataclasses import replace
from pathlib import Path

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.threshold_sweep import add_photo_arguments, labelled_photos  # noqa: E402
from vision.detection import LOW_CONFIDENCE, Detection  # noqa: E402
from vision.evaluate import Evaluation, PhotoResult, match_photo  # noqa: E402
from vision.labels import LabelledPhoto  # noqa: E402
from vision.pipeline import load_pipeline  # noqa: E402

Rule = Callable[[Detection], bool]

PRODUCT_LINES = (0.3, 0.5, 0.6, 0.7, 0.8)
CLASSIFIER_LINES = ((0.8, 0.2), (0.9, 0.2), (0.95, 0.2), (0.98, 0.1), (0.98, 0.3))


def rules(second_opinion: bool) -> list[tuple[str, Rule | None]]:
    """(row name, flag rule); None keeps the reader's own flags (with ``second_opinion``, also
    where the folder's second classifier reads another tile; the other rows do without it)."""
    shipped = f"as shipped (confidence < {LOW_CONFIDENCE}" + (
        ", or a second opinion)" if second_opinion else ")"
    )
    made: list[tuple[str, Rule | None]] = [(shipped, None)]
    for line in PRODUCT_LINES:
        made.append((f"confidence < {line}", lambda d, line=line: d.confidence < line))
    for classifier, detector in CLASSIFIER_LINES:
        made.append(
            (
                f"classifier < {classifier} or detector < {detector}",
                lambda d, c=classifier, s=detector: (
                    d.classifier_confidence < c or d.detector_confidence < s
                ),
            )
        )
    return made


def flagged(results: Sequence[PhotoResult], rule: Rule | None) -> list[PhotoResult]:
    if rule is None:
        return list(results)
    return [
        replace(r, predictions=tuple(replace(d, low_confidence=rule(d)) for d in r.predictions))
        for r in results
    ]


def row(results: list[PhotoResult]) -> str:
    evaluation = Evaluation(tuple(results))
    asked = evaluation.questions()
    per_photo = asked["asked"] / max(len(results), 1)
    halves = [
        sum(r.right_or_asked for i, r in enumerate(results) if i % 2 == half) for half in (0, 1)
    ]
    counted = [len(results[half::2]) for half in (0, 1)]
    return (
        f"{asked['asked']:>5} {per_photo:>4.1f} {asked['asked_right']:>6} "
        f"{asked['unasked_misreads']:>9} {asked['unasked_extra']:>6} "
        f"{asked['photos_right_or_asked']:>5}/{len(results):<3}"
        f"{halves[0]:>5}/{counted[0]:<3}{halves[1]:>5}/{counted[1]:<3}"
    )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    add_photo_arguments(parser)
    args = parser.parse_args()
    labels: list[LabelledPhoto]
    labels, photos = labelled_photos(args.labels, args.photos)
    reader = load_pipeline(args.models)
    results = [
        match_photo(label, reader.read(image, **facts.read_options).tiles)
        for label, (image, facts) in zip(labels, photos, strict=True)
    ]
    missed = sum(len(r.missed) for r in results)
    print(
        f"{len(results)} photos, {sum(len(r.labels) for r in results)} labelled tiles, "
        f"{missed} missed (no flag asks about them)"
    )
    names = rules(reader.second_opinion is not None)
    width = max(len(name) for name, _ in names)
    print(
        f"{'flagged when':>{width}} | asked /pht. right | not asked: misread extra | "
        f"right or asked: all  even  odd"
    )
    for name, rule in names:
        print(f"{name:>{width}} | {row(flagged(results, rule))}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
