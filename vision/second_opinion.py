"""A second classifier's read of every face-up tile: where it names another tile, the tile is
questioned.

The classifier's surest mistakes pass the low-confidence line unasked: on the real photos this
set's 9s read as 6s at 0.59-0.89 and its bird 1s as 8p at 0.73-0.83, 10 misreads in all that
nobody would be asked to check. A classifier trained apart (other scenes, in grey, on a GPU)
makes other mistakes; where the two name different tiles, one of them is wrong, so the tile is
flagged low confidence with the second's read as its first alternative ("6s or 9s?"), and the
layout may complete a hand with it (vision/layout/complete.py). The first classifier's read
stands: the second was not the better reader of the two (docs/training.md, session 24), only a
different one. On the 30 real photos it left 4 misreads unasked instead of 10, for 10 more
questions (docs/vision.md, "What the display asks").
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import replace

import numpy as np

from vision.crops import crop_upright, read_crops
from vision.detection import Detection
from vision.models import OnnxModel
from vision.tile_sets import plain_five


def question(
    image: np.ndarray, tiles: Sequence[Detection], second: OnnxModel, red_fives: bool = True
) -> list[Detection]:
    """The tiles, with each face-up mahjong tile the ``second`` classifier reads as another tile
    flagged and given that tile as its first alternative. Pieces, backs and the second's "no
    tile" are left as they are (asking whether a found tile is a tile asked 7 more questions on
    the real photos and caught nothing more)."""
    classes = second.info.classes
    codes = [c.code for c in classes]
    # Mahjong tiles only: a piece is read by the piece reader, a back has no face to name.
    names_a_tile = np.array([c is not None and c[-1] not in "br" for c in codes])
    asked = [
        k for k, tile in enumerate(tiles) if tile.code is not None and tile.code[-1] not in "br"
    ]
    if not asked:
        return list(tiles)
    size = second.info.input_size
    crops = [crop_upright(image, tiles[k].box, tiles[k].rotated, size) for k in asked]
    probabilities = np.where(names_a_tile, read_crops(second, crops), 0.0)
    questioned = list(tiles)
    for k, row in zip(asked, probabilities, strict=True):
        best = int(row.argmax())
        read = str(codes[best])
        tile = tiles[k]
        if not red_fives:  # as the first classifier's reads are folded (TilePipeline.read)
            read = str(plain_five(read))
        if read == tile.code or row[best] <= 0.0:
            continue
        share = float(row[best] / row.sum())
        others = tuple(alt for alt in tile.alternatives if alt[0] != read)
        questioned[k] = replace(
            tile, low_confidence=True, alternatives=((read, share), *others[:1])
        )
    return questioned
