"""A blank white 白 read as a back, and a back read as 白, are set right by colour beside the
photo's faces; a set with white backs is left to the classifier. A weak read whose face is not
the set's white (a black keycap), or whose back is not the set's declared back colour (a
fingertip), is no tile."""

import argparse
import json

import cv2
import numpy as np
import pytest

import vision.pipeline
from device.cli import main
from scoring.errors import TilescoreError
from tests.vision.onnx_fixtures import CLASSIFIER_NAMES
from tests.vision.scene import colour_pair, painted_photo
from vision.face_colour import (
    face_white,
    is_back,
    is_back_of_set,
    is_blank_face,
    is_face_of_set,
    lab_of_hex,
    looks_white,
)
from vision.pipeline import load_pipeline
from vision.tile_sets import Backs, backs_from_args, load_tile_sets, tile_set_named

BLANK = (235, 235, 228)  # a plain white 白 (RGB)
YELLOW = (225, 185, 30)  # this set's backs
FACE_ONE = (250, 248, 240)  # three face-up tiles, as white as the blank but read as codes
FACE_TWO = (226, 226, 222)
FACE_THREE = (244, 242, 236)
FACES = (FACE_ONE, FACE_TWO, FACE_THREE)
NAMES = CLASSIFIER_NAMES + ("back",)


def crop(rgb, size=64):
    return np.full((size, size, 3), rgb[::-1], np.uint8)


