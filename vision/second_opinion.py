"""A second classifier's read of every face-up tile: where it names another tile, the tile is
questioned; where both are sure of the same tile, it is not.

The classifier's surest mistakes pass the low-confidence line unasked: on the real photos this
set's 9s read as 6s at 0.59-0.89 and its bird 1s as 8p at 0.73-0.83, 10 misreads in all that
nobody would be asked to check. A classifier trained apart (other scenes, in grey, on a GPU)
makes other mistakes; where the two name different tiles, one of them is wrong, so the tile is
flagged low confidence with the second's read as its first alternative ("6s or 9s?"), and the
layout may complete a hand with it (vision/layout/complete.py). The first classifier's read
stands (but for a face it took for a flower where none is in play: TilePipeline.read): the
second was not the better reader of the two (docs/training.md, session 24), only a different
one. Where both read a tile surely as the same tile, in a box the detector is sure of, a flag
for its low score is taken back. On the 30 real photos: 4 misreads unasked instead of 10, for 71 questions against
70 (docs/vision.md, "What the display asks").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from scoring.tiles import tile_from_code
from vision.crops import crop_upright, read_crops
from vision.detection import Detection
from vision.models import OnnxModel
from vision.tile_sets import plain_five

AGREED_FIRST = 0.7
AGREED_SECOND = 0.95
"""A tile flagged for its low score, in a box the detector is sure holds a tile (the pipeline's
``SURE_BOX``), is not questioned where the classifier reads it at least ``AGREED_FIRST`` and the
second opinion names the same tile at least ``AGREED_SECOND``: two classifiers trained apart
agreeing surely on a face the detector is sure of. On the even half of the real photos this took
35 questions to 33 and let no mistake more pass, as did a looser second (0.5 or 0.8), which let
one more pass on the odd half; at 0.95 the odd half held (45 to 38, none more). Without the sure
box it asked 27 on the even half, but relit a stop brighter or in cool shade the photos let 2
more mistakes pass (benchmarks/light_photos.py). A read moved to fit the set never qualifies:
its classifier score is under 0.5, since the read it was moved from scored more."""


def question(
    image: np.ndarray,
    tiles: Sequence[Detection],
    second: OnnxModel,
    sure_box: float,
    red_fives: bool = True,
    flowers: bool = True,
) -> list[Detection]:
    """The tiles, with each face-up mahjong tile the ``second`` classifier reads as another tile
    flagged and given that tile as its first alternative, and each flagged tile in a box the
    detector scores ``sure_box`` or more that both read surely as the same tile no longer
    flagged (``AGREED_FIRST``, ``AGREED_SECOND``). Pieces, backs and the second's "no tile" are
    left as they are (asking whether a found tile is a tile asked 7 more questions on the real
    photos and caught nothing more). ``red_fives=False``: red fives count as fives, and
    ``flowers=False``: no tile is read as a flower, as in the first classifier's reads
    (TilePipeline.read)."""
    codes = [c.code for c in second.info.classes]
    # A flower read where none is in play was read surely (TilePipeline.read): one on the table.
    asked = [k for k, tile in enumerate(tiles) if _mahjong_tile(tile.code, flowers)]
    if not asked:
        return list(tiles)
    size = second.info.input_size
    crops = [crop_upright(image, tiles[k].box, tiles[k].rotated, size) for k in asked]
    # Mahjong tiles only: a piece is read by the piece reader, a back has no face to name.
    names_a_tile = np.array([_mahjong_tile(code, flowers) for code in codes])
    probabilities = np.where(names_a_tile, read_crops(second, crops), 0.0)
    if not red_fives:
        for red, code in enumerate(codes):
            five = plain_five(code)
            if five != code:
                probabilities[:, codes.index(five)] += probabilities[:, red]
                probabilities[:, red] = 0.0
    questioned = list(tiles)
    for k, row in zip(asked, probabilities, strict=True):
        total = float(row.sum())
        if total <= 0.0:
            continue
        best = int(row.argmax())
        read, share, tile = str(codes[best]), float(row[best]) / total, tiles[k]
        if read == tile.code:
            if (
                tile.classifier_confidence >= AGREED_FIRST
                and share >= AGREED_SECOND
                and tile.detector_confidence >= sure_box
            ):
                questioned[k] = replace(tile, low_confidence=False)
            continue
        others = tuple(alt for alt in tile.alternatives if alt[0] != read)
        questioned[k] = replace(
            tile, low_confidence=True, alternatives=((read, share), *others[:1])
        )
    return questioned


def _mahjong_tile(code: str | None, flowers: bool = True) -> bool:
    """Whether a code names a mahjong tile (not a xiangqi piece, not a back or "no tile"), and
    with ``flowers=False`` not a flower either."""
    if code is None:
        return False
    tile = tile_from_code(code)
    return not tile.is_piece and (flowers or not tile.is_flower)
