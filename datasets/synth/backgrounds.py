"""Table surfaces drawn from noise: felt, wood, plain tables, cloth."""

from __future__ import annotations

import random

import cv2
import numpy as np

FELT = [(60, 110, 40), (40, 90, 30), (120, 70, 30), (90, 50, 20), (50, 50, 140)]
WOOD = [(40, 80, 150), (60, 110, 180), (30, 60, 110), (80, 130, 190)]
PLAIN = [(235, 235, 235), (200, 200, 200), (150, 150, 150), (90, 90, 90), (215, 225, 230)]
CLOTH = [(160, 140, 130), (120, 110, 150), (200, 170, 150), (80, 80, 80)]


def _noise(rng: np.random.Generator, width: int, height: int, scale: float) -> np.ndarray:
    small = rng.normal(0, 1, (max(2, int(height / scale)), max(2, int(width / scale)))).astype(
        np.float32
    )
    return cv2.resize(small, (width, height), interpolation=cv2.INTER_CUBIC)


def background(rng: random.Random, width: int, height: int) -> np.ndarray:
    kind = rng.choice(("felt", "wood", "plain", "cloth"))
    gen = np.random.default_rng(rng.randrange(2**31))
    base = np.array(
        rng.choice({"felt": FELT, "wood": WOOD, "plain": PLAIN, "cloth": CLOTH}[kind]), np.float32
    )
    base = base * rng.uniform(0.8, 1.2)
    if kind == "felt":
        texture = _noise(gen, width, height, 2) * 6 + _noise(gen, width, height, 40) * 8
    elif kind == "wood":
        ys: np.ndarray = np.linspace(0, rng.uniform(20, 60), height)[:, None]
        grain = (
            np.sin(ys + _noise(gen, width, height, 80) * 3) * 18 + _noise(gen, width, height, 3) * 5
        )
        texture = grain
        if rng.random() < 0.5:
            # Grain the other way; a square texture turns as it is (its pixels kept as they were).
            texture = texture.T if width == height else cv2.resize(texture.T, (width, height))
    elif kind == "plain":
        texture = _noise(gen, width, height, 60) * 5 + _noise(gen, width, height, 2) * 2
    else:
        xs = np.arange(width)[None, :]
        ys = np.arange(height)[:, None]
        period = rng.uniform(6, 20)
        texture = (np.sin(xs / period) * np.sin(ys / period)) * 10 + _noise(
            gen, width, height, 50
        ) * 15
    image = base[None, None, :] + texture[:, :, None]
    result: np.ndarray = np.clip(image, 0, 255).astype(np.uint8)
    return result


# -- table surfaces for the close-up scenes: a square texture in table units, warped by the camera --
WAVY = [(190, 175, 160), (175, 170, 165), (160, 175, 150), (200, 190, 185), (150, 140, 135)]
DESK = [(40, 85, 170), (30, 70, 150), (50, 100, 185), (60, 110, 160), (35, 55, 110)]
GRANITE = [(150, 150, 150), (120, 125, 130), (175, 170, 165)]
MAT = [(60, 140, 200), (70, 150, 205), (55, 120, 175)]
STONE = [(225, 228, 230), (205, 210, 215), (185, 190, 200)]
BLOCKS = [(40, 125, 205), (70, 160, 225), (35, 95, 160), (110, 185, 225)]  # BGR: orange to pale
SKIN = [(150, 180, 230), (130, 160, 215), (105, 135, 190), (80, 105, 160), (55, 75, 115)]


