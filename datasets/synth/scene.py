"""Compose one table photo: tiles with bodies on a background, laid out like a hand, then a camera.

The scene is drawn flat (tile sprites pasted with rotation), then warped by a random perspective
and lit, blurred and compressed like a phone or Pi camera. Every tile's outline is carried through
every step, so its box and its upright crop are exact.
"""

from __future__ import annotations

import math
import random
from dataclasses import dataclass

import cv2
import numpy as np

from datasets.synth.backgrounds import background, clutter, room, table_surface
from datasets.synth.faces import FaceLibrary
from scoring.tiles import ALL_TILES

SCENE_SIZE = (1280, 960)
LOW_VIEW_SHARE = 0.2
"""Close scenes shot from a chair, the camera 50-84 degrees off straight down: a third of the
real photos look at the tiles that way, standing hands most, with the room behind."""
ROOM_TILT = 50  # degrees off straight down beyond which the room past the table may show
BACK_COLOURS = [(40, 190, 235), (60, 160, 40), (170, 110, 30), (40, 60, 200), (230, 230, 230)]
# White backs are rare on real tables and look like a blank 白 lying face up: at one back in five
# they taught the classifier to call real blank 白 backs (21 in the 30 real photos).
BACK_WEIGHTS_FLAT = [3, 1, 1, 1, 0.1]
MAHJONG_CODES = [t.code for t in ALL_TILES if not t.is_piece and not t.is_flower]
FLOWER_CODES = [t.code for t in ALL_TILES if t.is_flower]
PIECE_CODES = [t.code for t in ALL_TILES if t.is_piece]
# The white dragon is drawn more often than a uniform pick would: half its rendered faces are
# blank, and a plain white face is what the detector finds least (7 of the 34 real tiles it
# missed on 2026-11-23; 白 are 10% of the real photos' tiles, 2.7% of a uniform pick).
WHITE_DRAGON, WHITE_DRAGON_SHARE = "5z", 0.07


# Codes drawn outright, each its share of the mahjong picks (build --favour 1s=0.04): a tile the
# real photos' classifier reads worst can be drawn more often, as the white dragon is.
Favoured = tuple[tuple[str, float], ...]


def mahjong_code(
    rng: random.Random, white_dragon_share: float = WHITE_DRAGON_SHARE, favoured: Favoured = ()
) -> str:
    """A tile's code: the white dragon outright ``white_dragon_share`` of the picks, each
    ``favoured`` code its share after it, else a uniform pick (at the default, about 9.5% white
    dragons in all). One draw decides all of them, so a build without ``favoured`` draws the
    tiles its seed drew before there was one."""
    draw = rng.random()
    for code, share in ((WHITE_DRAGON, white_dragon_share), *favoured):
        if draw < share:
            return code
        draw -= share
    return rng.choice(MAHJONG_CODES)


@dataclass(frozen=True)
class PlacedTile:
    code: str | None  # None: face down
    quad: np.ndarray  # 4x2 corners of the whole visible tile, clockwise from the face's top-left
    face_quad: np.ndarray  # 4x2 corners of the face, top-left, top-right, bottom-right, bottom-left
    piece: bool

    def box(self) -> tuple[float, float, float, float]:
        xs, ys = self.quad[:, 0], self.quad[:, 1]
        return float(xs.min()), float(ys.min()), float(xs.max()), float(ys.max())

    @property
    def rotated(self) -> bool:
        """The face's long (vertical) axis lies along the photo's x axis."""
        top = (self.face_quad[0] + self.face_quad[1]) / 2
        bottom = (self.face_quad[3] + self.face_quad[2]) / 2
        dx, dy = bottom - top
        rotated: bool = abs(dx) > abs(dy)
        return rotated

    def detector_class(self) -> int:
        if self.piece:
            return 4
        base = 2 if self.code is None else 0
        return base + (1 if self.rotated else 0)


