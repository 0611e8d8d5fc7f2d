"""A shipped example photo with one tile painted over in the table's colour: a tile the detector
cannot find, on a real photo the real models read."""

from __future__ import annotations

import json
from typing import Any

import cv2
import numpy as np

from tests.cli_run import REPO

PHOTOS = REPO / "examples" / "photos"


def pinghu_without(position: int) -> tuple[np.ndarray, dict[str, Any]]:
    """The pinghu photo (a closed hand) with its labelled tile at ``position`` painted out, and
    that tile's label."""
    return painted_out("taiwan-pinghu", position)


def painted_out(name: str, position: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Example photo ``name`` with its labelled tile at ``position`` painted out, and that
    tile's label."""
    image = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    tile = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"][position]
    x1, y1, x2, y2 = (int(round(v)) for v in tile["box"])
    # The table's colour: the median of strips just above and below the tile.
    ring = np.concatenate([image[y1 - 16 : y1 - 6, x1:x2], image[y2 + 6 : y2 + 16, x1:x2]])
    image[y1 - 6 : y2 + 6, x1 - 6 : x2 + 6] = np.median(ring.reshape(-1, 3), axis=0)
    return image, tile


def face_copied(name: str, position: int, source: int) -> tuple[np.ndarray, dict[str, Any]]:
    """Example photo ``name`` with its labelled tile at ``position`` showing the face of the
    one at ``source`` (the source's box scaled into the tile's): a tile the models read surely
    as another, and the label of the tile it hides."""
    image = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    tiles = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"]
    x1, y1, x2, y2 = (int(round(v)) for v in tiles[position]["box"])
    s1, t1, s2, t2 = (int(round(v)) for v in tiles[source]["box"])
    image[y1:y2, x1:x2] = cv2.resize(image[t1:t2, s1:s2], (x2 - x1, y2 - y1))
    return image, tiles[position]


def face_added(name: str, source: int, at: tuple[int, int]) -> tuple[np.ndarray, dict[str, Any]]:
    """Example photo ``name`` with a copy of its labelled tile at ``source`` laid with its top
    left corner at ``at`` (a tile where the photo has none), and that copy's label."""
    image = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    tile = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"][source]
    s1, t1, s2, t2 = (int(round(v)) for v in tile["box"])
    x, y = at
    image[y : y + t2 - t1, x : x + s2 - s1] = image[t1:t2, s1:s2]
    return image, {**tile, "box": [x, y, x + s2 - s1, y + t2 - t1]}


def extra_in_row(name: str, source: int, last: int, win: int) -> np.ndarray:
    """Example photo ``name`` with its winning tile (labelled at ``win``) moved a tile's width
    on, and a copy of the tile at ``source`` laid where it was, after the row's ``last`` tile:
    a row one tile longer than its hand (as a box on something read as a tile would make it)."""
    image = cv2.imread(str(PHOTOS / f"{name}.jpg"))
    tiles = json.loads((PHOTOS / f"{name}.json").read_text())["tiles"]
    x1, y1, x2, y2 = (int(round(v)) for v in tiles[win]["box"])
    s1, t1, s2, t2 = (int(round(v)) for v in tiles[source]["box"])
    step = s2 - s1 + 40
    original = image.copy()
    image[y1 - 5 : y2 + 5, x1 - 5 + step : x2 + 5 + step] = original[
        y1 - 5 : y2 + 5, x1 - 5 : x2 + 5
    ]
    # The winning tile's place in the table's colour, then the copy after the row's last tile.
    table = np.median(original[y2 + 10 : y2 + 30, x1:x2].reshape(-1, 3), axis=0)
    image[y1 - 5 : y2 + 5, x1 - 5 : x2 + 5] = table
    at = int(round(tiles[last]["box"][2])) + 3
    image[t1:t2, at : at + s2 - s1] = original[t1:t2, s1:s2]
    return image