def table_surface(rng: random.Random, size: int = 1024) -> np.ndarray:
    """A square texture of the table top, about 0.8 mm a pixel: patterned bed sheets and cloths,
    wood desks, granite counters, bamboo mats, plain felt."""
    kind = rng.choices(
        ("wavy", "desk", "granite", "mat", "stone", "old", "keyboard", "blocks", "palm"),
        (5, 4, 1.5, 1, 1, 1.5, 2.5, 1.2, 0.8),
    )[0]
    if kind == "old":
        return background(rng, size, size)
    if kind == "palm":  # tiles held out on an open hand, fingers beyond them
        image = np.ascontiguousarray(table_surface(rng, size))
        hand(image, rng, (size / 2 + rng.uniform(-60, 60), size / 2 + rng.uniform(0, 120)),
             rng.uniform(1.3, 1.9), rng.uniform(-0.4, 0.4))  # fmt: skip
        return image
    if kind == "keyboard":  # tiles dropped on a laptop: its keys are tile-sized, dark, lettered
        # The desk around it; drawing needs a contiguous array, and some surfaces are views.
        image = np.ascontiguousarray(table_surface(rng, size))
        x1 = rng.randrange(0, size // 3)
        y1 = rng.randrange(0, size // 3)
        keyboard(
            image,
            rng,
            (x1, y1, rng.randrange(size * 2 // 3, size), rng.randrange(size * 2 // 3, size)),
        )
        return image
    gen = np.random.default_rng(rng.randrange(2**31))
    xs = np.arange(size, dtype=np.float32)[None, :]
    ys = np.arange(size, dtype=np.float32)[:, None]
    if kind == "wavy":
        base = np.array(rng.choice(WAVY), np.float32) * rng.uniform(0.85, 1.1)
        period = rng.uniform(7, 16)
        warp = (
            np.sin(xs / rng.uniform(40, 120) + rng.uniform(0, 6)) * rng.uniform(8, 30)
            + _noise(gen, size, size, 150) * 25
        )
        stripes = np.sin((ys + warp) * 2 * np.pi / period)
        bands = _noise(gen, size, size, rng.uniform(90, 200)) > rng.uniform(-0.6, 0.4)
        lines = np.clip((stripes - 0.55) * 4, 0, 1) * bands
        weave = _noise(gen, size, size, 1.5) * 6 + _noise(gen, size, size, 60) * 10
        image = base[None, None, :] + weave[:, :, None]
        white = np.array((240, 240, 238), np.float32)
        image = image * (1 - lines[:, :, None] * 0.8) + white * lines[:, :, None] * 0.8
        if rng.random() < 0.4:  # a fold or a crease as a soft dark band
            image *= (1 - 0.15 * np.clip(_noise(gen, size, size, 250), 0, 1))[:, :, None]
    elif kind == "desk":
        base = np.array(rng.choice(DESK), np.float32) * rng.uniform(0.85, 1.15)
        rings = (
            np.sin(
                (ys + _noise(gen, size, size, 120) * 40) / rng.uniform(3, 9)
                + _noise(gen, size, size, 300) * 4
            )
            * 14
        )
        image = (
            base[None, None, :] * (1 + rings[:, :, None] / 120)
            + (_noise(gen, size, size, 2) * 4 + _noise(gen, size, size, 40) * 8)[:, :, None]
        )
        if rng.random() < 0.5:  # plank seams
            plank = rng.randint(120, 300)
            for y in range(rng.randrange(plank), size, plank):
                image[y : y + 2] *= 0.55
        if rng.random() < 0.5:
            image = image.transpose(1, 0, 2)
    elif kind == "granite":
        base = np.array(rng.choice(GRANITE), np.float32)
        image = np.repeat(base[None, None, :], size, 0).repeat(size, 1).copy()
        speck = gen.random((size, size)).astype(np.float32)
        dark = cv2.GaussianBlur((speck < 0.12).astype(np.float32), (0, 0), 1.2)
        light = cv2.GaussianBlur((speck > 0.9).astype(np.float32), (0, 0), 1.0)
        image *= (1 - 0.8 * np.clip(dark * 2, 0, 1))[:, :, None]
        image += (60 * np.clip(light * 2, 0, 1))[:, :, None]
        image += (_noise(gen, size, size, 30) * 12)[:, :, None]
    elif kind == "mat":  # bamboo mat: small rounded cells in a grid
        base = np.array(rng.choice(MAT), np.float32)
        cell = rng.uniform(9, 14)
        cx = np.abs(np.sin(xs * np.pi / cell))
        cy = np.abs(np.sin(ys * np.pi / (cell * 0.6)))
        cells = np.clip(cx * cy * 2.2, 0, 1)
        image = base[None, None, :] * (0.45 + 0.6 * cells[:, :, None])
        image += (_noise(gen, size, size, 2) * 6)[:, :, None]
    elif kind == "blocks":
        image = bamboo_blocks(rng, gen, size)
    else:  # stone, white counter
        base = np.array(rng.choice(STONE), np.float32)
        veins = np.abs(_noise(gen, size, size, 80)) < 0.06
        image = base[None, None, :] + (_noise(gen, size, size, 20) * 5)[:, :, None]
        image -= (veins * 40)[:, :, None]
    return np.ascontiguousarray(np.clip(image, 0, 255).astype(np.uint8))


def clutter(canvas: np.ndarray, rng: random.Random, keep_out: tuple[int, int, int, int]) -> None:
    """Things at the edge of the table: a box, a keyboard, paper, a plastic bag; never inside
    ``keep_out`` (x1, y1, x2, y2 in texture pixels), where the tiles lie."""
    size = canvas.shape[0]
    kx1, ky1, kx2, ky2 = keep_out
    for _ in range(rng.randint(1, 3)):
        w, h = rng.randint(size // 6, size // 2), rng.randint(size // 8, size // 3)
        for _try in range(10):
            x, y = rng.randrange(0, size - w), rng.randrange(0, size - h)
            if x + w < kx1 or x > kx2 or y + h < ky1 or y > ky2:
                break
        else:
            continue
        kind = rng.choice(("box", "keyboard", "paper", "bag", "hand"))
        if kind == "hand":  # a player's hand reaching in at the table's edge
            hand(canvas, rng, (x + w / 2, y + h / 2), rng.uniform(0.8, 1.2), rng.uniform(0, 6.3))
            continue
        if kind == "box":  # a black or brown box seen from above: dark inside, lighter rim
            colour: tuple[int, ...] = rng.choice(((25, 25, 28), (60, 90, 130), (40, 40, 45)))
            cv2.rectangle(canvas, (x, y), (x + w, y + h), tuple(int(c * 1.8) for c in colour), -1)
            rim = max(4, w // 25)
            cv2.rectangle(canvas, (x + rim, y + rim), (x + w - rim, y + h - rim), colour, -1)
        elif kind == "keyboard":
            keyboard(canvas, rng, (x, y, x + w, y + h))
        elif kind == "paper":
            cv2.rectangle(canvas, (x, y), (x + w, y + h), (235, 238, 240), -1)
        else:
            colour = tuple(rng.randint(80, 250) for _ in range(3))
            pts = np.array(
                [[x + rng.randrange(w), y + rng.randrange(h)] for _ in range(6)], np.int32
            )
            cv2.fillConvexPoly(canvas, cv2.convexHull(pts), colour)


KEY_GLYPHS = "QWERTYUIOPASDFGHJKLZXCVBNM1234567890!@#$%&*()-=+[]{};:',.<>/?~"
KEY_WORDS = ("Esc", "Tab", "Shift", "Ctrl", "Alt", "Enter", "Del", "Home", "End", "PgUp", "F1",
             "F5", "F8", "F12", "Fn", "Caps", "Insert", "PrtSc")  # fmt: skip


KEYBOARD_STYLES = {"dark": 0.55, "light deck": 0.15, "silver": 0.3}  # style: share of keyboards


def keyboard(
    canvas: np.ndarray,
    rng: random.Random,
    area: tuple[int, int, int, int],
    style: str | None = None,
) -> list[tuple[int, int, int, int]]:
    """A laptop or desk keyboard in ``area`` (texture pixels, about a millimetre each): rows of
    rounded keys about 19 mm apart, lettered. Real photos put tiles on keyboards, and a key is the
    size of a tile: without these a detector reads every key as a tile. Returns the keys' boxes.

    Three styles: black keys with white letters; black keys on a silver deck; and a silver
    laptop's light grey keys with grey letters, which the real photos' detector read as tiles
    (10 of the 33 extra boxes) and which are as pale as a tile's face. ``style`` picks one
    (``KEYBOARD_STYLES``); by default it is drawn at their shares."""
    x1, y1, x2, y2 = area
    if style is None:
        style = rng.choices(list(KEYBOARD_STYLES), list(KEYBOARD_STYLES.values()))[0]
    ink: tuple[int, ...] = (rng.randint(200, 255),) * 3
    if style == "dark":
        deck: tuple[int, ...] = (rng.randint(15, 40),) * 3
        cap = tuple(min(255, c + rng.randint(5, 25)) for c in deck)
    elif style == "light deck":
        deck, cap = (rng.randint(170, 210),) * 3, (30, 30, 34)
    else:
        deck = (rng.randint(150, 195),) * 3
        cap = tuple(min(250, c + rng.randint(25, 55)) for c in deck)
        ink = (rng.randint(40, 130),) * 3
    if style != "silver" and rng.random() < 0.2:  # backlit keys
        ink = (rng.randint(200, 255), rng.randint(200, 255), rng.randint(150, 255))
    cv2.rectangle(canvas, (x1, y1), (x2, y2), deck, -1)
    keys: list[tuple[int, int, int, int]] = []
    pitch = rng.uniform(17, 22) / rng.uniform(0.6, 1.0)
    gap = pitch * rng.uniform(0.12, 0.25)
    y = y1 + gap
    while y + pitch < y2:
        x = x1 + gap + rng.uniform(0, pitch)
        while x + pitch < x2:
            width = pitch * rng.choices((1, 1.5, 2, 6), (12, 2, 1, 0.3))[0]
            kx1, ky1 = int(x), int(y)
            kx2, ky2 = int(min(x2, x + width - gap)), int(y + pitch - gap)
            keys.append((max(x1, x1 + x2 - 1 - kx2), ky1, x1 + x2 - 1 - kx1, ky2))  # mirrored
            radius = max(1, int(pitch * 0.08))
            rim = tuple(min(255, c + 30) for c in cap)  # the lit edge of the key cap
            for colour, inset in ((rim, 0), (cap, max(1, radius // 2))):
                a, b = kx1 + inset, ky1 + inset
                c, d = kx2 - inset, ky2 - inset
                cv2.rectangle(canvas, (a + radius, b), (c - radius, d), colour, -1)
                cv2.rectangle(canvas, (a, b + radius), (c, d - radius), colour, -1)
            if rng.random() < 0.85:
                text = rng.choice(KEY_WORDS) if rng.random() < 0.2 else rng.choice(KEY_GLYPHS)
                scale = pitch / 40 * rng.uniform(0.5, 1.0) / max(1, len(text) * 0.45)
                at = (
                    kx1 + int(pitch * rng.uniform(0.15, 0.4)),
                    ky1 + int(pitch * rng.uniform(0.45, 0.75)),
                )
                cv2.putText(canvas, text, at, cv2.FONT_HERSHEY_SIMPLEX, scale, ink, 1, cv2.LINE_AA)
            x += width
        y += pitch
    # The camera's table mapping mirrors the texture: mirror the keys so their letters read right.
    canvas[y1:y2, x1:x2] = canvas[y1:y2, x1:x2][:, ::-1]
    return keys


def bamboo_blocks(rng: random.Random, gen: np.random.Generator, size: int) -> np.ndarray:
    """A cooling mat of small bamboo blocks strung together: rows of rounded, tile-sized, orange
    blocks with dark gaps and the strings' holes. From above each block is the size and colour of
    a yellow tile back (the real photos' extra "backs" on such a mat)."""
    base = np.array(rng.choice(BLOCKS), np.float32)
    gap_colour = base * rng.uniform(0.15, 0.35)
    image = np.empty((size, size, 3), np.float32)
    image[:] = gap_colour
    hole_colour = tuple(float(c) for c in gap_colour)
    width, height = rng.uniform(20, 32), rng.uniform(10, 17)
    gap = rng.uniform(2, 4)
    y = -rng.uniform(0, height)
    row = 0
    while y < size:
        x = -rng.uniform(0, width) - (width / 2 if row % 2 else 0)
        while x < size:
            x1, y1, x2, y2 = int(x + gap), int(y + gap), int(x + width), int(y + height)
            shade = base * rng.uniform(0.85, 1.12)
            cv2.rectangle(image, (x1, y1), (x2, y2), tuple(float(c) for c in shade), -1)
            # lit top edge, darker bottom edge: each block is rounded
            cv2.line(
                image, (x1 + 1, y1 + 1), (x2 - 1, y1 + 1), tuple(float(c) * 1.15 for c in shade), 1
            )
            cv2.line(
                image, (x1 + 1, y2 - 1), (x2 - 1, y2 - 1), tuple(float(c) * 0.7 for c in shade), 1
            )
            for hole in (0.25, 0.5, 0.75):  # where the strings go through
                cv2.circle(image, (int(x1 + (x2 - x1) * hole), y2 - 2), 1, hole_colour, -1)
            x += width
        y += height
        row += 1
    if rng.random() < 0.5:
        image = image.transpose(1, 0, 2)
    image += (_noise(gen, size, size, 2) * 5 + _noise(gen, size, size, 80) * 10)[:, :, None]
    return np.ascontiguousarray(image)


def hand(
    canvas: np.ndarray,
    rng: random.Random,
    centre: tuple[float, float],
    scale: float,
    angle: float,
) -> None:
    """An open hand drawn flat on ``canvas`` (texture pixels, about a millimetre each): a palm,
    four fingers and a thumb in one skin tone, shaded at the edges. Real photos hold tiles out on
    a palm, and a fingertip is the size and warm colour of a tile back."""
    skin = np.array(rng.choice(SKIN), np.float32) * rng.uniform(0.9, 1.1)
    mask = np.zeros(canvas.shape[:2], np.uint8)
    cx, cy = centre
    turn = np.array([[np.cos(angle), -np.sin(angle)], [np.sin(angle), np.cos(angle)]])

    def at(dx: float, dy: float) -> tuple[int, int]:
        x, y = turn @ np.array([dx, dy]) * scale
        return int(cx + x), int(cy + y)

    palm_axes = (int(42 * scale), int(50 * scale))
    cv2.ellipse(mask, at(0, 0), palm_axes, np.degrees(angle), 0, 360, 255, -1)
    spread = rng.uniform(0.0, 0.12)
    for i, (length, offset) in enumerate(((70, -27), (80, -9), (77, 9), (62, 26))):
        lean = (i - 1.5) * spread
        base = np.array([offset, -38.0])
        tip = base + np.array([np.sin(lean), -np.cos(lean)]) * length * rng.uniform(0.9, 1.1)
        cv2.line(mask, at(*base), at(*tip), 255, max(3, int(17 * scale)), cv2.LINE_AA)
        cv2.circle(mask, at(*tip), max(2, int(8.5 * scale)), 255, -1)
    thumb_tip = np.array([-78.0, -20.0]) + np.array([rng.uniform(-10, 10), rng.uniform(-15, 15)])
    cv2.line(mask, at(-30, 25), at(*thumb_tip), 255, max(3, int(20 * scale)), cv2.LINE_AA)
    cv2.circle(mask, at(*thumb_tip), max(2, int(10 * scale)), 255, -1)
    soft = cv2.GaussianBlur(mask.astype(np.float32) / 255, (0, 0), max(1.0, 2.5 * scale))
    # skin darkens toward its edges (it curves away from the light) and has creases
    inner = cv2.GaussianBlur(soft, (0, 0), 8 * scale)
    tone = skin[None, None, :] * (0.7 + 0.35 * np.clip(inner, 0, 1))[:, :, None]
    alpha = np.clip(soft * 1.4, 0, 1)[:, :, None]
    canvas[:] = np.clip(canvas * (1 - alpha) + tone * alpha, 0, 255).astype(canvas.dtype)


# -- what a low camera sees beyond the table: a room, out of focus --------------------------------
WALLS = [(200, 215, 225), (235, 235, 235), (190, 190, 195), (215, 205, 190), (170, 185, 200)]
FURNITURE = [(30, 45, 70), (25, 25, 28), (60, 90, 130), (45, 60, 80), (200, 200, 205)]


def room(rng: random.Random, width: int, height: int) -> np.ndarray:
    """A room seen past the table's far edge: a wall with windows, cabinets, a whiteboard, a
    screen, chairs; blurred as the camera focused on the tiles. About a third of the real photos were
    taken from a chair, with the room above the table; the detector had seen only table tops."""
    gen = np.random.default_rng(rng.randrange(2**31))
    wall = np.array(rng.choice(WALLS), np.float32) * rng.uniform(0.6, 1.1)
    shade = np.linspace(rng.uniform(0.75, 1.15), rng.uniform(0.85, 1.1), height)[:, None, None]
    image = wall[None, None, :] * shade + _noise(gen, width, height, 80)[:, :, None] * 6
    image = np.clip(image, 0, 255).astype(np.uint8)
    for _ in range(rng.randint(1, 6)):
        w = rng.randint(width // 10, width // 2)
        h = rng.randint(height // 10, height // 2)
        x, y = rng.randrange(-w // 2, width), rng.randrange(-h // 2, height)
        kind = rng.choice(("window", "cabinet", "screen", "board", "chair", "shelf"))
        if kind == "window":  # bright, with mullions, buildings or sky beyond
            cv2.rectangle(image, (x, y), (x + w, y + h), (240, 242, 245), -1)
            if rng.random() < 0.5:
                brick = tuple(int(c) for c in rng.choice(((80, 90, 150), (150, 160, 170))))
                cv2.rectangle(image, (x, y + h // 4), (x + w, y + h), brick, -1)
            frame = tuple(int(c) for c in rng.choice(WALLS))
            for k in range(rng.randint(1, 4)):
                cx = x + w * k // 3
                cv2.line(image, (cx, y), (cx, y + h), frame, max(2, w // 40))
            cv2.rectangle(image, (x, y), (x + w, y + h), frame, max(3, w // 30))
        elif kind == "cabinet":  # doors with lighter edges
            colour = tuple(int(c) for c in rng.choice(FURNITURE))
            cv2.rectangle(image, (x, y), (x + w, y + h), colour, -1)
            doors = rng.randint(1, 5)
            for k in range(1, doors):
                cx = x + w * k // doors
                cv2.line(image, (cx, y), (cx, y + h), tuple(min(255, c + 40) for c in colour), 2)
        elif kind == "screen":
            cv2.rectangle(image, (x, y), (x + w, y + h * 2 // 3), (20, 20, 22), -1)
            if rng.random() < 0.5:  # lit
                glow = tuple(rng.randint(60, 220) for _ in range(3))
                cv2.rectangle(image, (x + 6, y + 6), (x + w - 6, y + h * 2 // 3 - 6), glow, -1)
        elif kind == "board":  # a whiteboard with scribbles
            cv2.rectangle(image, (x, y), (x + w, y + h), (238, 240, 240), -1)
            for _s in range(rng.randint(2, 12)):
                pts = np.array(
                    [
                        [x + rng.randrange(w), y + rng.randrange(h)]
                        for _ in range(rng.randint(2, 6))
                    ],
                    np.int32,
                )
                ink = rng.choice(((40, 40, 40), (60, 60, 200), (200, 80, 40), (50, 140, 50)))
                cv2.polylines(image, [pts], False, ink, 2)
        elif kind == "chair":
            colour = tuple(int(c) for c in rng.choice(FURNITURE[:4]))
            pts = np.array(
                [[x + rng.randrange(w), y + rng.randrange(h)] for _ in range(6)], np.int32
            )
            cv2.fillConvexPoly(image, cv2.convexHull(pts), colour)
        else:  # a shelf edge or a counter top: long horizontal bands
            colour = tuple(int(c) for c in rng.choice(FURNITURE))
            cv2.rectangle(image, (0, y), (width, y + max(4, h // 6)), colour, -1)
    blurred: np.ndarray = cv2.GaussianBlur(image, (0, 0), rng.uniform(1.0, 5.0))
    return blurred