def side_on_back(size=64):
    """A tile lying on its side: the yellow back layer over half the white body."""
    tile = crop(BLANK, size)
    tile[: size // 2] = YELLOW[::-1]
    return tile


def drawn_face(size=64):
    """A white face with dark strokes over a third of it."""
    face = crop(FACE_ONE, size)
    face[:, size // 3 : 2 * size // 3] = (30, 30, 30)
    return face


def test_face_white_is_the_faces_background_not_their_drawing():
    white = face_white([drawn_face(), drawn_face(), crop(FACE_TWO)], [])
    assert white is not None
    assert white[0] > 220  # the face's white, not its ink


def test_a_white_middle_is_blank_and_a_coloured_one_a_back():
    white = face_white([drawn_face(), crop(FACE_TWO), crop(FACE_THREE)], [])
    assert is_blank_face(crop(BLANK), white)
    assert not is_blank_face(crop(YELLOW), white)
    assert not is_blank_face(side_on_back(), white)  # half coloured is still a back
    assert not is_blank_face(crop((25, 25, 25)), white)  # a black back is far darker than white
    assert is_back(crop(YELLOW), white)
    assert not is_back(crop(BLANK), white)


def keycap(size=64):
    """A black laptop key with a white letter: the letter is far less than a quarter of it."""
    key = crop((35, 35, 40), size)
    key[size // 3 : size // 2, size // 3 : size // 2] = (250, 250, 250)
    return key


def test_a_face_of_the_set_has_the_faces_white_at_its_lightest():
    white = face_white([drawn_face(), crop(FACE_TWO), crop(FACE_THREE)], [])
    assert looks_white(white)
    assert is_face_of_set(drawn_face(), white)
    assert is_face_of_set(crop(BLANK), white)
    assert not is_face_of_set(keycap(), white)  # far darker
    assert not is_face_of_set(crop((235, 190, 120)), white)  # a light wooden box: tinted
    assert not looks_white(face_white([crop(YELLOW)] * 3, []))  # no white to judge faces by


def test_without_faces_white_is_grey_and_no_tiles_is_no_answer():
    white = face_white([], [crop(BLANK), crop(YELLOW)])
    assert white is not None and white[1] == white[2] == 128
    assert is_blank_face(crop(BLANK), white) and is_back(crop(YELLOW), white)
    assert face_white([], []) is None


# A 400 x 200 photo; the classifier confuses exactly the two: the blank reads "back" and the
# yellow back reads "5z". (box, detector class: 0 tile, 2 back, RGB painted there)
TILES = (
    ((25, 50, 75, 125), 0, FACE_ONE),
    ((85, 50, 135, 125), 0, FACE_TWO),
    ((145, 50, 195, 125), 0, FACE_THREE),
    ((205, 50, 255, 125), 2, BLANK),
    ((265, 50, 315, 125), 0, YELLOW),
)


def photo(tiles):
    return painted_photo(tiles)


def models(folder, tiles):
    colours = {
        "1m": FACE_ONE,
        "2p": FACE_TWO,
        "3s": FACE_THREE,
        "back": BLANK,
        "5z": YELLOW,
        "not_a_tile": (114, 114, 114),
    }
    return colour_pair(folder, [(box, cls, 0.9) for box, cls, _ in tiles], colours, NAMES)


def reads(folder, tiles, **options):
    found = load_pipeline(folder).read(photo(tiles), **options).tiles
    return [("back" if t.face_down else t.code) for t in found], found


def test_the_blank_and_the_back_are_set_right_by_colour(tmp_path):
    codes, found = reads(models(tmp_path / "m", TILES), TILES)
    assert codes == ["1m", "2p", "3s", "5z", "back"]
    blank = found[3]
    assert blank.alternatives[0][0] == "back"  # the classifier's own reading stays visible
    assert blank.detector_confidence == pytest.approx(0.9)


def test_a_place_read_as_a_back_is_a_blank_by_colour_and_one_read_as_a_blank_a_back(
    tmp_path, monkeypatch
):
    # Where the layout says a missed tile lies (vision.layout.missed_places): the classifier
    # reads the blank as a back, which a place never takes, and the yellow back as 5z. This
    # classifier is unsure of every colour (the blank's "back" 0.44): the floor is not tested.
    monkeypatch.setattr(vision.pipeline, "PLACE_READ_AT_LEAST", 0.3)
    pipeline = load_pipeline(models(tmp_path / "m", TILES))
    image = photo(TILES)
    faces = [box for box, _, _ in TILES[:3]]
    blank, back = TILES[3][0], TILES[4][0]
    assert [t.code for t in pipeline.read_places(image, [blank], beside=faces)] == ["5z"]
    assert pipeline.read_places(image, [back], beside=faces) == []
    white = Backs(coloured=False)  # a back is told from a blank by the classifier alone
    assert pipeline.read_places(image, [blank], backs=white, beside=faces) == []
    assert [t.code for t in pipeline.read_places(image, [back], backs=white)] == ["5z"]


def test_a_set_with_white_backs_keeps_the_classifier_reading(tmp_path):
    codes, _ = reads(models(tmp_path / "m", TILES), TILES, backs=Backs(coloured=False))
    assert codes == ["1m", "2p", "3s", "back", "5z"]


def test_a_photo_of_backs_and_blanks_alone_is_judged_against_grey(tmp_path):
    alone = TILES[3:]
    codes, _ = reads(models(tmp_path / "m", alone), alone)
    assert codes == ["5z", "back"]


def label_file(tiles, codes):
    return {
        "image": "row.png",
        "tile_set": "ours",
        "tiles": [
            {
                "code": None if code == "back" else code,
                "box": list(box),
                "face_down": code == "back",
            }
            for (box, _, _), code in zip(tiles, codes, strict=True)
        ],
    }


def test_evaluate_reads_the_backs_colour_from_the_tile_set_file(tmp_path, capsys):
    folder = models(tmp_path / "m", TILES)
    labels, photos = tmp_path / "set" / "labels", tmp_path / "photos"
    labels.mkdir(parents=True)
    photos.mkdir()
    cv2.imwrite(str(photos / "row.png"), photo(TILES))
    truth = ["1m", "2p", "3s", "5z", "back"]
    (labels / "row.json").write_text(json.dumps(label_file(TILES, truth)))
    argv = ["evaluate", "--labels", str(labels), "--photos", str(photos), "--models", str(folder)]
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tile_accuracy"] == 1.0
    # The labelled back is painted YELLOW: evaluate says so, for tile_sets.json's back_colour.
    assert report["labelled_backs"] == {"ours": {"colour": YELLOW_HEX, "backs": 1}}
    assert main(argv) == 0
    assert f"labelled backs are painted: ours {YELLOW_HEX} (median of 1)" in capsys.readouterr().out
    (tmp_path / "set" / "tile_sets.json").write_text(
        json.dumps({"ours": {"coloured_backs": False}})
    )
    assert main([*argv, "--json"]) == 0
    report = json.loads(capsys.readouterr().out)
    assert report["tile_accuracy"] == 0.6  # the classifier's two confusions stand
    assert report["tile_sets"]["ours"]["coloured_backs"] is False


@pytest.mark.parametrize("command", ["detect", "score"])
def test_white_backs_leaves_the_classifier_reading(tmp_path, capsys, command):
    folder = models(tmp_path / "m", TILES)
    image = tmp_path / "row.png"
    cv2.imwrite(str(image), photo(TILES))
    argv = [command, str(image), "--models", str(folder), "--json"]
    for extra, expected in (([], ["5z", None]), (["--white-backs"], [None, "5z"])):
        # score's five tiles are no hand: its result is an error (exit 2), its tiles stand
        assert main([*argv, *extra]) == (2 if command == "score" else 0)
        tiles = json.loads(capsys.readouterr().out)["tiles"]
        assert [t["code"] for t in tiles[3:]] == expected


def test_the_app_reads_a_white_backed_set_as_told(tmp_path):
    from device.app.cli import configure
    from device.app.web import create_app

    folder = models(tmp_path / "m", TILES)
    parser = argparse.ArgumentParser()
    configure(parser)
    for extra, expected in (([], ["5z", None]), (["--white-backs"], [None, "5z"])):
        args = parser.parse_args(["--models", str(folder), *extra])
        app = create_app(tmp_path / "data", folder, f"dir:{tmp_path}", backs=backs_from_args(args))
        reader = app.config["STATE"].reader
        assert [t["code"] for t in reader.read(photo(TILES))[3:]] == expected


def test_a_tile_sets_facts_are_every_read_option_and_an_unknown_set_has_the_defaults(tmp_path):
    path = tmp_path / "tile_sets.json"
    path.write_text(json.dumps({"ours": {"red_fives": False, "coloured_backs": False}}))
    tile_sets = load_tile_sets(path)
    told = tile_set_named(tile_sets, "ours").read_options
    assert told == {"red_fives": False, "backs": Backs(coloured=False)}
    for unknown in ("theirs", None):
        assert tile_set_named(tile_sets, unknown).read_options == {
            "red_fives": True,
            "backs": Backs(coloured=True, colour=None),
        }
    codes, _ = reads(models(tmp_path / "m", TILES), TILES, **told)
    assert codes == ["1m", "2p", "3s", "back", "5z"]  # white backs: the classifier's reading


KEYCAP = (35, 35, 40)


def test_a_weak_read_on_a_black_key_is_dropped_and_a_sure_one_kept(tmp_path):
    # Three white faces read surely; a black key found weakly (0.3: a low-confidence read) goes,
    # the same key found surely (0.9) stays: a confident tile in deep shadow is not judged.
    row = [((25 + 60 * i, 50, 75 + 60 * i, 125), 0, colour) for i, colour in enumerate(FACES)]
    weak_key, sure_key = ((205, 50, 255, 125), KEYCAP), ((265, 50, 315, 125), KEYCAP)
    colours = {"1m": FACE_ONE, "2p": FACE_TWO, "3s": FACE_THREE, "4m": KEYCAP}
    found = [(box, 0, 0.9) for box, _, _ in row]
    codes = []
    for name, (box, colour) in (("weak", weak_key), ("sure", sure_key)):
        score = 0.3 if name == "weak" else 0.9
        folder = colour_pair(tmp_path / name, [*found, (box, 0, score)], colours, NAMES)
        tiles = load_pipeline(folder).read(painted_photo([*row, (box, 0, colour)])).tiles
        codes.append([t.code for t in tiles])
    assert codes == [["1m", "2p", "3s"], ["1m", "2p", "3s", "4m"]]


SKIN = (200, 140, 110)  # a fingertip under warm light: orange-pink, not the backs' yellow
YELLOW_HEX = "#e1b91e"  # YELLOW, as tile_sets.json says it


def test_a_back_of_the_set_has_the_backs_hue_and_grey_is_not_judged():
    yellow = lab_of_hex(YELLOW_HEX)
    assert lab_of_hex("#ffffff") == pytest.approx([255, 128, 128], abs=1)
    assert is_back_of_set(crop(YELLOW), yellow)
    assert is_back_of_set(crop((190, 150, 20)), yellow)  # the same yellow in shadow
    assert not is_back_of_set(crop(SKIN), yellow)
    assert not is_back_of_set(crop((40, 110, 60)), yellow)  # a green back is another set's
    assert is_back_of_set(side_on_back(), yellow)  # half white body: its middle is still yellow
    assert is_back_of_set(crop(BLANK), yellow)  # too grey to have a hue: not judged by it
    assert is_back_of_set(crop(SKIN), lab_of_hex("#303030"))  # black backs: no hue to ask


def test_a_weak_back_of_another_colour_goes_where_the_set_says_its_backs_colour(tmp_path):
    # Three faces read surely, a yellow back and a fingertip both found weakly as backs (0.3).
    row = [((25 + 60 * i, 50, 75 + 60 * i, 125), 0, colour) for i, colour in enumerate(FACES)]
    backs = [((205, 50, 255, 125), 2, YELLOW), ((265, 50, 315, 125), 2, SKIN)]
    colours = {"1m": FACE_ONE, "2p": FACE_TWO, "3s": FACE_THREE, "back": YELLOW}
    found = [(box, 0, 0.9) for box, _, _ in row] + [(box, 2, 0.3) for box, _, _ in backs]
    reader = load_pipeline(colour_pair(tmp_path / "m", found, colours, NAMES))
    image = painted_photo([*row, *backs])
    unsaid = reader.read(image).tiles
    assert [t.face_down for t in unsaid] == [False, False, False, True, True]
    told = reader.read(image, backs=Backs(colour=YELLOW_HEX)).tiles
    assert [t.face_down for t in told] == [False, False, False, True]
    assert told[3].box == unsaid[3].box  # the yellow one stayed
    # Found surely, the same fingertip stays: a confident back in odd light is not judged.
    found_surely = [*found[:4], (backs[1][0], 2, 0.9)]
    sure = load_pipeline(colour_pair(tmp_path / "sure", found_surely, colours, NAMES))
    assert len(sure.read(image, backs=Backs(colour=YELLOW_HEX)).tiles) == 5


def test_back_colour_from_the_command_line_and_the_tile_set_file(tmp_path, capsys):
    row = [((25 + 60 * i, 50, 75 + 60 * i, 125), 0, colour) for i, colour in enumerate(FACES)]
    finger = ((265, 50, 315, 125), 2, SKIN)
    colours = {"1m": FACE_ONE, "2p": FACE_TWO, "3s": FACE_THREE, "back": YELLOW}
    found = [(box, 0, 0.9) for box, _, _ in row] + [(finger[0], 2, 0.3)]
    folder = colour_pair(tmp_path / "m", found, colours, NAMES)
    image = tmp_path / "row.png"
    cv2.imwrite(str(image), painted_photo([*row, finger]))
    argv = ["detect", str(image), "--models", str(folder), "--json"]
    for extra, count in (([], 4), (["--back-colour", YELLOW_HEX], 3)):
        assert main([*argv, *extra]) == 0
        assert len(json.loads(capsys.readouterr().out)["tiles"]) == count
    for bad, problem in (
        (["--back-colour", "yellow"], "'yellow' is not a #rrggbb colour"),
        (["--back-colour", YELLOW_HEX, "--white-backs"], "white backs has no back colour"),
    ):
        assert main([*argv, *bad]) == 2
        err = capsys.readouterr().err.strip()
        assert problem in err and len(err.splitlines()) == 1
    path = tmp_path / "tile_sets.json"
    path.write_text(json.dumps({"ours": {"back_colour": YELLOW_HEX}}))
    assert tile_set_named(load_tile_sets(path), "ours").backs == Backs(True, YELLOW_HEX)
    path.write_text(json.dumps({"ours": {"back_colour": "#12345"}}))
    with pytest.raises(TilescoreError, match=r"tile_sets.json: back colour '#12345' is not"):
        load_tile_sets(path)


def test_serve_refuses_a_bad_back_colour_before_making_its_data_folder(tmp_path, capsys):
    data = tmp_path / "data"
    argv = ["serve", "--data", str(data), "--back-colour", "#zzzzzz", "--camera", "dir:/nowhere"]
    assert main(argv) == 2
    assert "'#zzzzzz' is not a #rrggbb colour" in capsys.readouterr().err
    assert not data.exists()


def test_a_tile_set_describes_itself_in_one_line():
    from vision.tile_sets import TileSet

    assert TileSet("ours", False, backs=Backs(True, "#d6a326")).describe() == (
        "ours has no red fives, backs #d6a326"
    )
    assert TileSet("theirs", backs=Backs(False)).describe() == "theirs has red fives, white backs"
