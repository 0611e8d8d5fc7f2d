"""Tile faces by code: real crops, CC0 art, and faces we render in Chinese/Taiwanese styles.

Every face is an upright BGR image about 3:4 (width:height); pieces are square crops.
"""

from __future__ import annotations

import csv
import math
import os
import random
from collections import defaultdict
from dataclasses import dataclass
from functools import cache
from pathlib import Path

import cv2
import numpy as np
from PIL import Image, ImageDraw, ImageFont

from datasets.synth.regrid import ink_share, regridded_faces
from datasets.synth.sources import (
    CAMERASH_LABELS,
    CAMERASH_UNTAGGED_LABELS,
    FLUFFY_NAMES,
    shared_data,
    xiangqi_labels,
)
from scoring.tiles import ALL_TILES, Tile, tile_from_code

FACE_SIZE = (150, 200)  # width, height of a rendered face
NUMERALS = "一二三四五六七八九"
FONT_GLOBS = (
    "/usr/share/fonts/opentype/noto/NotoSerifCJK-*.ttc",
    "/usr/share/fonts/opentype/noto/NotoSansCJK-*.ttc",
)
BRUSH_FONT_GLOBS = (
    # Brush (kai) and Ming faces from Debian's fonts-arphic-*, fonts-cwtex-kai, fonts-wqy-zenhei:
    # real honour tiles are painted in calligraphy, and a classifier that has seen only Noto's
    # print 發 read one set's cursive 發 as 東 (17 of 30 photos' 發).
    "/usr/share/fonts/truetype/arphic/*.ttc",
    "/usr/share/fonts/truetype/cwtex/*.ttf",
    "/usr/share/fonts/truetype/wqy/*.ttc",
)


@cache
def cjk_fonts(brush: bool = False) -> tuple[str, ...]:
    """The CJK fonts faces are drawn with (``brush``: the calligraphic ones, possibly none);
    ``$TILESCORE_CJK_FONTS`` names a folder of font files to use instead (a machine without the
    Debian font packages: a GPU box, say), files with kai/ming/hei in their names as brush fonts."""
    override = os.environ.get("TILESCORE_CJK_FONTS")
    if override:
        files = sorted(str(p) for p in Path(override).glob("*.[ot]t[fc]"))
        return tuple(f for f in files if _is_brush(f) == brush)
    found: list[str] = []
    for pattern in BRUSH_FONT_GLOBS if brush else FONT_GLOBS:
        found += sorted(str(p) for p in Path("/").glob(pattern.lstrip("/")))
    return tuple(found)


def _is_brush(path: str) -> bool:
    return any(k in Path(path).name for k in ("kai", "ming", "hei"))


def _ivory(rng: random.Random) -> tuple[int, int, int]:
    base = rng.randint(222, 250)
    return (base - rng.randint(0, 18), base - rng.randint(0, 8), base)  # BGR, warm white


def _blank(rng: random.Random) -> Image.Image:
    b, g, r = _ivory(rng)
    return Image.new("RGB", FACE_SIZE, (r, g, b))


def _font(rng: random.Random, size: int, brush: float = 0.0) -> ImageFont.FreeTypeFont:
    """A random CJK font; with chance ``brush`` a calligraphic one, when any is installed."""
    fonts = cjk_fonts(brush=True) if rng.random() < brush else ()
    fonts = fonts or cjk_fonts()
    if not fonts:
        raise FileNotFoundError("no CJK font found: apt-get install fonts-noto-cjk")
    path = rng.choice(fonts)
    return _load_font(path, size, rng.choice((0, 1, 2)) if path.endswith(".ttc") else 0)


@cache
def _load_font(path: str, size: int, index: int) -> ImageFont.FreeTypeFont:
    try:
        return ImageFont.truetype(path, size, index=index)
    except OSError:  # a collection with fewer faces than the index
        return ImageFont.truetype(path, size, index=0)


def _brushed(
    image: Image.Image,
    xy: tuple[float, float],
    text: str,
    font: ImageFont.FreeTypeFont,
    fill: tuple[int, int, int],
    rng: random.Random,
) -> None:
    """Text painted the way tile makers paint it: strokes thicker or thinner, the glyph leaning,
    squeezed or stretched a little, so one font gives many hands."""
    mask = Image.new("L", image.size, 0)
    ImageDraw.Draw(mask).text(xy, text, font=font, fill=255, anchor="mm")
    ink = np.asarray(mask)
    weight = rng.choice((-1, 0, 0, 1, 2))
    if weight:
        kernel = np.ones((abs(weight) + 1, abs(weight) + 1), np.uint8)
        ink = cv2.dilate(ink, kernel) if weight > 0 else cv2.erode(ink, kernel)
    w, h = image.size
    turn: np.ndarray = cv2.getRotationMatrix2D(xy, rng.uniform(-8, 8), 1.0)
    turn[0, :2] *= rng.uniform(0.85, 1.12)  # squeeze or stretch across
    turn[0, 1] += rng.uniform(-0.15, 0.15)  # lean
    turn[0, 2] = xy[0] - turn[0, 0] * xy[0] - turn[0, 1] * xy[1]  # the glyph keeps its centre
    ink = cv2.warpAffine(ink, turn, (w, h), flags=cv2.INTER_LINEAR)
    image.paste(Image.new("RGB", image.size, fill), (0, 0), Image.fromarray(ink))


