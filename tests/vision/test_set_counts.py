"""A photo of one set reads no more of a tile than the set holds: surplus reads are read again."""

import json

import numpy as np

from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair, painted_photo
from vision.pipeline import load_pipeline
from vision.set_counts import groups_of, surplus_reads

CODES = ["8p", "9p", "5m", "0m", "1f", "1b", "7r", None]


def rows(*probabilities):
    """One probability row a tile over CODES, from {code: p} (the rest share what is left)."""
    table = np.zeros((len(probabilities), len(CODES)), np.float32)
    for i, given in enumerate(probabilities):
        for code, p in given.items():
            table[i, CODES.index(code)] = p
    return table


def reads_of(table):
    return [int(r) for r in table.argmax(axis=1)]


def test_what_one_set_holds():
    assert groups_of("8p") == (("8p", 4),)
    assert groups_of("0m") == (("5m", 4), ("0m", 1))  # one of the fives, and the only red one
    assert groups_of("1f") == (("1f", 1),)
    assert groups_of("1b") == (("1b", 1),)  # 將: one in a 32-piece set
    assert groups_of("7r") == (("7r", 5),)  # 兵: five
    assert groups_of(None) == ()


def test_the_least_sure_of_five_takes_its_next_best():
    table = rows(
        {"8p": 0.99, "9p": 0.01},
        {"8p": 0.98, "9p": 0.02},
        {"8p": 0.6, "9p": 0.4},  # costs least to change: log(0.6 / 0.4)
        {"8p": 0.55, "5m": 0.1, None: 0.35},  # its next best is further: log(0.55 / 0.35)
        {"8p": 0.97, "9p": 0.03},
    )
    assert surplus_reads(reads_of(table), table, CODES) == {2: CODES.index("9p")}


def test_reads_within_the_set_change_nothing():
    table = rows(*[{"8p": 0.9, "9p": 0.1}] * 4, {"9p": 0.8, "8p": 0.2})
    assert surplus_reads(reads_of(table), table, CODES) == {}


def test_a_change_that_overfills_another_tile_is_changed_again():
    table = rows(
        *[{"9p": 1.0}] * 4,  # four sure 9p
        *[{"8p": 0.99, "9p": 0.01}] * 4,
        {"8p": 0.5, "9p": 0.45, "5m": 0.05},  # a fifth 8p: 9p is full too, so 5m
    )
    changed = surplus_reads(reads_of(table), table, CODES)
    assert changed == {8: CODES.index("5m")}


def test_red_fives_count_as_fives_and_a_set_has_one():
    two_red = rows({"0m": 0.9, "5m": 0.1}, {"0m": 0.7, "5m": 0.3})
    assert surplus_reads(reads_of(two_red), two_red, CODES) == {1: CODES.index("5m")}
    five_fives = rows(*[{"5m": 0.95, "8p": 0.05}] * 4, {"0m": 0.8, "8p": 0.2})
    assert surplus_reads(reads_of(five_fives), five_fives, CODES) == {4: CODES.index("8p")}


def test_flowers_and_generals_are_single():
    table = rows({"1f": 0.9, None: 0.1}, {"1f": 0.8, None: 0.2}, {"1b": 0.9, "7r": 0.1},
                 {"1b": 0.6, "7r": 0.4})  # fmt: skip
    assert surplus_reads(reads_of(table), table, CODES) == {1: len(CODES) - 1, 3: 5 + 1}


def test_a_read_nothing_else_can_be_stays():
    table = rows(*[{"8p": 1.0}] * 5)
    assert surplus_reads(reads_of(table), table, CODES) == {}


# Through the pipeline: the real reading code with tiny ONNX models that read a crop's colour.
EIGHT_DOTS = (40, 40, 200)
NINE_DOTS = (200, 40, 40)
BETWEEN = (110, 40, 130)  # nearer 8p's colour than 9p's: read 8p, but not surely
# Four sure 8p and a fifth read 8p unsurely: (box, detector class, RGB painted there).
FIVE_8P = [((25 + 60 * i, 50, 75 + 60 * i, 125), 0, EIGHT_DOTS) for i in range(4)] + [
    ((265, 50, 315, 125), 0, BETWEEN)
]


def five_8p_models(tmp_path):
    """A pair whose detector finds FIVE_8P surely and whose classifier reads their colours."""
    return colour_pair(
        tmp_path / "models",
        [(box, cls, 0.9) for box, cls, _ in FIVE_8P],
        {"8p": EIGHT_DOTS, "9p": NINE_DOTS, "not_a_tile": (20, 230, 20)},
        CLASSIFIER_NAMES,
    )


def test_a_photo_reads_no_fifth_8p(tmp_path):
    folder = five_8p_models(tmp_path)
    tiles = load_pipeline(folder).read(painted_photo(FIVE_8P)).tiles
    assert [t.code for t in tiles] == ["8p"] * 4 + ["9p"]
    moved = tiles[-1]
    assert moved.alternatives[0][0] == "8p"  # what it read first is still offered
    assert moved.classifier_confidence < moved.alternatives[0][1]
    assert moved.low_confidence


def test_a_read_moved_to_fit_the_set_stays_under_the_classifiers_least_score(tmp_path):
    folder = five_8p_models(tmp_path)
    meta = folder / "cls.json"
    first = load_pipeline(folder).read(painted_photo(FIVE_8P)).tiles[-1]
    floor = (first.classifier_confidence + first.alternatives[0][1]) / 2  # between 9p and 8p
    meta.write_text(json.dumps({**json.loads(meta.read_text()), "min_read_confidence": floor}))
    tiles = load_pipeline(folder).read(painted_photo(FIVE_8P)).tiles
    assert [t.code for t in tiles] == ["8p"] * 4 + ["9p"]  # its first read, 8p, passed the floor
    assert tiles[-1].classifier_confidence < floor and tiles[-1].low_confidence
