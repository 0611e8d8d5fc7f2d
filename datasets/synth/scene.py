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

from datasets.synth.backgrounds import background
from datasets.synth.faces import FaceLibrary
from scoring.tiles import ALL_TILES

SCENE_SIZE = (1280, 960)
BACK_COLOURS = [(40, 190, 235), (60, 160, 40), (170, 110, 30), (40, 60, 200), (230, 230, 230)]
MAHJONG_CODES = [t.code for t in ALL_TILES if not t.is_piece and not t.is_flower]
FLOWER_CODES = [t.code for t in ALL_TILES if t.is_flower]
PIECE_CODES = [t.code for t in ALL_TILES if t.is_piece]


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
        return abs(dx) > abs(dy)

    def detector_class(self) -> int:
        if self.piece:
            return 4
        base = 2 if self.code is None else 0
        return base + (1 if self.rotated else 0)


def _tile_sprite(
    face: np.ndarray, width: int, rng: random.Random, back: tuple[int, int, int], down: bool
) -> tuple[np.ndarray, np.ndarray, np.ndarray]:
    """A tile seen from above and a little in front: face, ivory body, coloured back layer.

    Returns the sprite (BGRA), the corners of the whole tile, the corners of the face.
    """
    height = int(width * rng.uniform(1.28, 1.42))
    depth = int(width * rng.uniform(0.12, 0.3))  # visible thickness toward the camera
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
    return (out[:, :2] / out[:, 2:3]).astype(np.float32)


class SceneMaker:
    """Makes scenes from a face library; deterministic for a given ``random.Random``."""

    def __init__(self, faces: FaceLibrary) -> None:
        self.faces = faces

    def make(self, rng: random.Random) -> tuple[np.ndarray, list[PlacedTile]]:
        width, height = SCENE_SIZE
        canvas = background(rng, width, height)
        placed: list[PlacedTile] = []
        if rng.random() < 0.12:
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
    def _place(self, canvas, rng, placed, code, center, angle, tw, back, down=False):  # type: ignore[no-untyped-def]
        face = self.faces.face(code, rng) if code else np.zeros((4, 3, 3), np.uint8)
        sprite, quad, face_quad = _tile_sprite(face, tw, rng, back, down)
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
        back = rng.choice(BACK_COLOURS)
        th = int(tw * 1.35)
        angle = rng.uniform(-6, 6)
        x = rng.uniform(40, max(41, width - (n + 6) * tw - 40))
        y = rng.uniform(th + 20, height - 2.5 * th - 20)
        bend = rng.uniform(-0.004, 0.004)
        codes = [rng.choice(MAHJONG_CODES) for _ in range(n)]
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
            code = rng.choice(MAHJONG_CODES)
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
        back = rng.choice(BACK_COLOURS)
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
    return iw * ih > share * smaller


def _inside(tile: PlacedTile, width: int, height: int) -> bool:
    x1, y1, x2, y2 = tile.box()
    cx1, cy1, cx2, cy2 = max(x1, 0), max(y1, 0), min(x2, width), min(y2, height)
    if cx2 <= cx1 or cy2 <= cy1:
        return False
    return (cx2 - cx1) * (cy2 - cy1) > 0.6 * (x2 - x1) * (y2 - y1)


def _light(image: np.ndarray, rng: random.Random) -> np.ndarray:
    """Uneven light, a shadow, glare, blur, noise: what a real camera adds."""
    h, w = image.shape[:2]
    out = image.astype(np.float32)
    gx, gy = np.meshgrid(np.linspace(-1, 1, w), np.linspace(-1, 1, h))
    a, b = rng.uniform(-0.35, 0.35), rng.uniform(-0.35, 0.35)
    out *= (1 + a * gx + b * gy)[:, :, None] * rng.uniform(0.7, 1.25)
    tint = np.array([rng.uniform(0.88, 1.1) for _ in range(3)], np.float32)
    out *= tint
    if rng.random() < 0.4:  # a soft shadow (a hand, a phone)
        mask = np.zeros((h, w), np.float32)
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
    return cv2.imdecode(buf, cv2.IMREAD_COLOR) if ok else out