def _to_bgr(image: Image.Image) -> np.ndarray:
    return cv2.cvtColor(np.asarray(image), cv2.COLOR_RGB2BGR)


def _text(draw: ImageDraw.ImageDraw, xy: tuple[float, float], text: str, font, fill) -> None:  # type: ignore[no-untyped-def]
    draw.text(xy, text, font=font, fill=fill, anchor="mm")


INK = {"black": (25, 25, 30), "red": (200, 30, 35), "green": (20, 120, 60), "blue": (25, 60, 150)}


def render_characters(n: int, rng: random.Random, red: bool = False) -> np.ndarray:
    image = _blank(rng)
    w, h = FACE_SIZE
    top = INK["red"] if red else INK[rng.choice(("black", "blue", "black"))]
    _brushed(
        image, (w / 2, h * 0.3), NUMERALS[n - 1], _font(rng, rng.randint(62, 78), 0.4), top, rng
    )
    _brushed(image, (w / 2, h * 0.7), "萬", _font(rng, rng.randint(66, 82), 0.4), INK["red"], rng)
    return _to_bgr(image)


def _circle(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    r: float,
    colour: tuple[int, int, int],
    wheel: bool = False,
) -> None:
    draw.ellipse((cx - r, cy - r, cx + r, cy + r), outline=colour, width=max(2, int(r / 4)))
    if not wheel:
        draw.ellipse((cx - r / 2.4, cy - r / 2.4, cx + r / 2.4, cy + r / 2.4), fill=colour)
        return
    # A wheel (the real photos' set): a second ring inside, a hub, and light holes round it.
    inner = r * 0.62
    draw.ellipse((cx - inner, cy - inner, cx + inner, cy + inner), fill=colour)
    for k in range(6):
        angle = k * math.pi / 3
        hx, hy, hole = cx + inner * 0.6 * math.cos(angle), cy + inner * 0.6 * math.sin(angle), r / 9
        draw.ellipse((hx - hole, hy - hole, hx + hole, hy + hole), fill=(235, 235, 225))
    hub = r / 6
    draw.ellipse((cx - hub, cy - hub, cx + hub, cy + hub), fill=(235, 235, 225))


DOT_LAYOUTS = {
    1: [(0.5, 0.5)],
    2: [(0.5, 0.28), (0.5, 0.72)],
    3: [(0.25, 0.22), (0.5, 0.5), (0.75, 0.78)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.27, 0.25), (0.73, 0.25), (0.5, 0.5), (0.27, 0.75), (0.73, 0.75)],
    6: [(0.3, 0.2), (0.7, 0.2), (0.3, 0.5), (0.7, 0.5), (0.3, 0.8), (0.7, 0.8)],
    7: [(0.22, 0.15), (0.5, 0.25), (0.78, 0.35), (0.3, 0.6), (0.7, 0.6), (0.3, 0.85), (0.7, 0.85)],
    8: [(0.3, y) for y in (0.14, 0.38, 0.62, 0.86)] + [(0.7, y) for y in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.2, 0.5, 0.8)],
}
# Six dots: many Chinese sets put a pair on top and a block of four (often red) below.
SIX_DOTS_PAIR_OVER_BLOCK = [(0.3, 0.16), (0.7, 0.16)] + [
    (x, y) for y in (0.56, 0.84) for x in (0.3, 0.7)
]
# Some sets pack their 6p block and 7p pips so they touch (the real photos' set, whose 6p and
# 7p the shipped classifier read as 8p, 2p or 9p).
PACKED_DOTS = {
    6: [(0.33, 0.2), (0.67, 0.2)] + [(x, y) for y in (0.6, 0.84) for x in (0.33, 0.67)],
    7: [(0.24, 0.12), (0.5, 0.22), (0.76, 0.32)]
    + [(x, y) for y in (0.62, 0.86) for x in (0.35, 0.65)],
}
PACKED_RADIUS = {6: 23, 7: 22}
BAMBOO_LAYOUTS = {
    2: [(0.5, 0.3), (0.5, 0.7)],
    3: [(0.5, 0.3), (0.3, 0.7), (0.7, 0.7)],
    4: [(0.3, 0.3), (0.7, 0.3), (0.3, 0.7), (0.7, 0.7)],
    5: [(0.25, 0.3), (0.75, 0.3), (0.5, 0.5), (0.25, 0.7), (0.75, 0.7)],
    6: [(x, y) for y in (0.3, 0.7) for x in (0.2, 0.5, 0.8)],
    7: [(0.5, 0.17)] + [(x, y) for y in (0.5, 0.8) for x in (0.2, 0.5, 0.8)],
    8: [(x, y) for y in (0.3, 0.7) for x in (0.14, 0.38, 0.62, 0.86)],
    9: [(x, y) for y in (0.2, 0.5, 0.8) for x in (0.2, 0.5, 0.8)],
}


