"""Helper for hand-labelling the real tile photos (datasets/real/labels/*.json).

No photos are stored in the repository: every command reads them from --photos
(default ../shared/data/real-photos-unlabeled relative to the repo root) and writes
its PNGs to --out (default /tmp/labelwork).

Commands
  propose NAME            classical-CV box proposals (white faces / yellow backs)
                          -> OUT/NAME.prop.txt in the spec format below
  overview NAME SPEC      downscaled photo with the spec's boxes and indices drawn
  sheet NAME SPEC         contact sheet of the boxed crops with their indices/codes
  zoom NAME x1 y1 x2 y2 [spec SPEC] [nogrid]
                          crop of the original photo with coordinate ticks (+ the spec's boxes)
  grid NAME               downscaled photo with a coordinate grid (original pixels)
  compile NAME SPEC       spec -> datasets/real/labels/NAME.json
  render NAME             overlay of the committed label (final check)
  stats                   tile counts per code over all labels

Spec format (one tile per line, '#' starts a comment):
  CODE x1 y1 x2 y2 [r]    CODE = tile code, 'b' (face down), 'other', or '?' (not yet read);
                          a trailing 'r' marks a rotated (sideways) tile.
  notes: free text        (may appear several times; joined with spaces)
  @ X0 Y0 SCALE           following boxes are given in zoom-view pixels (original = X0 + x/SCALE)
"""

from __future__ import annotations

import argparse
import json
import re
import sys
from collections import Counter
from collections.abc import Iterable, Sequence
from pathlib import Path
from typing import Any

import cv2
import numpy as np

REPO = Path(__file__).resolve().parents[3]
PHOTOS = REPO.parent / "shared" / "data" / "real-photos-unlabeled"
LABELS = REPO / "datasets" / "real" / "labels"
TILE_SET = "chinese-american-1"

# One tile of a spec: code, box (x1, y1, x2, y2 in original pixels), rotated.
SpecTile = tuple[str, list[int], bool]

sys.path.insert(0, str(REPO))


def load(name: str, photos: Path) -> np.ndarray:
    img = cv2.imread(str(photos / f"{name}.jpg"))
    if img is None:
        raise SystemExit(f"cannot read {photos / name}.jpg")
    return img


def parse_spec(path: Path) -> tuple[list[SpecTile], str]:
    tiles: list[SpecTile] = []
    notes: list[str] = []
    ox, oy, sc = 0.0, 0.0, 1.0
    for raw in Path(path).read_text().splitlines():
        if raw.startswith("@"):
            # '@ X0 Y0 SCALE': following boxes are in the coordinates of a zoom view
            # (zoom NAME X0 Y0 ...: original = X0 + x / SCALE); '@' alone resets
            q = raw[1:].split()
            ox, oy, sc = (float(q[0]), float(q[1]), float(q[2])) if q else (0.0, 0.0, 1.0)
            continue
        line = raw.split("#", 1)[0].strip() if not raw.startswith("notes:") else raw.strip()
        if not line:
            continue
        if line.startswith("notes:"):
            notes.append(line[6:].strip())
            continue
        p = line.split()
        code = p[0]
        v = [float(t) for t in p[1:5]]
        box = [
            int(round(ox + v[0] / sc)),
            int(round(oy + v[1] / sc)),
            int(round(ox + v[2] / sc)),
            int(round(oy + v[3] / sc)),
        ]
        rot = len(p) > 5 and p[5] == "r"
        tiles.append((code, box, rot))
    return tiles, " ".join(notes)


def write_spec(path: Path, boxes: Iterable[tuple[str, Sequence[int], bool]]) -> None:
    with open(path, "w") as f:
        for code, (x1, y1, x2, y2), rot in boxes:
            f.write(f"{code} {x1} {y1} {x2} {y2}{' r' if rot else ''}\n")


