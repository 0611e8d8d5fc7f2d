"""The synthetic data generator: faces for every tile, deterministic scenes, labels that fit."""

from __future__ import annotations

import csv
import hashlib
import math
import random
from collections import Counter
from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image, ImageDraw

from datasets.synth import faces, sources
from datasets.synth.build import CLASSIFIER_CLASSES, DETECTOR_CLASSES, build
from datasets.synth.faces import FACE_SIZE, FaceLibrary, FaceMix, render_face
from datasets.synth.scene import MAHJONG_CODES, WHITE_DRAGON_SHARE, SceneMaker, mahjong_code
from scoring.tiles import ALL_TILES, tile_from_code

pytestmark = pytest.mark.skipif(not faces.cjk_fonts(), reason="needs fonts-noto-cjk")


@pytest.mark.parametrize("tile", ALL_TILES, ids=lambda t: t.code)
def test_every_tile_renders_an_inked_face(tile) -> None:  # type: ignore[no-untyped-def]
    rng = random.Random(4)
    drawn = [render_face(tile, rng) for _ in range(6)]
    for face in drawn:
        assert face.dtype == np.uint8 and face.shape[2] == 3
        if not tile.is_piece:
            assert face.shape[:2] == (FACE_SIZE[1], FACE_SIZE[0])
    # Something is painted on every kind except the blank white dragon.
    inked = [float(face.std()) > 8 for face in drawn]
    assert all(inked) if tile.code != "5z" else not all(inked)


def test_brushed_text_keeps_its_centre_and_varies() -> None:
    rng = random.Random(0)
    font = faces._font(rng, 110)
    centres, masses = [], []
    for _ in range(12):
        image = Image.new("RGB", FACE_SIZE, (255, 255, 255))
        faces._brushed(image, (75, 100), "發", font, (0, 0, 0), rng)
        ink = np.asarray(image)[:, :, 0] < 128
        ys, xs = np.nonzero(ink)
        centres.append((xs.mean(), ys.mean()))
        masses.append(int(ink.sum()))
    for x, y in centres:
        assert abs(x - 75) < 12 and abs(y - 100) < 12
    assert len(set(masses)) > 6  # stroke weight, lean and width change from draw to draw


