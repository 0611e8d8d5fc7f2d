"""How the shipped pair reads the real xiangqi photos no model trained on, and what adapting gains.

    PYTHONPATH=. python benchmarks/xiangqi_photos.py [--models models]
        [--photos ../shared/data/xiangqi-pieces/test] [--adapt-halves]

The test split of the real xiangqi set (`../shared/data/xiangqi-pieces`, labelled boxes) is a
second real set, of pieces rather than tiles. A piece is right when a reported box overlaps its
labelled box at IoU 0.5 or more and reads its code; a photo is whole when every piece is right
and nothing else is reported.

The set's split leaks: 26 of its 61 test photos are turned copies of train or valid photos
(datasets/xiangqi_real.py), which the detector trained on (as "a piece"). The classifier's real
crops leave every test photo's copies out, so all 61 are unseen by it; the table also gives the
35 clean photos apart, as the only ones no model has seen.

``--adapt-halves`` also runs ``tilescore train classifier --adapt`` (vision/training/adapt.py) on
a copy of the models with the photos of one half, unlabelled, and reads the other half; the three
rotations of one source photo stay in one half (the set's README says so). Where the folder has a
piece reader, it is the piece reader that adapts (to the pieces it reads).
"""

from __future__ import annotations

import argparse
import sys
import zlib
from dataclasses import dataclass
from pathlib import Path

import numpy as np

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from benchmarks.adapt_held_out import adapted_models  # noqa: E402
from datasets.synth.sources import xiangqi_labels  # noqa: E402
from datasets.xiangqi_real import near_duplicates, photos_of_split  # noqa: E402
from vision.boxes import iou_matrix  # noqa: E402
from vision.images import load_image  # noqa: E402
from vision.pipeline import TilePipeline, load_pipeline  # noqa: E402
from vision.training.adapt import SHARE  # noqa: E402


@dataclass(frozen=True)
class PiecePhoto:
    path: Path
    image: np.ndarray
    boxes: np.ndarray  # N×4, x1 y1 x2 y2 in pixels
    codes: tuple[str, ...]
    half: int  # 0 or 1, by source photo
    clean: bool  # no turned copy of it in the set's train or valid split


@dataclass(frozen=True)
class Score:
    pieces: int
    right: int
    extra: int
    whole: int
    photos: int

    def __str__(self) -> str:
        return (
            f"{self.right:>5}/{self.pieces:<5} ({self.right / max(self.pieces, 1):6.1%}) | "
            f"{self.extra:>5} | {self.whole:>3}/{self.photos:<3}"
        )


def main() -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("--models", type=Path, default=ROOT / "models")
    parser.add_argument(
        "--photos", type=Path, default=ROOT.parent / "shared/data/xiangqi-pieces/test"
    )
    parser.add_argument("--adapt-halves", action="store_true")
    args = parser.parse_args()
    photos = load_photos(args.photos)
    # As a xiangqi table reads them: with the detector the folder names for xiangqi, if any.
    shipped = load_pipeline(args.models, variant="xiangqi")
    names = " + ".join(info.name for info in shipped.models)
    print(
        f"{len(photos)} real xiangqi photos, {sum(len(p.codes) for p in photos)} pieces ({names})"
    )
    print(f"{'':>36} | {'pieces right':>21} | {'extra':>5} | {'whole':>7}")
    print(f"{'shipped pair, all photos':>36} | {score(shipped, photos)}")
    clean = [p for p in photos if p.clean]
    copies = [p for p in photos if not p.clean]
    print(f"{'clean photos':>36} | {score(shipped, clean)}")
    print(f"{'turned copies of training photos':>36} | {score(shipped, copies)}")
    if not args.adapt_halves:
        return 0
    for source in (0, 1):
        target = [p for p in photos if p.half != source]
        adapt_on = [p.path for p in photos if p.half == source]
        with adapted_models(args.models, adapt_on, SHARE, "benchmarks/xiangqi_photos.py") as (
            report,
            models,
        ):
            adapted = score(load_pipeline(models, variant="xiangqi"), target)
        print(f"{f'shipped pair, half {1 - source}':>36} | {score(shipped, target)}")
        name = f"adapted on half {source} ({report['tiles']} crops)"
        print(f"{name:>36} | {adapted}", flush=True)
    return 0


def load_photos(folder: Path) -> list[PiecePhoto]:
    root = folder.parent
    trained_on = photos_of_split(root, "train") + photos_of_split(root, "valid")
    copied = set(near_duplicates(photos_of_split(root, folder.name), trained_on))
    photos = []
    for label in sorted((folder / "labels").glob("*.txt")):
        path = folder / "images" / f"{label.stem}.jpg"
        if not path.exists():
            continue
        image = load_image(path)
        height, width = image.shape[:2]
        boxes, codes = [], []
        for piece in xiangqi_labels(label.read_text()):
            boxes.append(piece.corners(width, height))
            codes.append(piece.code)
        source = label.stem.split("_jpg")[0].split("_png")[0]  # Roboflow: SOURCE_jpg.rf.HASH
        photos.append(
            PiecePhoto(
                path,
                image,
                np.array(boxes),
                tuple(codes),
                zlib.crc32(source.encode()) % 2,
                path not in copied,
            )
        )
    return photos


def score(pipeline: TilePipeline, photos: list[PiecePhoto]) -> Score:
    right = extra = whole = pieces = 0
    for photo in photos:
        tiles = pipeline.read(photo.image, red_fives=False).tiles
        found = np.array([t.box for t in tiles]) if tiles else np.zeros((0, 4))
        overlap = iou_matrix(photo.boxes, found) if len(found) else np.zeros((len(photo.boxes), 0))
        used: set[int] = set()
        photo_right = 0
        for i, code in enumerate(photo.codes):
            j = int(overlap[i].argmax()) if overlap.shape[1] else -1
            if j >= 0 and overlap[i, j] >= 0.5 and j not in used:
                used.add(j)
                photo_right += tiles[j].code == code
        photo_extra = len(tiles) - len(used)
        right += photo_right
        extra += photo_extra
        whole += photo_right == len(photo.codes) and photo_extra == 0
        pieces += len(photo.codes)
    return Score(pieces, right, extra, whole, len(photos))


if __name__ == "__main__":
    raise SystemExit(main())