# ---------------------------------------------------------------- proposals
def propose(img: np.ndarray, min_area_frac: float = 0.0004) -> list[SpecTile]:
    h, w = img.shape[:2]
    scale = 768 / max(h, w)
    small = cv2.resize(img, (int(w * scale), int(h * scale)), interpolation=cv2.INTER_AREA)
    hsv = cv2.cvtColor(small, cv2.COLOR_BGR2HSV)
    hh, ss, vv = hsv[..., 0].astype(int), hsv[..., 1].astype(int), hsv[..., 2].astype(int)
    # faces: bright, low saturation, brighter than the local background
    blur = cv2.GaussianBlur(vv.astype(np.uint8), (0, 0), 25).astype(int)
    white = (ss < 45) & (vv > 170) & (vv > blur + 12)
    # backs: saturated yellow/orange
    yellow = (hh >= 15) & (hh <= 32) & (ss > 110) & (vv > 140)
    out: list[SpecTile] = []
    for mask, kind in ((white, "?"), (yellow, "b")):
        m: np.ndarray = mask.astype(np.uint8) * 255
        m = cv2.morphologyEx(m, cv2.MORPH_OPEN, np.ones((3, 3), np.uint8))
        m = cv2.morphologyEx(m, cv2.MORPH_CLOSE, np.ones((5, 5), np.uint8))
        n, _lab, st, _ = cv2.connectedComponentsWithStats(m)
        for i in range(1, n):
            x, y, bw, bh, area = st[i]
            if area < min_area_frac * small.shape[0] * small.shape[1]:
                continue
            if area < 0.35 * bw * bh:
                continue
            # split a row of touching tiles by the expected aspect ratio
            pieces = [(x, y, bw, bh)]
            if bw > 1.25 * bh / 0.75 * 1.0 and bh > 0:
                k = max(1, round(bw / (0.75 * bh)))
                pieces = [(x + j * bw / k, y, bw / k, bh) for j in range(k)]
            elif bh > 1.6 * bw / 0.75 and bw > 0:
                k = max(1, round(bh / (bw / 0.75)))
                pieces = [(x, y + j * bh / k, bw, bh / k) for j in range(k)]
            for px, py, pw, ph in pieces:
                box = [px / scale, py / scale, (px + pw) / scale, (py + ph) / scale]
                out.append((kind, [int(round(v)) for v in box], False))
    out.sort(key=lambda t: (t[1][1] // 150, t[1][0]))
    return out


def snap_box(
    gray_grad: tuple[np.ndarray, np.ndarray], box: Sequence[int], search: float = 0.08
) -> list[int]:
    """Move each edge of a rough box to the outermost strong intensity edge nearby."""
    gx, gy = gray_grad
    h, w = gx.shape
    x1, y1, x2, y2 = box
    bw, bh = x2 - x1, y2 - y1
    rx, ry = max(4, int(search * bw)), max(4, int(search * bh))
    out = list(box)
    # vertical edges: mean |d/dx| over the middle 60% of the box height
    ya, yb = int(y1 + 0.2 * bh), int(y2 - 0.2 * bh)
    xa, xb = int(x1 + 0.2 * bw), int(x2 - 0.2 * bw)
    for idx, centre, sign in ((0, x1, -1), (2, x2, 1)):
        lo, hi = max(1, centre - rx), min(w - 2, centre + rx)
        if hi <= lo or yb <= ya:
            continue
        prof = gx[ya:yb, lo : hi + 1].mean(axis=0)
        strong = np.where(prof >= 0.9 * prof.max())[0]
        if len(strong) and prof.max() > 8:
            out[idx] = lo + (strong.min() if sign < 0 else strong.max())
    for idx, centre, sign in ((1, y1, -1), (3, y2, 1)):
        lo, hi = max(1, centre - ry), min(h - 2, centre + ry)
        if hi <= lo or xb <= xa:
            continue
        prof = gy[lo : hi + 1, xa:xb].mean(axis=1)
        strong = np.where(prof >= 0.9 * prof.max())[0]
        if len(strong) and prof.max() > 8:
            out[idx] = lo + (strong.min() if sign < 0 else strong.max())
    return [int(v) for v in out]


def gradients(img: np.ndarray) -> tuple[np.ndarray, np.ndarray]:
    g = cv2.GaussianBlur(cv2.cvtColor(img, cv2.COLOR_BGR2GRAY), (0, 0), 1.5).astype(np.float32)
    return np.abs(cv2.Sobel(g, cv2.CV_32F, 1, 0, ksize=3)), np.abs(
        cv2.Sobel(g, cv2.CV_32F, 0, 1, ksize=3)
    )


def row_boxes(x1: int, y1: int, x2: int, y2: int, n: int) -> list[list[int]]:
    return [
        [int(x1 + (x2 - x1) * i / n), y1, int(x1 + (x2 - x1) * (i + 1) / n), y2] for i in range(n)
    ]


# ---------------------------------------------------------------- drawing
def overview(
    img: np.ndarray,
    tiles: Sequence[tuple[str, Sequence[int], bool]],
    width: int = 1400,
    labels: bool = True,
) -> np.ndarray:
    h, w = img.shape[:2]
    s = width / max(h, w)
    o = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    for i, (code, b, rot) in enumerate(tiles):
        x1, y1, x2, y2 = [int(v * s) for v in b]
        col = (0, 0, 255) if code == "?" else ((0, 200, 255) if code == "b" else (0, 180, 0))
        cv2.rectangle(o, (x1, y1), (x2, y2), col, 1)
        if labels:
            t = f"{i}" if code == "?" else f"{i}:{code}{'r' if rot else ''}"
            cv2.putText(
                o, t, (x1 + 1, max(12, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (0, 0, 0), 3
            )
            cv2.putText(
                o, t, (x1 + 1, max(12, y1 - 3)), cv2.FONT_HERSHEY_SIMPLEX, 0.45, (255, 255, 255), 1
            )
    return o


def sheet(
    img: np.ndarray,
    tiles: Sequence[tuple[str, Sequence[int], bool]],
    cell: int = 170,
    cols: int = 6,
    numbered: bool = True,
) -> np.ndarray:
    cells: list[np.ndarray] = []
    h, w = img.shape[:2]
    for i, (code, b, rot) in enumerate(tiles):
        x1, y1, x2, y2 = b
        pad = int(0.08 * max(x2 - x1, y2 - y1))
        c = img[max(0, y1 - pad) : min(h, y2 + pad), max(0, x1 - pad) : min(w, x2 + pad)]
        ch, cw = c.shape[:2]
        s = (cell - 22) / max(ch, cw, 1)
        c = cv2.resize(c, (max(1, int(cw * s)), max(1, int(ch * s))), interpolation=cv2.INTER_AREA)
        canvas = np.full((cell, cell, 3), 40, np.uint8)
        canvas[20 : 20 + c.shape[0], : c.shape[1]] = c
        t = (f"{i} " if numbered else "") + f"{code}{' r' if rot else ''}"
        cv2.putText(canvas, t, (2, 15), cv2.FONT_HERSHEY_SIMPLEX, 0.5, (0, 255, 255), 1)
        cells.append(canvas)
    while len(cells) % cols:
        cells.append(np.full((cell, cell, 3), 40, np.uint8))
    rows = [np.hstack(cells[i : i + cols]) for i in range(0, len(cells), cols)]
    return np.vstack(rows) if rows else np.zeros((10, 10, 3), np.uint8)


def grid(img: np.ndarray, width: int = 1400, step: int = 100) -> np.ndarray:
    h, w = img.shape[:2]
    s = width / max(h, w)
    o = cv2.resize(img, (int(w * s), int(h * s)), interpolation=cv2.INTER_AREA)
    for x in range(0, w, step):
        c = (0, 0, 255) if x % 500 == 0 else (200, 200, 200)
        cv2.line(o, (int(x * s), 0), (int(x * s), o.shape[0]), c, 1)
        if x % 200 == 0:
            cv2.putText(o, str(x), (int(x * s) + 2, 12), 0, 0.4, (0, 0, 255), 1)
    for y in range(0, h, step):
        c = (0, 0, 255) if y % 500 == 0 else (200, 200, 200)
        cv2.line(o, (0, int(y * s)), (o.shape[1], int(y * s)), c, 1)
        if y % 200 == 0:
            cv2.putText(o, str(y), (2, int(y * s) - 2), 0, 0.4, (0, 0, 255), 1)
    return o


def compile_spec(name: str, spec: Path, photos: Path) -> dict[str, Any]:
    from scoring.tiles import tile_from_code  # validates codes

    img = load(name, photos)
    h, w = img.shape[:2]
    tiles, notes = parse_spec(spec)
    out: list[dict[str, Any]] = []
    for code, (x1, y1, x2, y2), rot in tiles:
        if code == "?":
            raise SystemExit(f"unread tile at {[x1, y1, x2, y2]}")
        x1, x2 = sorted((max(0, x1), min(w, x2)))
        y1, y2 = sorted((max(0, y1), min(h, y2)))
        if code == "b":
            entry: dict[str, Any] = {
                "code": None,
                "box": [x1, y1, x2, y2],
                "face_down": True,
                "rotated": rot,
            }
        else:
            if code != "other":
                tile_from_code(code)
                if not re.fullmatch(r"[1-9][mps]|[1-7]z|[1-8]f", code):
                    raise SystemExit(f"code {code!r} is not one of the 59 kinds of this set")
            entry = {"code": code, "box": [x1, y1, x2, y2], "face_down": False, "rotated": rot}
        out.append(entry)
    label: dict[str, Any] = {
        "image": f"{name}.jpg",
        "width": w,
        "height": h,
        "tile_set": TILE_SET,
        "tiles": out,
    }
    if notes:
        label["notes"] = notes
    LABELS.mkdir(parents=True, exist_ok=True)
    (LABELS / f"{name}.json").write_text(json.dumps(label, ensure_ascii=False, indent=1) + "\n")
    return label


def label_tiles(name: str) -> list[SpecTile]:
    lab = json.loads((LABELS / f"{name}.json").read_text())
    return [("b" if t["face_down"] else t["code"], t["box"], t["rotated"]) for t in lab["tiles"]]


def main(argv: list[str] | None = None) -> int:
    ap = argparse.ArgumentParser(
        description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter
    )
    ap.add_argument("cmd")
    ap.add_argument("name", nargs="?")
    ap.add_argument("rest", nargs="*")
    ap.add_argument("--photos", type=Path, default=PHOTOS)
    ap.add_argument("--out", type=Path, default=Path("/tmp/labelwork"))
    ap.add_argument("--width", type=int, default=1400)
    ap.add_argument("--cell", type=int, default=170, help="sheet: cell size in pixels")
    ap.add_argument("--only", default="", help="sheet: comma-separated indices to show")
    ap.add_argument("--cols", type=int, default=6)
    a = ap.parse_args(argv)
    a.out.mkdir(parents=True, exist_ok=True)
    name = a.name[:-4] if a.name and a.name.endswith(".jpg") else a.name
    if a.cmd == "stats":
        counts: Counter[str] = Counter()
        n = 0
        for label_path in sorted(LABELS.glob("*.json")):
            lab = json.loads(label_path.read_text())
            n += 1
            for t in lab["tiles"]:
                counts["back" if t["face_down"] else t["code"]] += 1
        print(f"{n} photos, {sum(counts.values())} tiles")
        for k, v in sorted(counts.items()):
            print(k, v)
        return 0
    img = load(name, a.photos)
    if a.cmd == "propose":
        boxes = propose(img)
        write_spec(a.out / f"{name}.prop.txt", boxes)
        cv2.imwrite(str(a.out / f"{name}.prop.png"), overview(img, boxes, a.width))
        print(len(boxes), "proposals")
    elif a.cmd == "overview":
        tiles, _ = parse_spec(Path(a.rest[0]))
        cv2.imwrite(str(a.out / f"{name}.ov.png"), overview(img, tiles, a.width))
    elif a.cmd == "sheet":
        tiles, _ = parse_spec(Path(a.rest[0]))
        idx = [int(i) for i in a.only.split(",")] if a.only else range(len(tiles))
        sel = [(f"{i} {tiles[i][0]}", tiles[i][1], tiles[i][2]) for i in idx]
        cv2.imwrite(
            str(a.out / f"{name}.sheet.png"), sheet(img, sel, a.cell, a.cols, numbered=False)
        )
    elif a.cmd == "zoom":
        x1, y1, x2, y2 = map(int, a.rest[:4])
        c = img[y1:y2, x1:x2]
        s = min(a.width / max(c.shape[:2]), 4)
        z = cv2.resize(c, None, fx=s, fy=s, interpolation=cv2.INTER_AREA)
        step = 10 if (x2 - x1) <= 300 else (25 if (x2 - x1) <= 700 else 50)
        if "nogrid" not in a.rest:
            for x in range((x1 // step + 1) * step, x2, step):
                X = int((x - x1) * s)
                strong = x % (step * 4) == 0
                cv2.line(z, (X, 0), (X, 6 if not strong else 14), (0, 0, 255), 1)
                cv2.line(
                    z, (X, z.shape[0] - (6 if not strong else 14)), (X, z.shape[0]), (0, 0, 255), 1
                )
                if strong:
                    cv2.putText(z, str(x), (X + 2, 26), 0, 0.45, (0, 0, 255), 1)
            for y in range((y1 // step + 1) * step, y2, step):
                Y = int((y - y1) * s)
                strong = y % (step * 4) == 0
                cv2.line(z, (0, Y), (6 if not strong else 14, Y), (0, 0, 255), 1)
                cv2.line(
                    z, (z.shape[1] - (6 if not strong else 14), Y), (z.shape[1], Y), (0, 0, 255), 1
                )
                if strong:
                    cv2.putText(z, str(y), (16, Y + 4), 0, 0.45, (0, 0, 255), 1)
        if len(a.rest) > 4 and a.rest[4] == "spec":
            tiles, _ = parse_spec(Path(a.rest[5]))
            for i, (code, b, _rot) in enumerate(tiles):
                p1 = (int((b[0] - x1) * s), int((b[1] - y1) * s))
                p2 = (int((b[2] - x1) * s), int((b[3] - y1) * s))
                cv2.rectangle(z, p1, p2, (0, 255, 0), 1)
                cv2.putText(z, f"{i}:{code}", (p1[0] + 2, p1[1] + 14), 0, 0.45, (0, 0, 0), 3)
                cv2.putText(z, f"{i}:{code}", (p1[0] + 2, p1[1] + 14), 0, 0.45, (0, 255, 0), 1)
        cv2.imwrite(str(a.out / f"{name}.zoom.png"), z)
        print(f"@ {x1} {y1} {s:.4f}")
    elif a.cmd == "grid":
        cv2.imwrite(str(a.out / f"{name}.grid.png"), grid(img, a.width))
    elif a.cmd == "snap":
        # snap SPEC: lines may also be 'row CODE1,CODE2,... x1 y1 x2 y2' (a row split evenly,
        # CODE^ = rotated); a line containing '!' is kept as it is (not snapped)
        spec = Path(a.rest[0])
        lines, grads = [], gradients(img)
        for raw in spec.read_text().splitlines():
            body = raw.split("#", 1)[0].strip()
            p = body.split()
            if p and p[0] == "row":
                codes = p[1].split(",")
                x1, y1, x2, y2 = (int(v) for v in p[2:6])
                for code, b in zip(codes, row_boxes(x1, y1, x2, y2, len(codes)), strict=False):
                    rot = code.endswith("^")
                    code = code.rstrip("^")
                    nb = snap_box(grads, b)
                    lines.append(f"{code} {nb[0]} {nb[1]} {nb[2]} {nb[3]}{' r' if rot else ''}")
            elif p and not body.startswith("notes:") and "!" not in raw:
                nb = snap_box(grads, [int(v) for v in p[1:5]])
                lines.append(" ".join([p[0]] + [str(v) for v in nb] + p[5:]))
            else:
                lines.append(
                    raw.replace("!", "").rstrip() if not body.startswith("notes:") else raw
                )
        out = spec.with_suffix(".snap.txt")
        out.write_text("\n".join(lines) + "\n")
        print("wrote", out)
    elif a.cmd == "compile":
        lab = compile_spec(name, Path(a.rest[0]), a.photos)
        print(f"{len(lab['tiles'])} tiles written")
    elif a.cmd == "render":
        t = label_tiles(name)
        cv2.imwrite(str(a.out / f"{name}.final.png"), overview(img, t, a.width))
        cv2.imwrite(str(a.out / f"{name}.finalsheet.png"), sheet(img, t))
    else:
        ap.error(f"unknown command {a.cmd}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