def test_brush_fonts_fall_back_to_print_fonts(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    noto = faces.cjk_fonts()[0]
    (tmp_path / "NotoSans.ttc").symlink_to(noto)
    monkeypatch.setenv("TILESCORE_CJK_FONTS", str(tmp_path))
    faces.cjk_fonts.cache_clear()
    try:
        assert faces.cjk_fonts(brush=True) == ()
        assert faces._font(random.Random(1), 40, brush=1.0) is not None
    finally:
        faces.cjk_fonts.cache_clear()


def test_scenes_are_deterministic_by_seed_and_labels_fit_the_image(tmp_path: Path) -> None:
    maker = SceneMaker(FaceLibrary(root=tmp_path))  # rendered faces only
    first, tiles = maker.make(random.Random(21))
    again, tiles_again = maker.make(random.Random(21))
    other, _ = maker.make(random.Random(22))
    assert np.array_equal(first, again)
    assert [t.box() for t in tiles] == [t.box() for t in tiles_again]
    assert first.shape != other.shape or not np.array_equal(first, other)
    h, w = first.shape[:2]
    assert tiles
    for tile in tiles:
        x1, y1, x2, y2 = tile.box()
        assert -1 <= x1 < x2 <= w + 1 and -1 <= y1 < y2 <= h + 1


def _digest(folder: Path) -> dict[str, str]:
    return {
        str(p.relative_to(folder)): hashlib.md5(p.read_bytes()).hexdigest()
        for p in sorted(folder.rglob("*"))
        if p.is_file()
        and p.name not in ("data.yaml", "contact_sheet.png")  # sheet: first job's samples
    }


def test_build_writes_both_sets_the_same_with_any_number_of_jobs(tmp_path: Path) -> None:
    one, two = tmp_path / "one", tmp_path / "two"
    summary = build(one, scenes=4, seed=5, real_xiangqi=False, jobs=1)
    build(two, scenes=4, seed=5, real_xiangqi=False, jobs=2)
    assert summary["scenes"] == 4 and summary["crops"] > 4
    assert _digest(one) == _digest(two)
    labels = list((one / "detect" / "labels").rglob("*.txt"))
    assert len(labels) == 4
    for path in labels:
        for line in path.read_text().splitlines():
            class_id, *box = line.split()
            assert 0 <= int(class_id) < len(DETECTOR_CLASSES)
            assert all(0.0 <= float(v) <= 1.0 for v in box)
    classes = {p.parent.name for p in (one / "classify").rglob("*.jpg")}
    assert classes <= set(CLASSIFIER_CLASSES) and len(classes) > 3


def test_nine_bamboo_is_painted_the_ways_real_sets_paint_it() -> None:
    """Sets paint 9s red in its middle column (the real photos' set), elsewhere, or not at all;
    a classifier that only ever saw one of them read the real 9s as 6s."""
    rng = random.Random(7)
    styles = set()
    for _ in range(40):
        face = render_face(tile_from_code("9s"), rng)[:, :, ::-1].astype(int)  # RGB
        red = (face[:, :, 0] > 150) & (face[:, :, 1] < 90) & (face[:, :, 2] < 90)
        if red.sum() < 50:
            styles.add("none")
            continue
        xs = np.nonzero(red)[1]
        middle = ((xs > FACE_SIZE[0] * 0.35) & (xs < FACE_SIZE[0] * 0.65)).mean()
        styles.add("middle column" if middle > 0.9 else "elsewhere")
    assert styles == {"none", "middle column", "elsewhere"}


def test_a_dog_bone_flares_at_its_ends_and_is_thin_between() -> None:
    """The real photos' set draws a stick as an I with serifs, not as a string of beads."""
    image = Image.new("RGB", (60, 100), (240, 240, 230))
    faces._dog_bone(ImageDraw.Draw(image), 30, 50, 50, (0, 0, 0), 12, (240, 240, 230))
    ink = (np.asarray(image)[:, :, 0] < 100).sum(axis=1)  # inked pixels a row
    assert ink[28] >= 22 and ink[71] >= 22  # the flared ends: the whole width
    assert 0 < ink[40] <= 12 and 0 < ink[60] <= 12  # the shaft between the joint and the ends
    assert ink[48] > ink[40]  # the joint band across the shaft
    assert np.asarray(image)[40, 30, 0] > 200  # the light slot down the middle


def test_a_hollow_dog_bone_is_an_ink_outline_round_a_light_core() -> None:
    """The real photos' 9s: outlined bones, which a classifier that knew only solid ones read
    as 6s."""
    paper = (240, 240, 230)
    drawn = {}
    for hollow in (False, True):
        image = Image.new("RGB", (60, 100), paper)
        faces._dog_bone(ImageDraw.Draw(image), 30, 50, 50, (0, 0, 0), 15, paper, hollow)
        drawn[hollow] = np.asarray(image)[:, :, 0] < 100
    cap_row = 28  # across the top flared end
    assert drawn[False][cap_row, 20:41].all()  # solid: ink all the way across
    assert drawn[True][cap_row, 16] and drawn[True][cap_row, 44]  # hollow: ink at its edges,
    assert not drawn[True][cap_row, 20:26].any()  # light inside
    assert drawn[True].sum() < drawn[False].sum() * 0.8


def test_bamboo_draws_the_share_of_its_dog_bone_faces_hollow_it_is_asked_to(
    monkeypatch,
) -> None:  # type: ignore[no-untyped-def]
    drawn_hollow: list[bool] = []
    real_dog_bone = faces._dog_bone

    def recording(*args) -> None:  # type: ignore[no-untyped-def]
        drawn_hollow.append(args[-1])
        real_dog_bone(*args)

    monkeypatch.setattr(faces, "_dog_bone", recording)

    def hollow_faces(share: float) -> tuple[int, int]:
        """Of 100 nines, how many are drawn in dog bones, and how many in hollow ones."""
        dog_bone, hollow = 0, 0
        for seed in range(100):
            drawn_hollow.clear()
            faces.render_bamboo(9, random.Random(seed), hollow_share=share)
            dog_bone += bool(drawn_hollow)
            hollow += any(drawn_hollow)
            assert len(set(drawn_hollow)) <= 1  # one face, one style
        return dog_bone, hollow

    dog_bone, none = hollow_faces(0.0)
    assert dog_bone > 15 and none == 0
    dog_bone, hollow = hollow_faces(1.0)
    assert hollow == dog_bone > 15
    dog_bone, hollow = hollow_faces(0.5)
    assert 0 < hollow < dog_bone


def test_nine_dog_bones_stand_in_three_rows_apart() -> None:
    """Three short bones a column with light between them: not the two long ones of a 6s."""
    rows_seen = set()
    for seed in range(60):
        face = render_face(tile_from_code("9s"), random.Random(seed))
        dark = face.max(axis=2) < 150
        column = dark[:, FACE_SIZE[0] // 5 - 3 : FACE_SIZE[0] // 5 + 4].any(axis=1)
        starts = np.flatnonzero(column[1:] & ~column[:-1])  # ink after a light gap, going down
        rows_seen.add(len(starts) + int(column[0]))
    assert 3 in rows_seen


def test_an_outline_bird_holds_a_dark_bunch_of_light_dots() -> None:
    """The real photos' 1s: a read of only its dark dotted disc is an 8p."""
    for seed in range(40):
        image = Image.new("RGB", FACE_SIZE, (240, 240, 230))
        faces._draw_line_bird(ImageDraw.Draw(image), random.Random(seed))
        pixels = np.asarray(image).astype(int)
        dark = pixels.max(axis=2) < 120
        light_inside = (pixels.min(axis=2) > 200) & (
            cv2.dilate(dark.astype(np.uint8), np.ones((9, 9), np.uint8)) > 0
        )
        assert dark.sum() > 2000  # the bunch
        assert light_inside.sum() > 300  # its light dots, and the pale bird among outlines


def test_a_wheel_pip_has_light_holes_in_its_inked_middle() -> None:
    """The real photos' set paints each dot as a wheel, not as a ring round a plain disc."""
    plain, wheel = (Image.new("RGB", (60, 60), (240, 240, 230)) for _ in range(2))
    faces._circle(ImageDraw.Draw(plain), 30, 30, 24, (0, 0, 0))
    faces._circle(ImageDraw.Draw(wheel), 30, 30, 24, (0, 0, 0), wheel=True)
    middle = (slice(16, 45), slice(16, 45))
    plain_light = (np.asarray(plain)[middle][:, :, 0] > 200).sum()
    wheel_light = (np.asarray(wheel)[middle][:, :, 0] > 200).sum()
    assert np.asarray(wheel)[30, 30, 0] > 200  # a light hub
    assert np.asarray(plain)[30, 30, 0] < 100
    assert wheel_light > plain_light // 3 and (np.asarray(wheel)[middle][:, :, 0] < 100).sum() > 300


def test_packed_six_and_seven_dots_touch() -> None:
    """Packed layouts put the block's pips a diameter apart or closer: they touch."""
    for n, layout in faces.PACKED_DOTS.items():
        radius = faces.PACKED_RADIUS[n]
        block = [(x * FACE_SIZE[0], 12 + y * (FACE_SIZE[1] - 24)) for x, y in layout[-4:]]
        gaps = [math.dist(a, b) for a in block for b in block if a < b]
        assert min(gaps) <= 2 * radius + 1
        inside = all(radius <= x <= FACE_SIZE[0] - radius for x, _ in block)
        assert inside


def test_scenes_draw_the_white_dragon_more_often_and_every_tile_still():
    rng = random.Random(3)
    picks = Counter(mahjong_code(rng) for _ in range(20000))
    assert set(picks) == set(MAHJONG_CODES)
    share = picks["5z"] / 20000
    assert 0.08 < share < 0.11  # a uniform pick would give 1 in 37
    assert max(n for code, n in picks.items() if code != "5z") / 20000 < 0.04


def test_a_bamboo_block_mat_is_rows_of_orange_blocks_between_dark_gaps() -> None:
    from datasets.synth.backgrounds import bamboo_blocks

    image = bamboo_blocks(random.Random(5), np.random.default_rng(5), 256)
    hsv = cv2.cvtColor(np.clip(image, 0, 255).astype(np.uint8), cv2.COLOR_BGR2HSV)
    blocks = (hsv[..., 2] > 120) & (hsv[..., 1] > 80)  # bright, saturated: the blocks' faces
    assert 0.4 < blocks.mean() < 0.95  # gaps between them, and not all gap
    assert 5 <= np.median(hsv[..., 0][blocks]) <= 25  # orange to yellow, like a tile back


def test_a_hand_is_skin_toned_and_drawn_where_it_is_put() -> None:
    from datasets.synth.backgrounds import SKIN, hand

    canvas = np.full((400, 400, 3), (60, 110, 40), np.uint8)  # green felt
    hand(canvas, random.Random(2), (200, 230), 1.0, 0.0)
    changed = np.abs(canvas.astype(int) - (60, 110, 40)).sum(axis=2) > 30
    ys, xs = np.nonzero(changed)
    assert 0.05 < changed.mean() < 0.5
    assert abs(xs.mean() - 200) < 40 and ys.min() < 230 - 80  # fingers reach up from the palm
    # Skin: red above green above blue (BGR), like every tone in SKIN.
    blue, green, red = np.median(canvas[changed], axis=0)
    assert red > green > blue and all(t[2] > t[1] > t[0] for t in SKIN)


@pytest.mark.parametrize("style", ["dark", "light deck", "silver"])
def test_a_keyboard_returns_its_keys_where_it_drew_them(style: str) -> None:
    from datasets.synth.backgrounds import keyboard

    deck_only = np.zeros((300, 300, 3), np.uint8)
    canvas = deck_only.copy()
    keys = keyboard(canvas, random.Random(3), (10, 20, 290, 280), style)
    assert len(keys) > 20
    assert all(10 <= x1 < x2 <= 290 and 20 <= y1 < y2 <= 280 for x1, y1, x2, y2 in keys)
    x1, y1, x2, y2 = keys[len(keys) // 2]
    middle = canvas[y1 + 2 : y2 - 1, x1 + 2 : x2 - 1].reshape(-1, 3).astype(int)
    cap = np.median(middle, axis=0)  # most of a key is its cap, not its letter
    gap = canvas[y2 + 1, (x1 + x2) // 2].astype(int)  # just below it: the deck
    if style == "silver":  # pale keys, paler than the deck, dark letters
        assert cap.min() > 175 and cap.mean() > gap.mean() and middle.sum(axis=1).min() < 450
    else:  # dark keys
        assert cap.max() < 80


def test_key_crops_are_deterministic_tile_sized_crops_split_for_training(tmp_path: Path) -> None:
    from datasets.synth.build import CROP_SIZE
    from datasets.synth.key_crops import key_crops, write

    first, again = key_crops(random.Random(4), 30), key_crops(random.Random(4), 30)
    assert len(first) == 30 and all(c.shape == (CROP_SIZE, CROP_SIZE, 3) for c in first)
    assert all(np.array_equal(a, b) for a, b in zip(first, again, strict=True))
    assert not np.array_equal(first[0], key_crops(random.Random(5), 1)[0])
    assert write(tmp_path, 20, 4) == {"train": 18, "val": 2}
    assert len(list((tmp_path / "classify/val/not_a_tile").glob("*.jpg"))) == 2


def test_only_lettered_keys_are_cut_a_blank_pale_key_is_a_white_dragon_to_any_eye() -> None:
    from datasets.synth.key_crops import _lettered

    canvas = np.full((40, 40, 3), 210, np.uint8)  # a pale silver key, nothing on it
    assert not _lettered(canvas, (5, 5, 35, 35))
    cv2.putText(canvas, "A", (12, 28), cv2.FONT_HERSHEY_SIMPLEX, 0.6, (80, 80, 80), 1)
    assert _lettered(canvas, (5, 5, 35, 35))


def _camera_at(tilt_degrees: float):  # type: ignore[no-untyped-def]
    from datasets.synth.scene import _Camera

    # Looking along +y at the origin from 600 mm away; roll is random, so seed it.
    return _Camera(
        random.Random(0),
        (640, 480),
        600.0,
        (0, 0, 0),
        600.0,
        math.radians(tilt_degrees),
        math.pi / 2,
    )


def test_a_low_camera_sees_past_the_tables_far_edge_and_above_the_horizon() -> None:
    from datasets.synth.scene import table_edges

    camera = _camera_at(80)
    forward = np.array((0.0, 1.0))
    beyond, before = table_edges(camera, np.zeros(2), forward, (300, -np.inf, 2000), (640, 480))
    assert beyond.shape == (480, 640)
    assert beyond[5, 320] == 1.0  # the top of the picture: the room
    assert beyond[240, 320] == 0.0  # the tiles at the centre lie on the table
    assert beyond[470, 320] == 0.0 and not before.any()  # no near edge asked for
    rows = np.flatnonzero(beyond[:, 320] > 0.5)
    assert 5 < rows.max() < 240  # the far edge: one line across, between top and centre


def test_a_camera_looking_down_sees_only_table_and_a_near_edge_shows_the_floor() -> None:
    from datasets.synth.scene import table_edges

    forward = np.array((0.0, 1.0))
    beyond, before = table_edges(
        _camera_at(20), np.zeros(2), forward, (5000, -np.inf, 5000), (640, 480)
    )
    assert not beyond.any() and not before.any()
    beyond, before = table_edges(
        _camera_at(60), np.zeros(2), forward, (5000, -100, 5000), (640, 480)
    )
    assert not beyond.any()
    assert before[475, 320] == 1.0 and before[240, 320] == 0.0  # the floor below, in front


def test_low_views_draw_a_room_and_keep_the_tiles_on_the_table(monkeypatch, tmp_path: Path) -> None:  # type: ignore[no-untyped-def]
    from datasets.synth import scene

    monkeypatch.setattr(scene, "LOW_VIEW_SHARE", 1.0)
    drawn = []
    monkeypatch.setattr(
        scene, "room", lambda rng, w, h: drawn.append((w, h)) or np.full((h, w, 3), 255, np.uint8)
    )
    maker = SceneMaker(FaceLibrary(root=tmp_path))
    for seed in range(40):
        close = scene._Close(maker, random.Random(seed))
        close.aim_hand()
        close.hand()
        image, tiles = close.render()
        if drawn:
            break
    assert drawn, "no low hand drew the room in 40 scenes"
    assert close.view[1] > math.radians(scene.ROOM_TILT)
    white = (image >= 250).all(axis=2)
    assert white[:20].mean() > 0.5  # the room (drawn white here) fills the top of the picture
    for tile in tiles:  # and no tile box lies in it
        x1, y1, x2, y2 = (int(v) for v in tile.box())
        inside = white[max(0, y1) : y2, max(0, x1) : x2]
        assert inside.mean() < 0.5


@pytest.mark.parametrize("size", [(1280, 960), (960, 1280), (512, 512)])
def test_backgrounds_and_rooms_come_in_the_size_asked_for(size: tuple[int, int]) -> None:
    from datasets.synth.backgrounds import background, room

    width, height = size
    for seed in range(12):  # every kind of background turns up in a dozen
        assert background(random.Random(seed), width, height).shape == (height, width, 3)
        assert room(random.Random(seed), width, height).shape == (height, width, 3)


def test_a_standing_row_keeps_every_tile_and_they_touch(tmp_path: Path) -> None:
    from datasets.synth import scene

    close = scene._Close(SceneMaker(FaceLibrary(root=tmp_path)), random.Random(3))
    close.aim_hand()
    codes = ["1m", "2m", "3m", "4p", "5p", "6p", "7s", "8s", "9s", "1z", "2z", "3z", "5z"]
    close.row(codes, 0.0, 0.0, 0.0, stand=True)
    assert len(close.bodies) == len(codes)  # none dropped for overlapping its neighbour
    w = close.size[0]
    xs = sorted(body.center[0] for body in close.bodies)
    gaps = np.diff(xs) - w  # centre to centre, less one face width: the gap between faces
    assert (gaps > 0).all() and (gaps < 0.1 * w).all()


def test_our_labels_of_the_untagged_real_faces_name_each_crop_once_with_a_tile_code() -> None:
    with open(sources.CAMERASH_UNTAGGED_LABELS, encoding="utf-8") as handle:
        rows = list(csv.DictReader(handle))
    names = [row["image-name"] for row in rows]
    assert len(names) == len(set(names)) == 1050
    codes = Counter(row["code"] for row in rows)
    assert {str(tile_from_code(code)) for code in codes} == set(codes)  # canonical codes only
    suits = {code for code in codes if not code.endswith("f")}
    assert len(suits) == 34 and min(codes[code] for code in suits) >= 20


def one_untagged_face(root: Path, grey: int) -> str:
    """A camerash folder under ``root`` holding only the first untagged crop we labelled, painted
    one grey; returns its code."""
    base = root / "camerash-tiles"
    (base / "tiles-data").mkdir(parents=True)
    (base / "tiles-data" / "data.csv").write_text("image-name,label,label-name\n")
    (base / "untagged-tiles").mkdir()
    with open(sources.CAMERASH_UNTAGGED_LABELS, encoding="utf-8") as handle:
        first = next(csv.DictReader(handle))
    face = np.full((320, 240, 3), grey, np.uint8)
    cv2.imwrite(str(base / "untagged-tiles" / first["image-name"]), face)
    return first["code"]


def test_untagged_real_faces_join_the_library_under_our_labels(tmp_path: Path) -> None:
    code = one_untagged_face(tmp_path, 200)
    library = faces._camerash_faces(tmp_path)
    assert list(library) == [code]
    assert library[code][0].shape[:2] == (FACE_SIZE[1], FACE_SIZE[0])


def test_the_real_share_says_how_often_a_tile_with_real_faces_is_painted_with_one(
    tmp_path: Path,
) -> None:
    code, rng = one_untagged_face(tmp_path, 77), random.Random(3)

    def real_faces(share: float) -> int:
        library = FaceLibrary(tmp_path, FaceMix(real=share))
        real = library.real[code][0]
        return sum(np.array_equal(library.face(code, rng), real) for _ in range(200))

    assert real_faces(1.0) == 200
    assert real_faces(0.0) == 0
    assert 140 < real_faces(0.85) < 200


def test_a_real_share_outside_0_to_1_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    from datasets.synth.build import main

    with pytest.raises(SystemExit) as stopped:
        main(["--out", "unused", "--real-share", "1.5"])
    assert stopped.value.code == 2
    assert "'1.5' is not a share from 0 to 1" in capsys.readouterr().err


def _waisted_ink(length: float) -> tuple[np.ndarray, list[int]]:
    """A black waisted bone of ``length`` drawn upright at (30, 50) on a 60x100 face: where the
    ink is, and how wide the inked part of each row is."""
    paper = (240, 240, 230)
    image = Image.new("RGB", (60, 100), paper)
    faces._waisted_bone(ImageDraw.Draw(image), 30, 50, length, (0, 0, 0), 15, paper)
    ink = np.asarray(image)[:, :, 0] < 100
    width = [int(np.ptp(np.flatnonzero(row))) + 1 if row.any() else 0 for row in ink]
    return ink, width


def test_a_short_waisted_bone_is_an_outlined_8_barred_at_its_waist() -> None:
    """The real photos' 9s: three rows of short outlined bones, each pinched at a bar."""
    ink, width = _waisted_ink(length=40)
    assert width[50] < 0.75 * width[33]  # two lobes, pinched at the waist
    assert width[50] < 0.75 * width[66]
    assert ink[40, 26:35].sum() == 0  # an outline: light inside
    assert ink[50, 24:37].all()  # the bar across the waist
    assert not ink[:29].any() and not ink[72:].any()  # nothing past its ends: gaps between rows


def test_a_long_waisted_bone_has_flared_ends_a_thin_shaft_and_two_bars() -> None:
    """The real photos' 6s: two rows of long outlined bones."""
    ink, width = _waisted_ink(length=70)
    assert width[18] > width[35] + 8  # the flared end, the shaft
    bars = [y for y in range(40, 60) if ink[y, 26:35].all()]
    assert bars and max(bars) - min(bars) >= 4  # two bars, apart


def test_bamboo_draws_the_share_of_its_faces_waisted_it_is_asked_to(monkeypatch) -> None:  # type: ignore[no-untyped-def]
    drawn: list[float] = []
    real_waisted = faces._waisted_bone

    def recording(*args) -> None:  # type: ignore[no-untyped-def]
        drawn.append(args[3])  # the bone's length
        real_waisted(*args)

    monkeypatch.setattr(faces, "_waisted_bone", recording)

    def waisted_faces(share: float, n: int = 9) -> int:
        """Of 100 faces of ``n`` bamboo, how many are drawn in waisted bones."""
        count = 0
        for seed in range(100):
            drawn.clear()
            faces.render_bamboo(n, random.Random(seed), waisted_share=share)
            count += bool(drawn)
            assert len(drawn) in (0, n)  # one face, one style
        return count

    assert waisted_faces(0.0) == 0
    assert waisted_faces(1.0) == 100
    assert waisted_faces(1.0, n=1) == 0  # the one of bamboo is a bird
    assert 15 < waisted_faces(0.3) < 45


def test_no_waisted_share_draws_the_same_faces_as_before_it() -> None:
    """Builds made before the share redraw the same from their seeds."""
    for seed in range(20):
        for n in (2, 6, 9):
            before = faces.render_bamboo(n, random.Random(seed), hollow_share=0.6)
            again = faces.render_bamboo(n, random.Random(seed), 0, 0.6, waisted_share=0.0)
            assert np.array_equal(before, again)


def test_a_build_draws_its_faces_by_the_mix_its_command_line_gave(
    monkeypatch, tmp_path: Path
) -> None:  # type: ignore[no-untyped-def]
    from datasets.synth import build as build_module

    mixes = []

    class Recording(FaceLibrary):
        def __init__(self, *args, **kwargs) -> None:  # type: ignore[no-untyped-def]
            super().__init__(*args, **kwargs)
            mixes.append(self.mix)

    monkeypatch.setattr(build_module, "FaceLibrary", Recording)
    shares = ["--real-share", "0.3", "--reink-share", "0.2", "--hollow-share", "0.7"]
    shares += ["--waisted-share", "0.4"]
    out = tmp_path / "set"
    assert build_module.main(["--out", str(out), "--scenes", "1", "--no-xiangqi", *shares]) == 0
    assert mixes == [FaceMix(real=0.3, reink=0.2, hollow=0.7, waisted=0.4)]


def test_reinking_paints_the_ink_another_colour_and_keeps_the_red_and_the_paper() -> None:
    face = np.full((200, 150, 3), (215, 235, 240), np.uint8)  # ivory paper, BGR
    face[20:80, 30:60] = (60, 120, 20)  # green sticks
    face[120:180, 30:60] = (35, 30, 200)  # a red stick
    inks = set()
    for seed in range(12):
        out = faces.reinked(face, random.Random(seed))
        assert np.abs(out[120:180, 30:60].astype(int) - face[120:180, 30:60]).max() <= 1
        assert np.abs(out[100:110, 80:140].astype(int) - face[100:110, 80:140]).max() <= 1
        stick = out[50, 45].astype(int)
        assert not np.array_equal(stick, face[50, 45])
        inks.add(int(np.argmax(stick)) if stick.max() - stick.min() > 40 else -1)
    assert len(inks) >= 2  # not always one colour: black, blue or green


def test_a_library_reinks_the_share_it_is_asked_to_and_never_a_piece(tmp_path: Path) -> None:
    library = FaceLibrary(tmp_path, FaceMix(real=1.0, reink=0.5))
    library.real["9s"] = [np.full((200, 150, 3), (60, 120, 20), np.uint8)]
    library.real["1b"] = [np.full((200, 150, 3), (40, 40, 40), np.uint8)]
    rng = random.Random(4)
    kept = sum(np.array_equal(library.face("9s", rng), library.real["9s"][0]) for _ in range(200))
    assert 60 < kept < 140
    assert all(np.array_equal(library.face("1b", rng), library.real["1b"][0]) for _ in range(50))


def test_the_white_dragon_share_is_asked_for_and_every_tile_still_comes() -> None:
    rng = random.Random(4)
    picks = Counter(mahjong_code(rng, 0.5) for _ in range(20000))
    assert set(picks) == set(MAHJONG_CODES)
    assert 0.48 < picks["5z"] / 20000 < 0.54  # half outright, 1 in 37 of the rest
    assert {mahjong_code(rng, 1.0) for _ in range(200)} == {"5z"}


def test_a_scene_maker_draws_its_white_dragon_share() -> None:
    maker = SceneMaker(FaceLibrary(), white_dragon_share=1.0)
    for seed in range(6):
        _, tiles = maker.make(random.Random(seed))
        codes = {t.code for t in tiles if t.code is not None and not t.piece}
        assert codes <= {"5z"} | {t.code for t in ALL_TILES if t.is_flower}


def test_a_white_dragon_share_outside_0_to_1_is_a_usage_error(capsys) -> None:  # type: ignore[no-untyped-def]
    from datasets.synth.build import main

    with pytest.raises(SystemExit) as stopped:
        main(["--out", "unused", "--white-dragon-share", "-0.1"])
    assert stopped.value.code == 2
    assert "'-0.1' is not a share from 0 to 1" in capsys.readouterr().err


def test_a_favoured_tile_is_drawn_its_share_and_without_one_the_draws_are_as_before() -> None:
    rng = random.Random(4)
    picks = Counter(mahjong_code(rng, 0.07, (("1s", 0.3),)) for _ in range(20000))
    assert 0.30 < picks["1s"] / 20000 < 0.34  # 30% outright, 1 in 37 of the rest
    assert 0.07 < picks["5z"] / 20000 < 0.10
    # The seed's tiles of builds made before --favour: one draw, then the uniform pick.
    old, new = random.Random(9), random.Random(9)
    before = [
        "5z" if old.random() < WHITE_DRAGON_SHARE else old.choice(MAHJONG_CODES) for _ in range(500)
    ]
    assert [mahjong_code(new) for _ in range(500)] == before


def test_a_scene_maker_draws_its_favoured_tiles() -> None:
    # Most tiles, not all: a few loose tiles are drawn from every code and flower alike.
    def bird_share(maker: SceneMaker) -> float:
        codes = [
            t.code
            for seed in range(6)
            for t in maker.make(random.Random(seed))[1]
            if t.code is not None and not t.piece and t.code in MAHJONG_CODES
        ]
        return codes.count("1s") / len(codes)

    assert bird_share(SceneMaker(FaceLibrary(), favoured=(("1s", 0.9),))) > 0.7
    assert bird_share(SceneMaker(FaceLibrary())) < 0.2


@pytest.mark.parametrize(
    ("argv", "error"),
    [
        (["--favour", "1q=0.1"], "'1q=0.1' is not CODE=SHARE with a mahjong tile's code"),
        (["--favour", "1s"], "'1s' is not CODE=SHARE with a mahjong tile's code"),
        (["--favour", "1s=0.6", "--favour", "2s=0.4"], "add up to more than 1"),
    ],
)
def test_a_favour_that_cannot_be_drawn_is_a_usage_error(argv, error, capsys) -> None:  # type: ignore[no-untyped-def]
    from datasets.synth.build import main

    with pytest.raises(SystemExit) as stopped:
        main(["--out", "unused", *argv])
    assert stopped.value.code == 2
    assert error in capsys.readouterr().err


def test_a_rolled_camera_turns_the_pixels_and_every_tile_with_them(tmp_path: Path) -> None:
    from datasets.synth.build import rolled

    image, tiles = SceneMaker(FaceLibrary(root=tmp_path)).make(random.Random(21))
    h, w = image.shape[:2]
    whole, whole_tiles = rolled(image, tiles, 4)
    assert np.array_equal(whole, image) and [t.box() for t in whole_tiles] == [
        t.box() for t in tiles
    ]
    for quarters in (1, 2, 3):
        turned, turned_tiles = rolled(image, tiles, quarters)
        assert turned.shape[:2] == ((w, h) if quarters % 2 else (h, w))
        for tile, moved in zip(tiles, turned_tiles, strict=True):
            assert moved.rotated == (tile.rotated != bool(quarters % 2))  # sideways swaps
            x1, y1, x2, y2 = (int(round(v)) for v in tile.box())
            a1, b1, a2, b2 = (int(round(v)) for v in moved.box())
            # the same pixels inside: clipped boxes at the frame's edge aside, the mean agrees
            if x1 >= 0 and y1 >= 0 and x2 <= w and y2 <= h:
                assert np.array_equal(
                    np.rot90(image[y1:y2, x1:x2], -quarters), turned[b1:b2, a1:a2]
                )


def test_a_build_rolls_the_share_of_scenes_it_is_asked_to_and_none_by_default(
    tmp_path: Path,
) -> None:
    plain, rolling = tmp_path / "plain", tmp_path / "rolling"
    build(plain, scenes=6, seed=5, real_xiangqi=False)
    build(rolling, scenes=6, seed=5, real_xiangqi=False, roll_share=1.0)
    sizes = {}
    for name, folder in (("plain", plain), ("rolling", rolling)):
        sizes[name] = [
            cv2.imread(str(p)).shape[:2] for p in sorted((folder / "detect/images").rglob("*.jpg"))
        ]
    turned = [a != b for a, b in zip(sizes["plain"], sizes["rolling"], strict=True)]
    assert any(turned) and len(turned) == 6  # a quarter turn swaps width and height
    from datasets.synth.build import main

    with pytest.raises(SystemExit):
        main(["--out", str(tmp_path / "x"), "--roll-share", "2", "--scenes", "1"])


def test_no_tile_patches_stay_off_every_tile_they_would_be_a_crop_of() -> None:
    from datasets.synth.build import PATCH_OVERLAP_LIMIT, background_patches
    from vision.boxes import iou_matrix

    rng = random.Random(3)
    # A frame tiled with 100-pixel tiles in rows, gaps between: most patches land on a tile.
    tiles = np.array(
        [(x, y, x + 100, y + 130) for x in range(0, 900, 110) for y in range(0, 700, 140)],
        np.float64,
    )
    drawn = [p for _ in range(200) for p in background_patches(960, 720, tiles, rng)]
    assert len(drawn) > 300  # almost always one found within the tries
    overlap = iou_matrix(np.array(drawn), tiles).max(axis=1)
    assert overlap.max() < PATCH_OVERLAP_LIMIT and overlap.mean() > 0.05  # near, never on, a tile
    assert background_patches(960, 720, np.zeros((0, 4)), random.Random(3))  # no tiles: any patch
