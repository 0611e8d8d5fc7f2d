"""Draw the layout guide picture for the README: the shipped example photo, its tiles as
labelled (the truth JSON beside it), and the groups the reconstruction finds in them.

    PYTHONPATH=. python scripts/layout_picture.py [--photo examples/photos/taiwan-melds.jpg]
        [--out docs/images/layout.png]

It uses the labels, not a model, so the picture shows the layout rules themselves.
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

import cv2

from scoring.hand_json import score_json
from vision.annotate import draw_groups
from vision.layout import reconstruct


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--photo", type=Path, default=Path("examples/photos/taiwan-melds.jpg"))
    parser.add_argument("--out", type=Path, default=Path("docs/images/layout.png"))
    parser.add_argument("--width", type=int, default=1200, help="width of the picture")
    args = parser.parse_args()
    truth = json.loads(args.photo.with_suffix(".json").read_text())
    image = cv2.imread(str(args.photo))
    if image is None:
        raise SystemExit(f"error: cannot read {args.photo}")
    reading = reconstruct(truth["tiles"], "taiwan")
    hand = {**reading.hand_json(), "variant": "taiwan"}
    result = score_json(hand)
    score = f"{result['total']} {result['unit']}" if "total" in result else result["error"]
    summary = f"{hand['hand']} +{reading.win_tile}  ->  {score}"
    groups = [(g.role, g.tiles, g.label) for g in reading.groups]
    boxes = [t["box"] for t in truth["tiles"]]
    out = draw_groups(image, boxes, groups, summary)
    scale = args.width / out.shape[1]
    out = cv2.resize(out, None, fx=scale, fy=scale, interpolation=cv2.INTER_AREA)
    args.out.parent.mkdir(parents=True, exist_ok=True)
    cv2.imwrite(str(args.out), out)
    print(f"wrote {args.out}: {summary}; problems: {[p.message for p in reading.problems]}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