def _tile_sprite(
    face: np.ndarray,
    width: int,
    rng: random.Random,
    back: tuple[int, int, int],
    down: bool,
    depth_range: tuple[float, float] = (0.12, 0.3),
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tile seen from above and a little in front: face, ivory body, coloured back layer.

    Returns the sprite (BGRA), the corners of the whole tile, the corners of the face.
    """
    height = int(width * rng.uniform(1.28, 1.42))
    depth = int(width * rng.uniform(*depth_range))  # visible thickness toward the camera
    radius = max(2, width // 9)
    sprite = np.zeros((height + depth, width, 4), np.uint8)
    ivory = (225, 235, 240)
    back_share = rng.uniform(0.35, 0.6)
    _rounded(sprite, 0, 0 + depth, width, height, radius, back)  # bottom layer (back colour)
    _rounded(sprite, 0, 0 + int(depth * (1 - back_share)), width, height, radius, ivory)
    if down:
        _rounded(sprite, 0, 0, width, height, radius, back)
    else:
        _rounded(sprite, 0, 0, width, height, radius, ivory)
        margin = max(1, width // 16)
        inner = cv2.resize(
            face, (width - 2 * margin, height - 2 * margin), interpolation=cv2.INTER_AREA
        )
        mask = sprite[margin : height - margin, margin : width - margin, 3] > 0
        region = sprite[margin : height - margin, margin : width - margin, :3]
        region[mask] = inner[mask]
    quad = np.array([[0, 0], [width, 0], [width, height + depth], [0, height + depth]], np.float32)
    face_quad = np.array([[0, 0], [width, 0], [width, height], [0, height]], np.float32)
    return sprite, quad, face_quad


def _rounded(img: np.ndarray, x: int, y: int, w: int, h: int, r: int, colour) -> None:  # type: ignore[no-untyped-def]
    colour4 = (*colour, 255)
    cv2.rectangle(img, (x + r, y), (x + w - 1 - r, y + h - 1), colour4, -1)
    cv2.rectangle(img, (x, y + r), (x + w - 1, y + h - 1 - r), colour4, -1)
    for cx, cy in (
        (x + r, y + r),
        (x + w - 1 - r, y + r),
        (x + r, y + h - 1 - r),
        (x + w - 1 - r, y + h - 1 - r),
    ):
        cv2.circle(img, (cx, cy), r, colour4, -1)


def _piece_sprite(face: np.ndarray, size: int) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    sprite = np.zeros((size, size, 4), np.uint8)
    sprite[:, :, :3] = cv2.resize(face, (size, size), interpolation=cv2.INTER_AREA)
    alpha = np.zeros((size, size), np.uint8)
    cv2.circle(alpha, (size // 2, size // 2), size // 2 - 1, 255, -1)
    sprite[:, :, 3] = alpha
    quad = np.array([[0, 0], [size, 0], [size, size], [0, size]], np.float32)
    return sprite, quad, quad.copy()


def _paste(
    canvas: np.ndarray, sprite: np.ndarray, center: tuple[float, float], angle: float
) -> np.ndarray:
    """Paste a BGRA sprite rotated by ``angle`` degrees at ``center``; returns the 2x3 transform."""
    h, w = sprite.shape[:2]
    matrix = cv2.getRotationMatrix2D((w / 2, h / 2), angle, 1.0)
    cos, sin = abs(matrix[0, 0]), abs(matrix[0, 1])
    out_w, out_h = int(h * sin + w * cos) + 2, int(h * cos + w * sin) + 2
    matrix[0, 2] += out_w / 2 - w / 2
    matrix[1, 2] += out_h / 2 - h / 2
    rotated = cv2.warpAffine(sprite, matrix, (out_w, out_h), flags=cv2.INTER_LINEAR)
    x0, y0 = int(center[0] - out_w / 2), int(center[1] - out_h / 2)
    H, W = canvas.shape[:2]
    sx0, sy0 = max(0, -x0), max(0, -y0)
    dx0, dy0 = max(0, x0), max(0, y0)
    dx1, dy1 = min(W, x0 + out_w), min(H, y0 + out_h)
    full = np.vstack([matrix, [0, 0, 1]]).astype(np.float32)
    shift = np.array([[1, 0, x0], [0, 1, y0], [0, 0, 1]], np.float32)
    if dx1 <= dx0 or dy1 <= dy0:
        return shift @ full
    patch = rotated[sy0 : sy0 + dy1 - dy0, sx0 : sx0 + dx1 - dx0]
    alpha = patch[:, :, 3:4].astype(np.float32) / 255
    region = canvas[dy0:dy1, dx0:dx1]
    region[:] = (region * (1 - alpha) + patch[:, :, :3] * alpha).astype(np.uint8)
    return shift @ full


def _apply(matrix: np.ndarray, points: np.ndarray) -> np.ndarray:
    homogeneous = np.hstack([points, np.ones((len(points), 1), np.float32)])
    out = homogeneous @ matrix.T
    result: np.ndarray = (out[:, :2] / out[:, 2:3]).astype(np.float32)
    return result


class SceneMaker:
    """Makes scenes from a face library; deterministic for a given ``random.Random``."""

    def __init__(
        self,
        faces: FaceLibrary,
        white_dragon_share: float = WHITE_DRAGON_SHARE,
        favoured: Favoured = (),
    ) -> None:
        self.faces = faces
        self.white_dragon_share = white_dragon_share  # of the mahjong tiles picked outright
        self.favoured = favoured  # the other codes picked outright, each with its share
        self.thick = False  # deep bodies in _place; make() turns it on, example photos keep it off

    def mahjong_code(self, rng: random.Random) -> str:
        return mahjong_code(rng, self.white_dragon_share, self.favoured)

    def make(self, rng: random.Random) -> tuple[np.ndarray, list[PlacedTile]]:
        style = rng.random()
        if style < 0.62:  # close-ups in 3D: piles with many backs, or a hand in rows
            close = _Close(self, rng)
            if style < 0.42:
                close.scattered()
            else:
                close.aim_hand()
                close.hand()
            image, placed = close.render()
            return _finish(image, rng), placed
        self.thick = True
        width, height = SCENE_SIZE
        canvas = background(rng, width, height)
        placed = []
        if rng.random() < 0.3:
            self._pieces(canvas, rng, placed)
        elif rng.random() < 0.1:  # a close-up of a few tiles
            self._loose(canvas, rng, placed, rng.randint(1, 6))
        else:
            self._hand(canvas, rng, placed)
            if rng.random() < 0.35:
                self._loose(canvas, rng, placed, rng.randint(2, 8))
        image, placed = self._camera(canvas, placed, rng)
        return image, placed

    # -- layouts -----------------------------------------------------------------------------
    def _place(
        self,
        canvas: np.ndarray,
        rng: random.Random,
        placed: list[PlacedTile],
        code: str | None,
        center: tuple[float, float],
        angle: float,
        tw: int,
        back: tuple[int, int, int],
        down: bool = False,
        thick: bool | None = None,
    ) -> None:
        """``thick``: the deep two-layer bodies of the sets in real photos (the shipped example
        photos keep the thin ones)."""
        face = self.faces.face(code, rng) if code else np.zeros((4, 3, 3), np.uint8)
        depth = (0.3, 0.6) if (self.thick if thick is None else thick) else (0.12, 0.3)
        sprite, quad, face_quad = _tile_sprite(face, tw, rng, back, down, depth)
        matrix = _paste(canvas, sprite, center, angle)
        placed.append(
            PlacedTile(
                None if down else code, _apply(matrix, quad), _apply(matrix, face_quad), False
            )
        )

    def _hand(self, canvas, rng, placed) -> None:  # type: ignore[no-untyped-def]
        width, height = SCENE_SIZE
        n = rng.randint(13, 17)
        tw = rng.randint(44, 68)
        back = rng.choices(BACK_COLOURS, BACK_WEIGHTS_FLAT)[0]
        th = int(tw * 1.35)
        angle = rng.uniform(-6, 6)
        x = rng.uniform(40, max(41, width - (n + 6) * tw - 40))
        y = rng.uniform(th + 20, height - 2.5 * th - 20)
        bend = rng.uniform(-0.004, 0.004)
        codes = [self.mahjong_code(rng) for _ in range(n)]
        for i, code in enumerate(codes):
            gap = tw * rng.uniform(0.5, 1.0) if i == n - 1 and rng.random() < 0.7 else 0
            x += gap
            cy = y + bend * (x - width / 2) ** 2 / 10
            self._place(
                canvas, rng, placed, code, (x + tw / 2, cy), angle + rng.uniform(-2, 2), tw, back
            )
            x += tw + rng.uniform(0, 2)
        # melds to the right or in front
        melds = rng.randint(0, 3)
        in_front = rng.random() < 0.5
        mx, my = (x + tw * 0.8, y) if not in_front else (rng.uniform(40, width / 3), y + th * 1.7)
        for _ in range(melds):
            kind = rng.choice(("chi", "pon", "kong", "concealed"))
            size = 4 if kind in ("kong", "concealed") else 3
            sideways = (
                rng.randrange(size) if kind in ("chi", "pon", "kong") and rng.random() < 0.7 else -1
            )
            code = self.mahjong_code(rng)
            for j in range(size):
                down = kind == "concealed" and j in (0, size - 1)
                if j == sideways:
                    self._place(
                        canvas,
                        rng,
                        placed,
                        code,
                        (mx + th / 2, my + (th - tw) / 2),
                        angle + 90 + rng.choice((0, 180)),
                        tw,
                        back,
                        down,
                    )
                    mx += th + 2
                else:
                    self._place(canvas, rng, placed, code, (mx + tw / 2, my), angle, tw, back, down)
                    mx += tw + 1
            mx += tw * rng.uniform(0.4, 0.9)
            if mx > width - 2 * tw:
                break
        # flowers set aside
        for _k in range(rng.randint(0, 4)):
            fx = rng.uniform(60, width - 60)
            fy = rng.choice(
                (rng.uniform(60, y - th), rng.uniform(min(height - 60, y + 2.6 * th), height - 60))
            )
            self._place(
                canvas,
                rng,
                placed,
                rng.choice(FLOWER_CODES),
                (fx, fy),
                rng.uniform(-20, 20),
                tw,
                back,
            )
        self._drop_overlaps(placed)

    def _loose(self, canvas, rng, placed, count: int) -> None:  # type: ignore[no-untyped-def]
        width, height = SCENE_SIZE
        back = rng.choices(BACK_COLOURS, BACK_WEIGHTS_FLAT)[0]
        tw = rng.randint(44, 70)
        for _ in range(count):
            center = (rng.uniform(60, width - 60), rng.uniform(60, height - 60))
            quad = np.array([[center[0] - tw, center[1] - tw], [center[0] + tw, center[1] + tw]])
            if any(_overlap(quad, p.quad) for p in placed):
                continue
            down = rng.random() < 0.25
            code = rng.choice(MAHJONG_CODES + FLOWER_CODES)
            self._place(canvas, rng, placed, code, center, rng.uniform(0, 360), tw, back, down)

    def _pieces(self, canvas, rng, placed) -> None:  # type: ignore[no-untyped-def]
        width, height = SCENE_SIZE
        size = rng.randint(60, 96)
        x, y = rng.uniform(60, width / 3), rng.uniform(100, height - 200)
        for i in range(rng.randint(5, 10)):
            code = rng.choice(PIECE_CODES)
            face = self.faces.face(code, rng)
            sprite, quad, face_quad = _piece_sprite(face, size)
            matrix = _paste(canvas, sprite, (x + size / 2, y), rng.uniform(-25, 25))
            placed.append(PlacedTile(code, _apply(matrix, quad), _apply(matrix, face_quad), True))
            x += size + (size * 0.8 if i == 4 else rng.uniform(0, 6))
            if x > width - size:
                x, y = rng.uniform(60, width / 3), y + size * 1.5

    @staticmethod
    def _drop_overlaps(placed: list[PlacedTile]) -> None:
        keep: list[PlacedTile] = []
        for tile in reversed(placed):  # later tiles are drawn on top
            if not any(_overlap(tile.quad, k.quad, 0.35) for k in keep):
                keep.append(tile)
        placed[:] = list(reversed(keep))

    # -- camera --------------------------------------------------------------------------------
    def _camera(self, canvas: np.ndarray, placed: list[PlacedTile], rng: random.Random):  # type: ignore[no-untyped-def]
        height, width = canvas.shape[:2]
        # Frame the tiles the way a player frames a photo: the hand fills much of the picture.
        corners = (
            np.vstack([p.quad for p in placed]) if placed else np.array([[0, 0], [width, height]])
        )
        bx1, by1 = corners.min(axis=0)
        bx2, by2 = corners.max(axis=0)
        margin = rng.uniform(0.02, 0.35) * max(bx2 - bx1, by2 - by1)
        cx1, cy1 = max(0.0, bx1 - margin), max(0.0, by1 - margin)
        cx2, cy2 = min(float(width), bx2 + margin), min(float(height), by2 + margin)
        src = np.array([[cx1, cy1], [cx2, cy1], [cx2, cy2], [cx1, cy2]], np.float32)
        j = 0.12
        span = np.array([cx2 - cx1, cy2 - cy1], np.float32)
        dst = (src - src[0]) + np.array(
            [[rng.uniform(-j, j) * span[0], rng.uniform(-j, j) * span[1]] for _ in range(4)],
            np.float32,
        )
        width, height = int(span[0]), int(span[1])
        # A whole-photo turn: photos come rotated, from across the table, or from the side.
        turn = rng.choice((0, 0, 0, 90, 180, 270)) + rng.uniform(-12, 12)
        center = np.array([width / 2, height / 2], np.float32)
        rad = math.radians(turn)
        rot = np.array(
            [[math.cos(rad), -math.sin(rad)], [math.sin(rad), math.cos(rad)]], np.float32
        )
        dst = (dst - center) @ rot.T + center
        out_w, out_h = SCENE_SIZE if rng.random() < 0.6 else SCENE_SIZE[::-1]
        dst -= dst.min(axis=0)
        scale = min(out_w / dst[:, 0].max(), out_h / dst[:, 1].max())
        dst = dst * scale + (np.array([out_w, out_h]) - dst.max(axis=0) * scale) / 2
        matrix = cv2.getPerspectiveTransform(src, dst.astype(np.float32))
        fill = tuple(int(v) for v in canvas[canvas.shape[0] // 2, 5])
        image = cv2.warpPerspective(canvas, matrix, (out_w, out_h), borderValue=fill)
        placed = [
            PlacedTile(p.code, _apply(matrix, p.quad), _apply(matrix, p.face_quad), p.piece)
            for p in placed
        ]
        placed = [p for p in placed if _inside(p, out_w, out_h)]
        return _light(image, rng), placed


def _overlap(a: np.ndarray, b: np.ndarray, share: float = 0.0) -> bool:
    ax1, ay1, ax2, ay2 = a[:, 0].min(), a[:, 1].min(), a[:, 0].max(), a[:, 1].max()
    bx1, by1, bx2, by2 = b[:, 0].min(), b[:, 1].min(), b[:, 0].max(), b[:, 1].max()
    iw, ih = min(ax2, bx2) - max(ax1, bx1), min(ay2, by2) - max(ay1, by1)
    if iw <= 0 or ih <= 0:
        return False
    smaller = min((ax2 - ax1) * (ay2 - ay1), (bx2 - bx1) * (by2 - by1))
    overlapping: bool = iw * ih > share * smaller
    return overlapping


def _inside(tile: PlacedTile, width: int, height: int) -> bool:
    x1, y1, x2, y2 = tile.box()
    cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, width), min(y2, height)
    if cx2 <= cx1 or cy2 <= cy1:
        return False
    return (cx2 - cx1) * (cy2 - cy1) > 0.6 * (x2 - x1) * (y2 - y1)


def _light(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Uneven light, a shadow, glare, blur, noise: what a real camera adds."""
    h, w = image.shape[:2]
    out: np.ndarray = image.astype(np.float32)
    gx, gy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
    a, b = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)
    out *= (1 + a * gx + b * gy)[:, :, None] * rng.uniform(0.7, 1.25)
    tint = np.array([rng.uniform(0.88, 1.1) for _ in range(3)], np.float32)
    out *= tint
    if rng.random() < 0.4:  # a soft shadow (a hand, a phone)
        mask: np.ndarray = np.zeros((h, w), np.float32)
        cv2.ellipse(
            mask,
            (rng.randrange(w), rng.randrange(h)),
            (rng.randrange(80, w // 2), rng.randrange(60, h // 2)),
            rng.uniform(0, 180),
            0,
            360,
            1.0,
            -1,
        )
        mask = cv2.GaussianBlur(mask, (0, 0), 40)
        out *= (1 - rng.uniform(0.2, 0.5) * mask)[:, :, None]
    if rng.random() < 0.4:  # glare on glossy faces
        mask = np.zeros((h, w), np.float32)
        cv2.circle(mask, (rng.randrange(w), rng.randrange(h)), rng.randrange(30, 160), 1.0, -1)
        mask = cv2.GaussianBlur(mask, (0, 0), 30)
        out += (rng.uniform(40, 110) * mask)[:, :, None]
    out = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.5:
        k = rng.choice((3, 5))
        out = cv2.GaussianBlur(out, (k, k), 0)
    if rng.random() < 0.5:
        noise = np.random.default_rng(rng.randrange(2**31)).normal(0, rng.uniform(2, 8), out.shape)
        out = np.clip(out + noise, 0, 255).astype(np.uint8)
    quality = rng.randint(45, 95)
    ok, buf = cv2.imencode(".jpg", out, [cv2.IMWRITE_JPEG_QUALITY, quality])
    decoded = cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else None
    return out if decoded is None else decoded


# -- close-ups in 3D: thick two-layer tile bodies on a table, seen by a pinhole camera --------------
# World units are millimetres on the table (z up). A tile is a box W x H x D: an ivory face layer
# on a coloured back layer. The camera looks at the table from above or at a slant; every corner
# is projected exactly, so boxes are exact and faces are warped in true perspective.
REAL_BACKS = [
    (30, 185, 235),  # yellow, the commonest
    (35, 175, 225),
    (40, 200, 240),
    (60, 150, 40),  # green
    (170, 110, 30),  # blue
    (40, 130, 235),  # orange
    (175, 145, 235),  # pink
    (200, 225, 238),  # ivory
]
# Ivory backs: rare, for the same reason as the flat scenes' white ones (1% of backs).
BACK_WEIGHTS = [4, 2, 2, 1.5, 1.2, 1, 0.8, 0.13]


def _rounded_outline(w: float, h: float, r: float, steps: int = 4) -> np.ndarray:
    """A rounded rectangle's outline around the origin (u, v), clockwise from the top-left."""
    points = []
    for cx, cy, start in (
        (w / 2 - r, -h / 2 + r, -90),
        (w / 2 - r, h / 2 - r, 0),
        (-w / 2 + r, h / 2 - r, 90),
        (-w / 2 + r, -h / 2 + r, 180),
    ):
        for k in range(steps + 1):
            a = math.radians(start + 90 * k / steps)
            points.append((cx + r * math.cos(a), cy + r * math.sin(a)))
    return np.array(points, np.float64)


@dataclass
class _Body:
    center: np.ndarray  # x, y, z of the box centre
    axes: np.ndarray  # 3x3 columns: u (face left-right), v (face top-bottom), n (face normal)
    size: tuple[float, float, float]  # W, H, D
    ivory_share: float
    back: tuple[int, int, int]
    code: str | None  # the face's code (the face may still be turned away)
    layer: int = 0

    def point(self, a: float, b: float, c: float) -> np.ndarray:
        result: np.ndarray = self.center + self.axes @ np.array((a, b, c))
        return result

    def points(self, local: np.ndarray) -> np.ndarray:
        result: np.ndarray = self.center[None, :] + local @ self.axes.T
        return result

    def footprint(self) -> np.ndarray:
        w, h, d = self.size
        corners = np.array(
            [(a * w / 2, b * h / 2, c * d / 2) for a in (-1, 1) for b in (-1, 1) for c in (-1, 1)]
        )
        return self.points(corners)


class _Camera:
    def __init__(
        self,
        rng: random.Random,
        size: tuple[int, int],
        f: float,
        target: tuple[float, float, float] | np.ndarray,
        distance: float,
        tilt: float,
        azimuth: float,
    ) -> None:
        self.size = size
        self.f = f
        a = np.array((math.cos(azimuth), math.sin(azimuth), 0.0))
        target = np.asarray(target, np.float64)
        self.position = (
            target - a * distance * math.sin(tilt) + np.array((0, 0, distance * math.cos(tilt)))
        )
        forward = target - self.position
        forward /= np.linalg.norm(forward)
        up = a - a.dot(forward) * forward
        up /= np.linalg.norm(up)
        y = -up
        x = np.cross(y, forward)
        roll = math.radians(rng.uniform(-10, 10))
        x, y = math.cos(roll) * x + math.sin(roll) * y, -math.sin(roll) * x + math.cos(roll) * y
        self.rotation = np.stack([x, y, forward])

    def project(self, points: np.ndarray) -> np.ndarray:
        cam = (points - self.position) @ self.rotation.T
        z = np.maximum(cam[:, 2:3], 1e-3)
        centre = np.array(self.size, np.float64) / 2
        result: np.ndarray = cam[:, :2] / z * self.f + centre
        return result

    def table_homography(self) -> np.ndarray:
        """Table plane (x, y, 1) to image pixels."""
        k = np.array([[self.f, 0, self.size[0] / 2], [0, self.f, self.size[1] / 2], [0, 0, 1]])
        r = self.rotation
        result: np.ndarray = k @ np.column_stack([r[:, 0], r[:, 1], -r @ self.position])
        return result

    def sees(self, point: np.ndarray, normal: np.ndarray) -> float:
        """Cosine between a surface normal and the direction to the camera."""
        to_camera = self.position - point
        return float(normal.dot(to_camera) / np.linalg.norm(to_camera))


def table_edges(
    camera: _Camera,
    centre: np.ndarray,
    forward: np.ndarray,
    extent: tuple[float, float, float],
    size: tuple[int, int],
) -> tuple[np.ndarray, np.ndarray]:
    """Where a finite table ends in the picture: (beyond, before), float masks of ``size``
    (width, height), softened at the edge. The table is a rectangle around ``centre`` (mm on the
    table plane), square to ``forward`` (a unit vector along the ground): it reaches ``far`` mm
    ahead, ``near`` mm behind (``-inf``: the near edge is out of sight) and ``half`` mm to each
    side. Beyond: past the far edge or a side, or above the horizon. Before: the floor in front.
    """
    far, near, half = extent
    width, height = size
    small = 4  # computed at a quarter size: the edges are softened anyway
    us, vs = np.meshgrid(
        np.arange(width // small) * small + small / 2,
        np.arange(height // small) * small + small / 2,
    )
    pixels = np.stack([us.ravel(), vs.ravel(), np.ones(us.size)])
    to_table = np.linalg.inv(camera.table_homography())
    table = to_table @ pixels
    # A ray above the horizon meets the table's plane behind the camera: its w has the sign
    # opposite to a ray through the picture's centre, which looks down at the table.
    facing = to_table @ np.array((width / 2, height / 2, 1.0))
    ahead = table[2] * np.sign(facing[2]) > 0
    safe_w = np.where(np.abs(table[2]) < 1e-12, 1e-12, table[2])
    xy = table[:2] / safe_w - centre[:, None]
    along = forward @ xy
    across = np.array((-forward[1], forward[0])) @ xy
    beyond = ~ahead | (along > far) | (np.abs(across) > half)
    before = ahead & (along < near) & ~beyond
    shape = (height // small, width // small)
    soft = [cv2.blur(m.reshape(shape).astype(np.float32), (3, 3)) for m in (beyond, before)]
    return cv2.resize(soft[0], (width, height)), cv2.resize(soft[1], (width, height))


def _pose(kind: str, yaw: float, toward: np.ndarray | None = None) -> np.ndarray:
    """Axes (u, v, n as columns) for a pose: up, down, side (on a long edge), stand (on its end)."""
    c, s = math.cos(yaw), math.sin(yaw)
    if kind == "up":
        u, v = np.array((c, s, 0.0)), np.array((s, -c, 0.0))
    elif kind == "down":
        u, v = np.array((c, s, 0.0)), np.array((-s, c, 0.0))
    elif kind == "side":
        v = np.array((c, s, 0.0))
        n = np.array((-s, c, 0.0))
        return np.column_stack([np.cross(n, v), v, n])
    else:  # stand: face top up, the face toward ``toward`` (or the yaw)
        v = np.array((0.0, 0.0, -1.0))
        n = np.array((c, s, 0.0)) if toward is None else toward
        return np.column_stack([np.cross(n, v), v, n])
    return np.column_stack([u, v, np.cross(v, u)])


def _body_at(x, y, z0, axes, size, ivory, back, code, layer=0) -> _Body:  # type: ignore[no-untyped-def]
    half = 0.5 * (np.abs(axes[2]) @ np.array(size))  # half extent along z
    return _Body(np.array((x, y, z0 + half)), axes, size, ivory, back, code, layer)


class _HeightMap:
    """Heights of what lies on the table, 1 mm a cell, to keep bodies from passing through
    each other and to rest a tile on top of another."""

    def __init__(self, extent: float) -> None:
        self.extent = extent
        n = int(2 * extent) + 1
        self.grid = np.zeros((n, n), np.float32)

    def _mask(self, body: _Body) -> tuple[np.ndarray, tuple[slice, slice]] | None:
        pts = cv2.convexHull((body.footprint()[:, :2] + self.extent).astype(np.float32))
        pts = pts.reshape(-1, 2)
        x1, y1 = np.floor(pts.min(axis=0)).astype(int)
        x2, y2 = np.ceil(pts.max(axis=0)).astype(int) + 1
        n = self.grid.shape[0]
        if x1 < 0 or y1 < 0 or x2 > n or y2 > n:
            return None
        mask = np.zeros((y2 - y1, x2 - x1), np.uint8)
        cv2.fillConvexPoly(mask, np.round(pts - (x1, y1)).astype(np.int32), 1)
        return mask.astype(bool), (slice(y1, y2), slice(x1, x2))

    def heights(self, body: _Body) -> np.ndarray | None:
        found = self._mask(body)
        if found is None:
            return None
        mask, roi = found
        result: np.ndarray = self.grid[roi][mask]
        return result

    def put(self, body: _Body) -> None:
        found = self._mask(body)
        if found is not None:
            mask, roi = found
            top = float(body.footprint()[:, 2].max())
            self.grid[roi][mask] = np.maximum(self.grid[roi][mask], top)


class _Renderer:
    """Draws bodies far to near, keeps an id buffer to tell how much of each stays visible."""

    def __init__(
        self, image: np.ndarray, camera: _Camera, light: np.ndarray, rng: random.Random
    ) -> None:
        self.image = image
        self.camera = camera
        self.light = light
        self.ids = np.zeros(image.shape[:2], np.uint16)
        self.wall = rng.uniform(0.62, 0.82)
        self.radius = rng.uniform(0.08, 0.16)

    def _shade(self, colour, factor: float):  # type: ignore[no-untyped-def]
        return tuple(float(min(255, c * factor)) for c in colour)

    def _fill(self, points: np.ndarray, colour) -> None:  # type: ignore[no-untyped-def]
        hull = cv2.convexHull(np.round(points * 16).astype(np.int32))
        cv2.fillConvexPoly(self.image, hull, colour, cv2.LINE_AA, 4)

    def draw(
        self, body: _Body, index: int, face: np.ndarray | None
    ) -> tuple[np.ndarray, np.ndarray, bool]:
        """Returns the tile's outline (convex hull), its visible cap's corners, and whether the
        visible cap is the face."""
        w, h, d = body.size
        outline = _rounded_outline(w, h, min(w, h) * self.radius)
        split = d / 2 - body.ivory_share * d

        def ring(c: float) -> np.ndarray:
            local = np.column_stack([outline, np.full(len(outline), c)])
            return self.camera.project(body.points(local))

        face_ring, split_ring, back_ring = ring(d / 2), ring(split), ring(-d / 2)
        n = body.axes[:, 2]
        face_seen = self.camera.sees(body.point(0, 0, d / 2), n) > 0
        ivory = (226, 236, 242)
        slabs = [(back_ring, split_ring, body.back), (split_ring, face_ring, ivory)]
        if not face_seen:
            slabs.reverse()
        for lower, upper, colour in slabs:
            self._fill(np.vstack([lower, upper]), self._shade(colour, self.wall))
        # walls that face up (a standing tile's top, a tile on its side): lit like a top
        for axis, extent, other, other_extent in ((0, w, 1, h), (1, h, 0, w)):
            for sign in (-1, 1):
                normal = sign * body.axes[:, axis]
                if normal[2] < 0.6:
                    continue
                lit = 0.55 + 0.45 * max(0.0, float(normal.dot(self.light)))
                for lo, hi, colour in ((-d / 2, split, body.back), (split, d / 2, ivory)):
                    local = []
                    for b in (-1, 1):
                        for c in (lo, hi):
                            p = [0.0, 0.0, c]
                            p[axis] = sign * extent / 2
                            p[other] = b * (other_extent / 2 - min(w, h) * self.radius * 0.5)
                            local.append(p)
                    self._fill(
                        self.camera.project(body.points(np.array(local))), self._shade(colour, lit)
                    )
        cap_normal = n if face_seen else -n
        lit = 0.55 + 0.45 * max(0.0, float(cap_normal.dot(self.light)))
        cap_ring = face_ring if face_seen else back_ring
        self._fill(cap_ring, self._shade(ivory if face_seen else body.back, lit))
        c = d / 2 if face_seen else -d / 2
        corners = np.array(
            [(-w / 2, -h / 2, c), (w / 2, -h / 2, c), (w / 2, h / 2, c), (-w / 2, h / 2, c)]
        )
        cap_quad = self.camera.project(body.points(corners)).astype(np.float32)
        if face_seen and face is not None:
            m = min(w, h) * 0.06
            inner = np.array(
                [
                    (-w / 2 + m, -h / 2 + m, c),
                    (w / 2 - m, -h / 2 + m, c),
                    (w / 2 - m, h / 2 - m, c),
                    (-w / 2 + m, h / 2 - m, c),
                ]
            )
            self._face(face, self.camera.project(body.points(inner)), lit)
        hull = cv2.convexHull(np.vstack([face_ring, back_ring]).astype(np.float32)).reshape(-1, 2)
        cv2.fillConvexPoly(self.ids, np.round(hull).astype(np.int32), index + 1)
        return hull, cap_quad, face_seen

    def _face(self, face: np.ndarray, quad: np.ndarray, lit: float) -> None:
        H, W = self.image.shape[:2]
        x1, y1 = np.floor(quad.min(axis=0)).astype(int)
        x2, y2 = np.ceil(quad.max(axis=0)).astype(int) + 1
        x1, y1, x2, y2 = max(x1, 0), max(y1, 0), min(x2, W), min(y2, H)
        if x2 - x1 < 2 or y2 - y1 < 2:
            return
        span = quad.max(axis=0) - quad.min(axis=0)
        if span.max() < 0.8 * max(face.shape[:2]):  # shrink first, so the warp does not alias
            scale = max(span.max() / max(face.shape[:2]), 0.05)
            face = cv2.resize(
                face, None, fx=scale * 1.2, fy=scale * 1.2, interpolation=cv2.INTER_AREA
            )
        fh, fw = face.shape[:2]
        src = np.array([[0, 0], [fw, 0], [fw, fh], [0, fh]], np.float32)
        matrix = cv2.getPerspectiveTransform(src, (quad - (x1, y1)).astype(np.float32))
        size = (x2 - x1, y2 - y1)
        warped = cv2.warpPerspective(face, matrix, size, flags=cv2.INTER_LINEAR)
        mask = np.zeros((size[1], size[0]), np.uint8)
        cv2.fillConvexPoly(
            mask, np.round((quad - (x1, y1)) * 16).astype(np.int32), 255, cv2.LINE_AA, 4
        )
        alpha = mask[:, :, None].astype(np.float32) / 255
        region = self.image[y1:y2, x1:x2]
        region[:] = (region * (1 - alpha) + warped * (alpha * lit)).astype(np.uint8)


class _Close:
    """One 3D scene: a camera, bodies laid out on the table, then table, shadows and bodies drawn."""

    def __init__(self, maker: SceneMaker, rng: random.Random) -> None:
        self.maker = maker
        self.rng = rng
        self.bodies: list[_Body] = []
        w = rng.uniform(20, 28)
        self.size = (w, w * rng.uniform(1.28, 1.42), w * rng.uniform(0.55, 0.82))
        self.ivory = rng.uniform(0.4, 0.65)
        self.back = rng.choices(REAL_BACKS, BACK_WEIGHTS)[0]
        self.heights = _HeightMap(700)
        out = SCENE_SIZE if rng.random() < 0.45 else SCENE_SIZE[::-1]
        self.out = (int(out[0]), int(out[1]))
        self.camera: _Camera
        self.stand = False
        self.view: tuple[np.ndarray, float, float]  # target, tilt and azimuth of the camera

    def aim(self, target, extent: float, fill: float, tilt: float, azimuth: float) -> None:  # type: ignore[no-untyped-def]
        """Frame ``extent`` mm across ``fill`` of the picture's width, tiles at most 18% of it."""
        f = max(self.out) * self.rng.uniform(0.72, 0.95)
        distance = f * extent / (fill * self.out[0])
        distance = max(distance, f * self.size[0] / (0.15 * self.out[0]))
        self.camera = _Camera(self.rng, self.out, f, target, distance, tilt, azimuth)
        self.view = (np.asarray(target, np.float64), tilt, azimuth)

    # -- placing ---------------------------------------------------------------------------------
    def add(
        self, x: float, y: float, axes: np.ndarray, code: str | None, slack: float = 0.03
    ) -> bool:
        body = _body_at(x, y, 0.0, axes, self.size, self.ivory, self.back, code)
        under = self.heights.heights(body)
        if under is None or (under > 0.5).mean() > slack:
            return False
        self.heights.put(body)
        self.bodies.append(body)
        return True

    def stack(self, base: _Body) -> bool:
        """Rest a flat tile partly on ``base``."""
        rng = self.rng
        w = self.size[0]
        top = float(base.footprint()[:, 2].max())
        x = base.center[0] + rng.uniform(-0.6, 0.6) * w
        y = base.center[1] + rng.uniform(-0.6, 0.6) * w
        up = rng.random() < 0.55
        axes = _pose("up" if up else "down", rng.uniform(0, 2 * math.pi))
        code = self.code() if up else None
        body = _body_at(x, y, top, axes, self.size, self.ivory, self.back, code, 1)
        under = self.heights.heights(body)
        if under is None or under.max() > top + 0.5 or (under > top - 0.5).mean() < 0.4:
            return False
        self.heights.put(body)
        self.bodies.append(body)
        return True

    def code(self) -> str:
        rng = self.rng
        if rng.random() < 0.06:
            return rng.choice(FLOWER_CODES)
        return self.maker.mahjong_code(rng)

    def pile(self, count: int, spread: float, centre=(0.0, 0.0), backs: float = 0.4) -> None:  # type: ignore[no-untyped-def]
        rng = self.rng
        w = self.size[0]
        placed = 0
        squash = rng.uniform(0.6, 1.0)
        for _ in range(count * 5):
            if placed >= count:
                break
            r = spread * math.sqrt(rng.random())
            a = rng.uniform(0, 2 * math.pi)
            x, y = centre[0] + r * math.cos(a), centre[1] + r * math.sin(a) * squash
            kind = rng.choices(("up", "down", "side", "stand"), (1 - backs, backs, 0.16, 0.04))[0]
            yaw = rng.uniform(0, 2 * math.pi)
            axes = _pose(kind, yaw)
            code = self.code() if kind != "down" else None
            if kind in ("side", "stand"):
                look = self.camera.sees(np.array((x, y, w / 2)), axes[:, 2])
                if abs(look) < 0.3:  # the face seen edge on: lay it flat instead
                    axes = _pose("up", yaw)
                elif look < 0:
                    code = None
            if self.add(x, y, axes, code, 0.04):
                placed += 1
        flat = [b for b in self.bodies if abs(b.axes[2, 2]) > 0.9 and b.layer == 0]
        for _ in range(int(len(flat) * rng.uniform(0.0, 0.3))):
            self.stack(rng.choice(flat))

    def row(
        self,
        codes: list[str | None],
        x: float,
        y: float,
        yaw: float = 0.0,
        stand: bool = False,
        sideways: int = -1,
    ) -> float:
        """Tiles side by side along ``yaw`` (faces toward -y turned by yaw); returns the length."""
        rng = self.rng
        w, h, d = self.size
        ux, uy = math.cos(yaw), math.sin(yaw)
        fx, fy = uy, -ux  # toward the front (the player)
        pos = 0.0
        for i, code in enumerate(codes):
            turned = i == sideways
            # A standing tile is as wide along the row as a flat one: its face looks forward.
            # (Until session 10 the step was its depth, so every other standing tile overlapped
            # the one before and was dropped: standing rows had gaps no real hand has.)
            step = h if turned else w
            along = pos + step / 2
            cx, cy = x + along * ux, y + along * uy
            if turned:
                cx, cy = cx + fx * (h - w) / 2, cy + fy * (h - w) / 2
                kind = "up" if code else "down"
                axes = _pose(kind, yaw + math.pi / 2 * rng.choice((1, -1)))
            elif stand:
                toward = np.array((fx, fy, 0.0))
                axes = _pose("stand", 0.0, toward if code else -toward)
            else:
                axes = _pose("up" if code else "down", yaw + math.radians(rng.uniform(-2, 2)))
            if stand and not turned:
                cx, cy = cx - fx * (h - d) / 2, cy - fy * (h - d) / 2
            self.add(cx, cy, axes, code, 0.2)
            pos += step + rng.uniform(0.1, 1.2)
        return pos

    # -- layouts ---------------------------------------------------------------------------------
    def scattered(self) -> None:
        rng = self.rng
        w, h, _ = self.size
        count = rng.choice((rng.randint(3, 12), rng.randint(12, 40), rng.randint(30, 70)))
        spread = math.sqrt(count * w * h * rng.uniform(1.4, 3.2) / math.pi)
        fill = rng.uniform(0.5, 1.3)
        self.aim(
            (rng.uniform(-0.2, 0.2) * spread, rng.uniform(-0.2, 0.2) * spread, 0),
            2 * spread,
            fill,
            math.radians(
                rng.uniform(50, 76) if rng.random() < LOW_VIEW_SHARE else rng.uniform(0, 42)
            ),
            rng.uniform(0, 2 * math.pi),
        )
        if rng.random() < 0.4:  # a short row or two beside the pile
            for _ in range(rng.randint(1, 2)):
                n = rng.randint(3, 9)
                yaw = rng.uniform(-0.3, 0.3) + rng.choice((0, math.pi / 2, math.pi))
                alternate = rng.random() < 0.3
                codes = [None if alternate and k % 2 else self.code() for k in range(n)]
                a = rng.uniform(0, 2 * math.pi)
                r = spread + rng.uniform(0.5, 1.5) * h
                self.row(codes, r * math.cos(a) - n * w / 2, r * math.sin(a), yaw)
        self.pile(count, spread, backs=rng.uniform(0.25, 0.6))

    def hand(self) -> None:
        rng = self.rng
        w, h, _ = self.size
        n = rng.randint(13, 17) if rng.random() < 0.8 else rng.randint(3, 12)
        stand = self.stand
        codes: list[str | None] = [self.code() for _ in range(n)]
        length = n * (w + 0.7)
        x0 = -length / 2
        end = self.row(codes[:-1], x0, 0.0, 0.0, stand)
        self.row(codes[-1:], x0 + end + rng.uniform(0.3, 1.0) * w, 0.0, 0.0, stand)
        mx, my = x0, -h * rng.uniform(1.4, 2.0) - (h if stand else 0)
        for _ in range(rng.randint(0, 4)):
            kind = rng.choice(("chi", "pon", "kong", "concealed"))
            size = 4 if kind in ("kong", "concealed") else 3
            code = self.code()
            melds: list[str | None] = [
                None if kind == "concealed" and j in (0, size - 1) else code for j in range(size)
            ]
            side = rng.randrange(size) if kind != "concealed" and rng.random() < 0.7 else -1
            mx += self.row(melds, mx, my, 0.0, False, side) + w * rng.uniform(0.4, 1.0)
            if mx > length / 2:
                break
        for _ in range(rng.randint(0, 4)):  # flowers set aside, beyond the hand
            fx = rng.uniform(-length / 2, length / 2)
            fy = rng.choice((rng.uniform(1.2, 2.5), rng.uniform(-4.0, -3.0))) * h
            self.add(
                fx, fy, _pose("up", math.radians(rng.uniform(-25, 25))), rng.choice(FLOWER_CODES)
            )
        if rng.random() < 0.3:  # the wall or discards: a loose heap nearby
            self.pile(rng.randint(4, 14), 3 * w, (rng.uniform(-1, 1) * length / 2, 4.5 * h))

    def aim_hand(self) -> None:
        rng = self.rng
        w, h, _ = self.size
        low = rng.random() < LOW_VIEW_SHARE  # from a chair: the room beyond the table shows
        self.stand = rng.random() < (0.7 if low else 0.3)  # a standing hand, faces to the camera
        azimuth = math.pi / 2 + math.radians(rng.uniform(-15, 15))
        if rng.random() < 0.25 and not self.stand:
            azimuth += rng.choice((math.pi / 2, math.pi, -math.pi / 2))
        if low:
            tilt = rng.uniform(62, 84)
        else:
            tilt = rng.uniform(35, 55) if self.stand else rng.uniform(0, 45)
        self.aim(
            (rng.uniform(-0.1, 0.1) * 18 * w, -h * rng.uniform(0.0, 1.0), 0),
            17.5 * w,
            rng.uniform(0.55, 1.5),
            math.radians(tilt),
            azimuth,
        )

    # -- drawing ---------------------------------------------------------------------------------
    def render(self) -> tuple[np.ndarray, list[PlacedTile]]:
        rng, camera = self.rng, self.camera
        out_w, out_h = self.out
        image = self._table()
        light = np.array((rng.uniform(-0.6, 0.6), rng.uniform(-0.6, 0.6), 1.0))
        light /= np.linalg.norm(light)
        self._shadows(image, light)
        if self.bodies and self.view[1] > math.radians(ROOM_TILT) and rng.random() < 0.85:
            self._room_beyond(image)
        renderer = _Renderer(image, camera, light, rng)
        order = sorted(
            range(len(self.bodies)),
            key=lambda i: (
                self.bodies[i].layer,
                -np.linalg.norm(self.bodies[i].center - camera.position),
            ),
        )
        drawn = {}
        for i in order:
            body = self.bodies[i]
            face = self.maker.faces.face(body.code, rng) if body.code else None
            drawn[i] = renderer.draw(body, i, face)
        counts = np.bincount(renderer.ids.ravel(), minlength=len(self.bodies) + 1)
        frame = np.array([[0, 0], [out_w, 0], [out_w, out_h], [0, out_h]], np.float32)
        placed = []
        for i, body in enumerate(self.bodies):
            hull, cap, face_seen = drawn[i]
            area, _ = cv2.intersectConvexConvex(hull.astype(np.float32), frame)
            if area < 30 or counts[i + 1] < 0.4 * area:
                continue  # hidden by others (or outside)
            tile = PlacedTile(body.code if face_seen else None, hull.astype(np.float32), cap, False)
            if _inside(tile, out_w, out_h):
                placed.append(tile)
        return image, placed

    def _table(self) -> np.ndarray:
        rng = self.rng
        size = 1024
        texture = np.ascontiguousarray(table_surface(rng, size))
        scale = rng.uniform(0.6, 1.0)  # mm a texture pixel
        if self.bodies and rng.random() < 0.45:
            pts = np.vstack([b.footprint()[:, :2] for b in self.bodies]) / scale + size / 2
            x1, y1 = pts.min(axis=0) - 30
            x2, y2 = pts.max(axis=0) + 30
            clutter(texture, rng, (int(x1), int(y1), int(x2), int(y2)))
        to_table = np.array(
            [[scale, 0, -size / 2 * scale], [0, scale, -size / 2 * scale], [0, 0, 1]]
        )
        matrix = self.camera.table_homography() @ to_table
        return cv2.warpPerspective(
            texture, matrix, self.out, flags=cv2.INTER_LINEAR, borderMode=cv2.BORDER_REFLECT_101
        )

    def _room_beyond(self, image: np.ndarray) -> None:
        """The table ends: past its far edge (and its sides) the room shows, and sometimes the
        floor before its near edge. A camera held low sees the horizon; the table is a finite
        rectangle around the tiles, square to the camera's view."""
        rng, camera = self.rng, self.camera
        target, _tilt, azimuth = self.view
        forward = np.array((math.cos(azimuth), math.sin(azimuth)))
        side = np.array((-forward[1], forward[0]))
        corners = np.vstack([b.footprint()[:, :2] for b in self.bodies]) - target[:2]
        along, across = corners @ forward, corners @ side  # the tiles stay on the table
        w = self.size[0]
        far = along.max() + rng.choice((rng.uniform(1.5, 6), rng.uniform(6, 40))) * w
        near = along.min() - rng.uniform(2, 25) * w if rng.random() < 0.3 else -np.inf
        half = np.abs(across).max() + rng.uniform(3, 60) * w
        height, width = image.shape[:2]
        masks = table_edges(camera, target[:2], forward, (far, near, half), (width, height))
        if masks[0].any():
            _lay_over(image, room(rng, width, height).astype(np.float32), masks[0])
        if masks[1].any():  # the floor, well below the table top: darker, out of focus
            floor = cv2.GaussianBlur(background(rng, width, height), (0, 0), rng.uniform(2, 6))
            _lay_over(image, floor.astype(np.float32) * rng.uniform(0.45, 0.8), masks[1])

    def _shadows(self, image: np.ndarray, light: np.ndarray) -> None:
        """Soft cast shadows away from the light and a dark contact line under each body."""
        rng, camera = self.rng, self.camera
        small = 4
        h, w = image.shape[:2]
        cast = np.zeros((h // small, w // small), np.float32)
        contact = np.zeros_like(cast)
        for body in self.bodies:
            corners = body.footprint()
            shifted = corners - corners[:, 2:3] * np.array(
                (light[0] / light[2], light[1] / light[2], 1.0)
            )
            pts = camera.project(np.vstack([shifted, corners * (1, 1, 0)])) / small
            cv2.fillConvexPoly(cast, cv2.convexHull(np.round(pts).astype(np.int32)), 1.0)
            base = camera.project(corners * (1, 1, 0)) / small
            cv2.fillConvexPoly(contact, cv2.convexHull(np.round(base).astype(np.int32)), 1.0)
        tile_px = camera.f * self.size[0] / np.linalg.norm(camera.position) / small
        cast = cv2.GaussianBlur(cast, (0, 0), max(1.0, float(tile_px * rng.uniform(0.1, 0.35))))
        contact = cv2.GaussianBlur(contact, (0, 0), max(0.8, float(tile_px * 0.06)))
        dark = np.clip(cast * rng.uniform(0.25, 0.55) + contact * 0.3, 0, 0.8)
        dark = cv2.resize(dark, (w, h), interpolation=cv2.INTER_LINEAR)
        image[:] = (image * (1 - dark[:, :, None])).astype(np.uint8)


def _lay_over(image: np.ndarray, layer: np.ndarray, mask: np.ndarray) -> None:
    """``layer`` over ``image`` (in place) where ``mask`` (0-1 floats) says."""
    alpha = mask[:, :, None]
    image[:] = (image * (1 - alpha) + layer * alpha).astype(np.uint8)


def _finish(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Warm indoor light and a little hand shake, before the camera's own noise and JPEG."""
    out = image.astype(np.float32)
    if rng.random() < 0.7:
        out *= np.array((rng.uniform(0.8, 0.95), rng.uniform(0.93, 1.0), rng.uniform(1.0, 1.08)))
    image = np.clip(out, 0, 255).astype(np.uint8)
    if rng.random() < 0.25:
        length = rng.randint(3, 9)
        kernel: np.ndarray = np.zeros((length, length), np.float32)
        kernel[length // 2, :] = 1 / length
        rot = cv2.getRotationMatrix2D((length / 2 - 0.5, length / 2 - 0.5), rng.uniform(0, 180), 1)
        kernel = cv2.warpAffine(kernel, rot, (length, length))
        image = cv2.filter2D(image, -1, kernel / max(kernel.sum(), 1e-6))
    return _light(image, rng)