# Which pips a set paints red beside its main ink. Sets differ: the centre of 1, 5 and 7 dots
# (most), none at all, or the middle row of 9 dots; the real photos' set has black ringed dots
# with a red centre five, which a classifier that knew only blue-and-green dots read as 9p.
DOT_INKS = (("blue", "green"), ("black", "black"), ("blue", "blue"), ("green", "blue"))
DOT_INK_WEIGHTS = (4, 3, 2, 1)


def _red_dots(n: int, rng: random.Random) -> set[int]:
    middle = {len(DOT_LAYOUTS[n]) // 2} if n in (1, 5, 7) else set()
    style = rng.choices(("centre", "none", "rows"), (6, 2, 2))[0]
    if style == "none":
        return set()
    if style == "rows" and n == 9:
        return {3, 4, 5}
    if style == "rows" and n == 7:
        return {0, 1, 2}  # the slanting three
    return middle


def render_dots(n: int, rng: random.Random, red: bool = False) -> np.ndarray:
    image = _blank(rng)
    draw = ImageDraw.Draw(image)
    w, h = FACE_SIZE
    radius = {1: 48, 2: 30, 3: 24, 4: 26, 5: 22, 6: 20, 7: 16, 8: 15, 9: 18}[n]
    inks = DOT_INKS[rng.choices(range(len(DOT_INKS)), DOT_INK_WEIGHTS)[0]]
    red_pips = _red_dots(n, rng)
    layout = DOT_LAYOUTS[n]
    if n == 6 and rng.random() < 0.5:
        layout = SIX_DOTS_PAIR_OVER_BLOCK
        red_pips = {2, 3, 4, 5} if rng.random() < 0.6 else set()
    if n in PACKED_DOTS and rng.random() < 0.3:
        layout, radius = PACKED_DOTS[n], PACKED_RADIUS[n]
        red_pips = {2, 3, 4, 5} if n == 6 else {3, 4, 5, 6}
        red_pips = red_pips if rng.random() < 0.7 else set()
    wheel = rng.random() < 0.35
    for i, (x, y) in enumerate(layout):
        colour = INK["red"] if red or i in red_pips else INK[inks[i % 2]]
        _circle(draw, x * w, 12 + y * (h - 24), radius, colour, wheel)
    return _to_bgr(image)


# The real photos' 9s is drawn in outline bones, ink round a light core, and the classifier read
# it as 6s at any ink or crop: a build asked to (--hollow-share) draws that share of its rendered
# dog bones so. Session 14's builds (synth17 and synth18) used this share, older builds none; it
# did not move those 9s (docs/training.md, session 14).
HOLLOW_SHARE = 0.6
DEFAULT_HOLLOW_SHARE = 0.0
# The share of rendered bamboo faces (2-9) in outlined bones barred at the waist; off by default
# so builds made before redraw the same from their seeds. Session 15's builds asked for 0.6.
WAISTED_SHARE = 0.6
DEFAULT_WAISTED_SHARE = 0.0
OUTLINE_WIDTH = 3  # a hollow bone's ink, in pixels of the 160-pixel face


def render_bamboo(
    n: int,
    rng: random.Random,
    red: bool = False,
    hollow_share: float = DEFAULT_HOLLOW_SHARE,
    waisted_share: float = DEFAULT_WAISTED_SHARE,
) -> np.ndarray:
    """A bamboo face; ``hollow_share`` of its dog bones are drawn in outline, and
    ``waisted_share`` of the faces (2 to 9) in outlined bones barred at the waist."""
    image = _blank(rng)
    paper: tuple[int, int, int] = image.getpixel((0, 0))  # type: ignore[assignment]
    draw = ImageDraw.Draw(image)
    w, h = FACE_SIZE
    if n == 1:
        style = rng.random()
        if style < 0.3:
            _draw_bird(draw, rng)
        elif style < 0.65:
            _draw_line_bird(draw, rng)
        else:
            text = rng.choice(("鳥", "雀", "孔"))
            _brushed(image, (w / 2, h / 2), text, _font(rng, 90, 0.5), INK["green"], rng)
        return _to_bgr(image)
    # Sticks are green rods in some sets, blue or black jointed "bones" in others (the real
    # photos' set); a classifier that knew only green rods read its 9s and 7s as 6s.
    ink = INK[rng.choices(("green", "blue", "black"), (5, 3, 2))[0]]
    stick = rng.choices(("rod", "beads", "dog_bone"), (4, 3, 3))[0]
    if waisted_share and rng.random() < waisted_share:  # no draw at no share, as for hollow
        stick = "waisted"
    stick_h = float({2: 62, 3: 62, 4: 62, 5: 62, 6: 62, 7: 46, 8: 62, 9: 46}[n])
    if stick == "dog_bone" and n == 9:
        # The real photos' 9s packs its three rows of short bones close: a column of three
        # jointed bones is a column of two long ones of a 6s but for the flared ends between
        # them and the red middle column (the shipped classifier read 7 of their 9s as 6s or 8p).
        stick_h = rng.uniform(40, 47)
    # Bones are thin in some sets and fat in others (the real photos' set: a fifth of the face
    # wide, so its 9s fill the face and were read as 6s).
    half_width = rng.choice((7, 7, 10, 12)) if n != 8 else 7
    if stick == "dog_bone" and n != 8:
        half_width = rng.choice((10, 12, 13))
    if stick == "waisted":
        # The real photos' set: a 9s of three short outlined bones a column, each an 8 twice as
        # tall as it is wide, small gaps between them; a 6s of two long ones.
        half_width = rng.choice((9, 10, 11, 12)) if n != 8 else 7
        if n in (7, 9):
            stick_h = rng.uniform(42, 48)
    # At no share no draw is made, so builds from before outlines redraw the same from a seed.
    hollow = stick == "dog_bone" and bool(hollow_share) and rng.random() < hollow_share
    if hollow:
        half_width = rng.choice((13, 15, 17))  # outlined bones are fat: a fifth of the face
    red_sticks = _red_sticks(n, rng)
    for i, (x, y) in enumerate(BAMBOO_LAYOUTS[n]):
        colour = INK["red"] if red or i in red_sticks else ink
        cx, cy = x * w, 12 + y * (h - 24)
        if stick == "beads":
            _bone(draw, cx, cy, stick_h, colour, half_width)
        elif stick == "dog_bone":
            _dog_bone(draw, cx, cy, stick_h, colour, half_width, _ivory(rng), hollow)
        elif stick == "waisted":
            _waisted_bone(draw, cx, cy, stick_h, colour, half_width, paper)
        else:
            draw.rounded_rectangle(
                (cx - 7, cy - stick_h / 2, cx + 7, cy + stick_h / 2), 5, fill=colour
            )
            draw.line((cx - 7, cy, cx + 7, cy), fill=(255, 255, 240), width=2)
    return _to_bgr(image)


def _red_sticks(n: int, rng: random.Random) -> set[int]:
    """Which sticks are red: sets paint the centre of 5, the top of 7 and the middle column of
    9 (the real photos' set), or the old renderer's first-and-centre, or none."""
    style = rng.choices(("middle", "first_centre", "none"), (5, 3, 2))[0]
    if style == "none":
        return set()
    if style == "first_centre":
        return {0, 4} if n in (5, 7, 9) else set()
    return {5: {2}, 7: {0}, 9: {1, 4, 7}}.get(n, set())


def _bone(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    length: float,
    colour: tuple[int, int, int],
    half_width: float = 7,
) -> None:
    """A jointed stick: beads pinched at the joints, like an 8 drawn long."""
    beads = 3 if length > 50 else 2
    bead = length / beads
    for k in range(beads):
        top = cy - length / 2 + k * bead
        draw.ellipse((cx - half_width, top, cx + half_width, top + bead + 1), fill=colour)
    line = 1 if half_width < 9 else 3  # a fat bone shows its light core
    draw.line((cx, cy - length / 2 + 3, cx, cy + length / 2 - 3), fill=(255, 255, 240), width=line)


def _dog_bone(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    length: float,
    colour: tuple[int, int, int],
    half_width: float,
    face: tuple[int, int, int],
    hollow: bool = False,
) -> None:
    """A bone with flared ends and a joint band across its thin shaft, a light slot down its
    middle (the real photos' set): where a bead stick is an 8, this is an I with serifs.
    A ``hollow`` bone is the same shape drawn as an ink outline round a light core."""
    end = max(length * (0.22 if hollow else 0.16), 5.0)
    shaft = half_width * (0.65 if hollow else 0.55)
    top, bottom = cy - length / 2, cy + length / 2
    draw.rectangle((cx - shaft, top + end / 2, cx + shaft, bottom - end / 2), fill=colour)
    for y in (top, bottom - end):  # the flared ends
        draw.rounded_rectangle((cx - half_width, y, cx + half_width, y + end), 3, fill=colour)
    if hollow:
        line = OUTLINE_WIDTH
        core = (cx - shaft + line, top + end / 2 + line, cx + shaft - line, bottom - end / 2 - line)
        draw.rectangle(core, fill=face)
        for y in (top + line, bottom - end + line):
            draw.rounded_rectangle(
                (cx - half_width + line, y, cx + half_width - line, y + end - 2 * line),
                2,
                fill=face,
            )
    joints = 2 if length > 58 else 1
    for k in range(1, joints + 1):  # a joint band: two thin bars across the shaft
        y = top + length * k / (joints + 1)
        for dy in (-2.5, 2.5):
            draw.line((cx - half_width * 0.85, y + dy, cx + half_width * 0.85, y + dy),
                      fill=colour, width=2)  # fmt: skip
    draw.line((cx, top + end, cx, bottom - end), fill=face, width=max(1, int(shaft / 2)))


def _waisted_bone(
    draw: ImageDraw.ImageDraw,
    cx: float,
    cy: float,
    length: float,
    colour: tuple[int, int, int],
    half_width: float,
    face: tuple[int, int, int],
) -> None:
    """A bone drawn in outline with a bar across its waist (the real photos' set). A short one
    is an 8, two round lobes pinched at the bar; a long one has flared ends and a long thin
    shaft with two bars at its middle. So a column of three short ones (9s) shows three bones
    with gaps between them, where a column of two long ones (6s) shows two."""
    line = max(2.0, half_width / 3)
    short = length < 52

    def width_at(t: float) -> float:  # half the bone's width, t from 0 (top) to 1 (bottom)
        if short:  # an 8: two round lobes, the waist between them no thinner than half
            lobe = math.sqrt(max(0.0, 1 - (4 * (t % 0.5) - 1) ** 2))
            return half_width * max(lobe, 0.5 if 0.3 < t < 0.7 else 0.0)
        end = 0.14
        if t < end or t > 1 - end:
            return half_width
        return half_width * 0.55

    steps = 48
    ts = [k / steps for k in range(steps + 1)]
    top = cy - length / 2

    def outline(inset: float) -> list[tuple[float, float]]:
        right = [
            (cx + max(width_at(t) - inset, 0.5), top + inset + t * (length - 2 * inset)) for t in ts
        ]
        left = [(2 * cx - x, y) for x, y in reversed(right)]  # the mirror image
        return right + left

    draw.polygon(outline(0.0), fill=colour)
    draw.polygon(outline(line), fill=face)
    bars = (0.5,) if short else (0.45, 0.55)
    for t in bars:
        y = top + t * length
        w = width_at(t)
        draw.line((cx - w, y, cx + w, y), fill=colour, width=int(line))


def _draw_line_bird(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """A 1s drawn in outline (the real photos' set): a pale bird with hatched, spread wings and
    a dark round bunch of light ringed dots, above or below it. Read as a filled dark disc of
    dots, it is an 8p to a classifier that knew only filled birds (5 of the real photos' 1s)."""
    w, h = FACE_SIZE
    line = INK[rng.choice(("black", "blue", "green"))]
    bunch_top = rng.random() < 0.5
    bunch_y = h * (rng.uniform(0.25, 0.33) if bunch_top else rng.uniform(0.66, 0.74))
    bird_y = h * (rng.uniform(0.62, 0.7) if bunch_top else rng.uniform(0.28, 0.36))
    cx = w * rng.uniform(0.4, 0.6)
    bunch = rng.choice(((100, 40, 45), (70, 45, 40), (30, 30, 30), (80, 50, 70)))  # maroon, brown..
    radius = rng.uniform(34, 46)
    bx = cx + rng.uniform(-10, 10)
    draw.ellipse((bx - radius, bunch_y - radius, bx + radius, bunch_y + radius), fill=bunch)
    spot = rng.uniform(4.5, 6.0)
    step = 2 * spot + 3
    for row in range(-3, 4):
        for col in range(-3, 4):
            x = bx + col * step + (step / 2 if row % 2 else 0)
            y = bunch_y + row * step * 0.87
            if (x - bx) ** 2 + (y - bunch_y) ** 2 > (radius - spot - 2) ** 2:
                continue
            draw.ellipse((x - spot, y - spot, x + spot, y + spot), fill=(235, 230, 215))
            draw.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=bunch)
    # the bird: an outlined body, two hatched wings spread up, a head, a beak, legs
    body = (cx - 26, bird_y - 14, cx + 22, bird_y + 16)
    for side in (-1, 1):
        tip = (cx + side * rng.uniform(48, 62), bird_y - rng.uniform(30, 44))
        root = [(cx - 10, bird_y - 6), (cx + 10, bird_y - 6)]
        draw.polygon([root[0], tip, root[1]], outline=line, width=3)
        for k in range(1, 5):
            t = k / 5
            x0 = root[0][0] + (tip[0] - root[0][0]) * t
            y0 = root[0][1] + (tip[1] - root[0][1]) * t
            x1 = root[1][0] + (tip[0] - root[1][0]) * t
            y1 = root[1][1] + (tip[1] - root[1][1]) * t
            draw.line((x0, y0, x1, y1), fill=line, width=2)
    draw.ellipse(body, outline=line, width=3)
    for k in range(3):
        draw.line((cx - 14 + 9 * k, bird_y - 6, cx - 8 + 9 * k, bird_y + 10), fill=line, width=2)
    hx, hy = cx + 26, bird_y - 18
    draw.ellipse((hx - 9, hy - 9, hx + 9, hy + 9), outline=line, width=3)
    draw.polygon([(hx + 8, hy - 2), (hx + 20, hy + 2), (hx + 8, hy + 4)], fill=INK["red"])
    for leg in (-7, 7):
        draw.line((cx + leg, bird_y + 16, cx + leg, bird_y + 32), fill=INK["red"], width=3)


def _draw_bird(draw: ImageDraw.ImageDraw, rng: random.Random) -> None:
    """A 1s bird: body, head, beak, legs, and a tail or fan of eye spots (a peacock)."""
    w, h = FACE_SIZE
    body, tail = INK[rng.choice(("green", "blue"))], INK[rng.choice(("green", "blue", "black"))]
    cx, cy = w * rng.uniform(0.42, 0.58), h * rng.uniform(0.58, 0.68)
    style = rng.choices(("spots", "cluster", "fan"), (3, 4, 3))[0]
    if style == "cluster":
        # A round bunch of ringed dots the bird holds up (the real photos' set): a classifier
        # that knew only scattered spots read it as 8p.
        _dot_cluster(draw, cx + rng.uniform(-8, 8), h * rng.uniform(0.27, 0.34), rng, tail)
    elif style == "spots":  # a fan of small ringed spots above the bird
        for _ in range(rng.randint(9, 16)):
            sx, sy = cx + rng.uniform(-42, 42), h * rng.uniform(0.12, 0.45)
            r = rng.uniform(5, 9)
            draw.ellipse((sx - r, sy - r, sx + r, sy + r), outline=tail, width=2)
            draw.ellipse((sx - 2, sy - 2, sx + 2, sy + 2), fill=INK["red"])
    else:
        for angle in np.linspace(-0.9, 0.9, rng.randint(4, 7)):
            draw.line(
                (cx, cy, cx + 60 * np.sin(angle), cy - 70 * np.cos(angle)), fill=tail, width=5
            )
    draw.ellipse((cx - 30, cy - 18, cx + 24, cy + 22), fill=body)
    if rng.random() < 0.5:  # a hatched wing
        for k in range(rng.randint(3, 6)):
            x = cx - 20 + 8 * k
            draw.line((x, cy - 12, x + 10, cy + 16), fill=(245, 245, 235), width=2)
    hx, hy = cx + 28, cy - 28
    draw.ellipse((hx - 11, hy - 11, hx + 11, hy + 11), fill=body)
    draw.polygon([(hx + 9, hy - 3), (hx + 24, hy + 2), (hx + 9, hy + 5)], fill=INK["red"])
    for leg in (-8, 8):
        draw.line((cx + leg, cy + 20, cx + leg, cy + 42), fill=INK["red"], width=3)


def _dot_cluster(draw: ImageDraw.ImageDraw, cx: float, cy: float, rng: random.Random, ink) -> None:  # type: ignore[no-untyped-def]
    """Small ringed dots packed in a disc, row by row (a hexagonal packing)."""
    radius, spot = rng.uniform(40, 54), rng.uniform(4.5, 6.5)
    step = 2 * spot + 1
    for row in range(-int(radius // step) - 1, int(radius // step) + 2):
        y = cy + row * step * 0.87
        offset = step / 2 if row % 2 else 0.0
        for col in range(-int(radius // step) - 1, int(radius // step) + 2):
            x = cx + col * step + offset
            if (x - cx) ** 2 + (y - cy) ** 2 > radius**2:
                continue
            draw.ellipse((x - spot, y - spot, x + spot, y + spot), outline=ink, width=2)
            draw.ellipse((x - 1.5, y - 1.5, x + 1.5, y + 1.5), fill=ink)


HONOR_TEXT = {1: "東", 2: "南", 3: "西", 4: "北", 6: "發", 7: "中"}


def render_honor(n: int, rng: random.Random) -> np.ndarray:
    image = _blank(rng)
    draw = ImageDraw.Draw(image)
    w, h = FACE_SIZE
    if n == 5:
        # Half are blank: a blank 白 looks like nothing but ivory, and a classifier that saw few
        # took real blank 白 for backs (21 of them in the real photos).
        if rng.random() < 0.5:  # the framed white dragon of Chinese sets; else a blank face
            colour = INK[rng.choice(("blue", "black", "green"))]
            inset = rng.randint(18, 30)
            draw.rectangle(
                (inset, inset, w - inset, h - inset), outline=colour, width=rng.randint(5, 9)
            )
        return _to_bgr(image)
    # 發 is green in most sets, black or blue in some (the real photos' set paints it black).
    green_or_not = rng.choices(("green", "black", "blue"), (6, 3, 1))[0]
    colour = {6: INK[green_or_not], 7: INK["red"]}.get(n, INK[rng.choice(("black", "blue"))])
    font = _font(rng, rng.randint(96, 124), brush=0.6)
    _brushed(image, (w / 2, h / 2), HONOR_TEXT[n], font, colour, rng)
    return _to_bgr(image)


FLOWER_TEXT = "春夏秋冬梅蘭菊竹"


def render_flower(n: int, rng: random.Random) -> np.ndarray:
    image = _blank(rng)
    draw = ImageDraw.Draw(image)
    w, h = FACE_SIZE
    colour = INK[rng.choice(("red", "blue", "green", "black"))]
    _text(draw, (w / 2, h * 0.55), FLOWER_TEXT[n - 1], _font(rng, rng.randint(70, 100)), colour)
    number = str((n - 1) % 4 + 1)
    corner = rng.choice(((22, 26), (w - 22, 26)))
    _text(draw, corner, number, _font(rng, 34), INK["red" if n <= 4 else "blue"])
    if rng.random() < 0.5:  # a leaf or petal flourish so flowers are not text alone
        cx, cy = rng.randint(30, w - 30), rng.randint(h - 55, h - 25)
        draw.ellipse((cx - 14, cy - 8, cx + 14, cy + 8), fill=INK["green"])
    return _to_bgr(image)


def render_face(
    tile: Tile,
    rng: random.Random,
    hollow_share: float = DEFAULT_HOLLOW_SHARE,
    waisted_share: float = DEFAULT_WAISTED_SHARE,
) -> np.ndarray:
    """A new face for ``tile``; ``hollow_share`` and ``waisted_share`` are ``render_bamboo``'s."""
    if tile.is_suited:
        red = tile.is_red_five
        if tile.suit.value == "s":
            return render_bamboo(tile.rank, rng, red, hollow_share, waisted_share)
        maker = {"m": render_characters, "p": render_dots}[tile.suit.value]
        return maker(tile.rank, rng, red)
    if tile.is_honor:
        return render_honor(tile.number, rng)
    if tile.is_flower:
        return render_flower(tile.number, rng)
    return render_piece(tile, rng)


def render_piece(tile: Tile, rng: random.Random) -> np.ndarray:
    size = 160
    b, g, r = _ivory(rng)
    image = Image.new("RGB", (size, size), (60, 120, 160))
    draw = ImageDraw.Draw(image)
    draw.ellipse((4, 4, size - 4, size - 4), fill=(r - 20, g - 30, b - 50))
    colour = INK["red"] if tile.suit.value == "r" else INK["black"]
    draw.ellipse((18, 18, size - 18, size - 18), outline=colour, width=4)
    _text(draw, (size / 2, size / 2), tile.name, _font(rng, rng.randint(70, 90)), colour)
    return _to_bgr(image)


def _fluffy_faces(root: Path) -> dict[str, list[np.ndarray]]:
    faces: dict[str, list[np.ndarray]] = defaultdict(list)
    for style in ("Regular", "Black"):
        folder = root / "fluffystuff-riichi-tiles" / "Export" / style
        front = cv2.imread(str(folder / "Front.png"), cv2.IMREAD_UNCHANGED)
        if front is None:
            continue
        for name, code in FLUFFY_NAMES.items():
            art = cv2.imread(str(folder / f"{name}.png"), cv2.IMREAD_UNCHANGED)
            if art is None:
                continue
            faces[code].append(_over(front, art))
    return faces


def _over(base: np.ndarray, art: np.ndarray) -> np.ndarray:
    """Art with alpha over a face with alpha, flattened onto ivory; trimmed to the face."""
    canvas: np.ndarray = np.full(base.shape[:2] + (3,), 240, np.uint8)
    for layer in (base, cv2.resize(art, (base.shape[1], base.shape[0]))):
        alpha = layer[:, :, 3:4].astype(np.float32) / 255 if layer.shape[2] == 4 else 1.0
        canvas = (canvas * (1 - alpha) + layer[:, :, :3] * alpha).astype(np.uint8)
    ys, xs = np.nonzero(base[:, :, 3] > 10) if base.shape[2] == 4 else (None, None)
    if ys is not None and xs is not None and len(ys):
        canvas = canvas[ys.min() : ys.max() + 1, xs.min() : xs.max() + 1]
    return cv2.resize(canvas, FACE_SIZE, interpolation=cv2.INTER_AREA)


def _camerash_faces(root: Path) -> dict[str, list[np.ndarray]]:
    faces: dict[str, list[np.ndarray]] = defaultdict(list)
    base = root / "camerash-tiles"
    labels_csv = base / "tiles-data" / "data.csv"
    if not labels_csv.exists():
        return faces
    seen: set[str] = set()
    with open(labels_csv, encoding="utf-8-sig") as handle:
        for row in csv.DictReader(handle):
            name = row["image-name"]
            if name in seen:  # 582.jpg is listed twice
                continue
            seen.add(name)
            code = CAMERASH_LABELS.get(row["label-name"])
            image = cv2.imread(str(base / "tiles-resized" / name))
            if code and image is not None:
                faces[code].append(cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA))
    # The set's unlabelled crops, labelled by us (CAMERASH_UNTAGGED_LABELS): 1,050 more real
    # faces from more tile sets than the 628 labelled ones, twice the real faces per tile.
    with open(CAMERASH_UNTAGGED_LABELS, encoding="utf-8") as handle:
        for row in csv.DictReader(handle):
            image = cv2.imread(str(base / "untagged-tiles" / row["image-name"]))
            if image is not None:
                faces[row["code"]].append(
                    cv2.resize(image, FACE_SIZE, interpolation=cv2.INTER_AREA)
                )
    return faces


def _xiangqi_crops(root: Path, limit_per_class: int = 60) -> dict[str, list[np.ndarray]]:
    """Square crops of real pieces from the labelled xiangqi photos: the train split, less its
    turned copies of test photos (datasets/xiangqi_real.py), so the test split stays unseen."""
    from datasets.xiangqi_real import training_photos

    faces: dict[str, list[np.ndarray]] = defaultdict(list)
    for photo in training_photos(root / "xiangqi-pieces"):
        if photo.split != "train":
            continue
        if all(len(v) >= limit_per_class for v in faces.values()) and len(faces) == 14:
            break
        image = cv2.imread(str(photo.image))
        if image is None:
            continue
        h, w = image.shape[:2]
        for piece in xiangqi_labels(photo.labels.read_text()):
            if len(faces[piece.code]) >= limit_per_class:
                continue
            x1, y1, x2, y2 = (int(v) for v in piece.corners(w, h))
            crop = image[max(y1, 0) : y2, max(x1, 0) : x2]
            if crop.size and min(crop.shape[:2]) >= 16:
                faces[piece.code].append(cv2.resize(crop, (160, 160)))
    return faces


# Sets paint one pattern in different inks (a nine of bamboo all green in one set, navy with a
# red middle in another), and the real crops show each pattern in few of them. A build asked to
# (--reink-share) changes the ink of that share of its real faces, all but the red, to another
# set's, so what a tile is is learnt from its pattern, not its ink. Session 13's builds (synth13
# and synth14, in the shipped classifier) used this share.
REINK_SHARE = 0.3
# Builds reink nothing unless asked, so those made before reinking redraw the same from a seed.
DEFAULT_REINK_SHARE = 0.0
REINKS = ("black", "blue", "green")
RED_HUES = 12  # OpenCV hues (0-180) this near red are red ink, kept as it is


def reinked(face: np.ndarray, rng: random.Random) -> np.ndarray:
    """A BGR face with its ink, all but the red, painted in another ink colour."""
    hsv = cv2.cvtColor(face, cv2.COLOR_BGR2HSV).astype(np.float32)
    hue, saturation = hsv[..., 0], hsv[..., 1]
    ink = ink_share(face)
    red = ((hue < RED_HUES) | (hue > 180 - RED_HUES)) & (saturation > 90)
    ink[red] = 0.0
    colour = np.array(INK[rng.choice(REINKS)][::-1], np.float32) * rng.uniform(0.7, 1.3)
    alpha = ink[..., None]
    out = face.astype(np.float32) * (1.0 - alpha) + np.clip(colour, 0, 255) * alpha
    reinked_face: np.ndarray = out.astype(np.uint8)
    return reinked_face


# Builds re-lay no real face unless asked, so those made before redraw the same from a seed.
DEFAULT_REGRID_SHARE = 0.0
REGRID_SEED = 31  # the re-laid faces are drawn once per library, the same for every build


# The share of faces cut from real crops and art where a tile has any; the rest are rendered, so
# every tile also comes in styles no crop shows.
DEFAULT_REAL_SHARE = 0.6


@dataclass(frozen=True)
class FaceMix:
    """How a build draws its faces, each a share from 0 to 1: ``real`` of the faces of a tile
    with real crops or art are cut from them (the rest rendered), ``reink`` of those real
    mahjong faces are ``reinked``, ``hollow`` of the rendered dog bones are outlines, and
    ``waisted`` of the rendered bamboo faces are outlined bones barred at the waist, and
    ``regrid`` of the real faces of a grid tile (4s, 6s, 9s) are another grid tile's real face
    with its pips re-laid (``datasets.synth.regrid``)."""

    real: float = DEFAULT_REAL_SHARE
    reink: float = DEFAULT_REINK_SHARE
    hollow: float = DEFAULT_HOLLOW_SHARE
    waisted: float = DEFAULT_WAISTED_SHARE
    regrid: float = DEFAULT_REGRID_SHARE


DEFAULT_MIX = FaceMix()


class FaceLibrary:
    """Faces per tile code; ``face(code, rng)`` picks a real one or renders a new one."""

    def __init__(
        self, root: Path | None = None, mix: FaceMix = DEFAULT_MIX, shareable_only: bool = False
    ) -> None:
        """``shareable_only`` keeps to the CC0 art and our own renders, for committed photos."""
        root = root or shared_data()
        self.real: dict[str, list[np.ndarray]] = defaultdict(list)
        sources = [_fluffy_faces(root)]
        if not shareable_only:
            sources += [_camerash_faces(root), _xiangqi_crops(root)]
        for source in sources:
            for code, images in source.items():
                self.real[code] += images
        self.mix = mix
        self.regridded = (
            regridded_faces(self.real, random.Random(REGRID_SEED)) if mix.regrid else {}
        )

    def face(self, code: str, rng: random.Random) -> np.ndarray:
        tile = tile_from_code(code)
        real = self.real.get(code)
        if real and rng.random() < self.mix.real:
            regridded = self.regridded.get(code)
            if regridded and rng.random() < self.mix.regrid:
                real = regridded
            face = real[rng.randrange(len(real))]
            # A piece's ink is what it is (black or red side), so pieces keep theirs.
            if self.mix.reink and not tile.is_piece and rng.random() < self.mix.reink:
                return reinked(face, rng)
            return face
        return render_face(tile, rng, self.mix.hollow, self.mix.waisted)

    def codes(self) -> list[str]:
        return [t.code for t in ALL_TILES]
