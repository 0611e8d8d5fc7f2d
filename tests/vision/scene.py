"""A known scene: a photo with painted tiles and the detector rows that "find" them."""

import json

import numpy as np

from tests.vision.onnx_fixtures import (
    CLASSIFIER_NAMES,
    DETECTOR_CLASSES,
    classifier_classes,
    colour_classifier,
    detector_row,
    fixed_detector,
    two_stage_models,
    write_metadata,
)

# A 400 x 200 photo into a 64 input: scale 0.16, 16 pixels of grey above and below.
WIDTH, HEIGHT = 400, 200
RGB = {"5m": (200, 30, 30), "3s": (30, 200, 30), "7z": (230, 230, 40), "2p": (20, 20, 200)}
PIECE_RGB = {"1r": (40, 40, 180)}  # nearer to 2p's colour than to its own: masking must pick it
NOT_A_TILE_RGB = (90, 60, 30)

# name: (box in the photo, detector class, score, RGB painted there)
SCENE = {
    "man": ((25, 50, 75, 125), 0, 0.9, RGB["5m"]),
    "man_twice": ((25, 50, 75, 131.25), 0, 0.6, None),  # a second box on the same tile
    "sou_sideways": ((100, 50, 200, 100), 1, 0.85, RGB["3s"]),
    "back": ((225, 50, 275, 125), 2, 0.8, None),
    "piece": ((300, 50, 350, 100), 4, 0.95, RGB["2p"]),
    "shadow": ((300, 125, 350, 175), 0, 0.7, NOT_A_TILE_RGB),
    "unsure": ((100, 125, 150, 175), 0, 0.3, RGB["7z"]),
    "noise": ((200, 125, 250, 175), 0, 0.1, RGB["5m"]),
}


def to_input(box):
    return [v * 0.16 + (16 if i % 2 else 0) for i, v in enumerate(box)]


def scene_photo():
    photo = np.full((HEIGHT, WIDTH, 3), 114, np.uint8)
    for box, _, _, rgb in SCENE.values():
        if rgb is not None:
            x1, y1, x2, y2 = (int(v) for v in box)
            photo[y1:y2, x1:x2] = rgb[::-1]  # the photo is BGR
    return photo


def scene_models(folder):
    """Models that read SCENE: fixed detector rows, a classifier keyed on the painted colours."""
    rows = [detector_row(to_input(box), cls, score) for box, cls, score, _ in SCENE.values()]
    colours = RGB | PIECE_RGB | {"not_a_tile": NOT_A_TILE_RGB}
    return two_stage_models(folder, np.array(rows), colours)


def painted_photo(tiles, width=WIDTH, height=HEIGHT):
    """A grey BGR photo with each tile's box painted its RGB (the last item of each tile)."""
    image = np.full((height, width, 3), 114, np.uint8)
    for tile in tiles:
        x1, y1, x2, y2 = (int(v) for v in tile[0])
        image[y1:y2, x1:x2] = tile[-1][::-1]
    return image


def colour_pair(folder, found, colours, names, detector_facts=None, top_middle=False):
    """A model folder whose detector finds ``found`` ((box in a 400 x 200 photo, class, score)
    each) and whose classifier over ``names`` reads a crop's colour (with ``top_middle``, the
    colour of the middle of its top third) from ``colours``."""
    folder.mkdir()
    rows = np.array([detector_row(to_input(box), cls, score) for box, cls, score in found])
    fixed_detector(folder / "det.onnx", rows, 64)
    meta = write_metadata(folder, "det", "detect", 64, DETECTOR_CLASSES)
    if detector_facts:
        meta.write_text(json.dumps({**json.loads(meta.read_text()), **detector_facts}))
    colour_classifier(folder / "cls.onnx", colours, names=names, top_middle=top_middle)
    write_metadata(folder, "cls", "classify", 32, classifier_classes(names))
    (folder / "default.json").write_text('{"detector": "det.json", "classifier": "cls.json"}')
    return folder


def by_box(reading):
    """A reading's tiles keyed by their boxes, rounded."""
    return {tuple(round(v, 3) for v in tile.box): tile for tile in reading.tiles}


def with_reader(folder, role, name, colours, names=CLASSIFIER_NAMES, size=32):
    """A models folder with one more classifier, ``name``, that reads crops by ``colours`` and
    that default.json names as ``role`` (``pieces``, ``second_opinion``)."""
    colour_classifier(folder / f"{name}.onnx", colours, size, names=names)
    write_metadata(folder, name, "classify", size, classifier_classes(names))
    default = json.loads((folder / "default.json").read_text())
    (folder / "default.json").write_text(json.dumps({**default, role: f"{name}.json"}))
    return folder
