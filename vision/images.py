"""Reading photos: EXIF orientation applied, colour order settled here and nowhere else.

Everything inside ``vision`` holds images as OpenCV does (BGR, uint8, height x width x 3); the
conversion to the colour order a model was trained on happens in ``to_model_colours`` only. Bad files are
refused with one line naming them, before any pixel is decoded where the header already tells.
"""

from __future__ import annotations

import math
import stat
import struct
from dataclasses import dataclass
from pathlib import Path

import cv2
import numpy as np

from vision import MAX_PIXELS, decoder_messages
from vision.errors import ImageError

PNG_SIGNATURE = b"\x89PNG\r\n\x1a\n"
PNG_END = b"IEND"  # the last chunk of every PNG (then its checksum)
MAX_FILE_BYTES = 80 * 1024 * 1024

KEEP_LONG_SIDE = 2000
"""The fewest pixels a photo read for tiles keeps on its long side (``load_photo``).

The models are measured on real photos 2048 pixels long, where a hand across the frame is 100-150
pixels a tile: twice the classifier's 64-pixel input, and the detector sees the photo at 640. A
12-megapixel JPEG (4000 pixels) decoded at half its size keeps that much, and libjpeg decodes it
at half size by scaling its DCT blocks, in under half the time of the whole photo (docs/vision.md,
"Speed"). More pixels than this are only shrunk away again before either model sees them."""

JPEG_REDUCTIONS = (
    (8, cv2.IMREAD_REDUCED_COLOR_8),
    (4, cv2.IMREAD_REDUCED_COLOR_4),
    (2, cv2.IMREAD_REDUCED_COLOR_2),
)
"""The sizes libjpeg decodes at directly (1/8, 1/4, 1/2), largest reduction first."""

_JPEG_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def load_image(path: Path | str) -> np.ndarray:
    """The photo at ``path`` as BGR uint8, whole, turned upright by its EXIF orientation."""
    return decode_image(_read_bytes(Path(path)), str(path))


def _read_bytes(path: Path) -> bytes:
    """The file's bytes, or a one-line error naming why not."""
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not a photo")
    try:
        found = path.stat()
        # A device or a pipe says no size and may never end (/dev/zero, a FIFO nobody writes).
        if not stat.S_ISREG(found.st_mode):
            raise ImageError(f"{path}: not a file (a device or a pipe), not a photo")
        if found.st_size > MAX_FILE_BYTES:
            raise ImageError(f"{path}: {found.st_size // 2**20} MB is too large for a photo")
        with path.open("rb") as file:
            data = file.read(MAX_FILE_BYTES + 1)  # a file still growing is read no further
        if len(data) > MAX_FILE_BYTES:
            raise ImageError(
                f"{path}: more than {MAX_FILE_BYTES // 2**20} MB, too large for a photo"
            )
        return data
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except OSError as error:
        raise ImageError(f"{path}: cannot be read ({error.strerror or error})") from None


@dataclass(frozen=True)
class Photo:
    """A photo decoded for reading: ``pixels`` (BGR, upright) may be smaller than the photo
    itself, ``width`` x ``height`` (upright); boxes found in ``pixels`` times ``scale`` are in
    the photo's own pixels, the coordinates every JSON output speaks."""

    pixels: np.ndarray
    width: int
    height: int

    @property
    def scale(self) -> tuple[float, float]:
        """Photo pixels per decoded pixel, across and down (1.0 when decoded whole)."""
        return self.width / self.pixels.shape[1], self.height / self.pixels.shape[0]


def load_photo(path: Path | str, keep_long_side: int = KEEP_LONG_SIDE) -> Photo:
    """The photo at ``path`` decoded for reading tiles: a JPEG larger than ``keep_long_side``
    is decoded at the smallest of 1/2, 1/4, 1/8 of its size that keeps that many pixels on its
    long side; anything else whole, as ``load_image`` does. The same one-line errors."""
    return decode_photo(_read_bytes(Path(path)), str(path), keep_long_side)


def decode_photo(data: bytes, name: str, keep_long_side: int = KEEP_LONG_SIDE) -> Photo:
    """Image bytes to a ``Photo`` (``load_photo``)."""
    _check(data, name)
    stored = header_size(data) if _is_jpeg(data) else None
    flag = _reduced_decode(stored, keep_long_side)
    image = _decode(data, name, cv2.IMREAD_COLOR if flag is None else flag)
    if stored is None or flag is None:
        return Photo(image, image.shape[1], image.shape[0])
    # The header gives the stored size; the orientation tag may have turned it a quarter
    # (IMREAD_REDUCED_* applies the tag as IMREAD_COLOR does).
    width, height = stored
    if (width > height) != (image.shape[1] > image.shape[0]):
        width, height = height, width
    return Photo(image, width, height)


def _reduced_decode(stored: tuple[int, int] | None, keep_long_side: int) -> int | None:
    """The OpenCV flag of the largest JPEG reduction that keeps ``keep_long_side`` pixels on
    the long side, or None for none."""
    if stored is None:
        return None
    for factor, flag in JPEG_REDUCTIONS:
        if math.ceil(max(stored) / factor) >= keep_long_side:
            return flag
    return None


def decode_image(data: bytes, name: str) -> np.ndarray:
    """Image bytes (JPEG, PNG, or anything OpenCV reads) to BGR with EXIF orientation applied."""
    _check(data, name)
    # IMREAD_COLOR applies the EXIF orientation tag, so a phone photo comes out upright.
    return _decode(data, name, cv2.IMREAD_COLOR)


def _decode(data: bytes, name: str, flag: int) -> np.ndarray:
    complaints: list[str] = []
    try:
        with decoder_messages.caught(complaints):
            image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), flag)
    except cv2.error:  # its header claims more than OpenCV's limit (vision/__init__.py)
        raise ImageError(f"{name}: too many pixels for a photo") from None
    damage = [c for c in complaints if not decoder_messages.padded_end(c, data)]
    if damage:  # decoded all the same, damage and all
        raise ImageError(f"{name}: the image file is damaged ({damage[0]})")
    if image is None or image.size == 0:
        raise ImageError(f"{name}: not a readable image (unsupported, damaged or truncated file)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:  # formats whose header we do not parse
        raise ImageError(f"{name}: {image.shape[1]}x{image.shape[0]} pixels is too large")
    return image


def _check(data: bytes, name: str) -> None:
    """Refuse what the bytes' header already tells is no photo to decode."""
    if not data:
        raise ImageError(f"{name}: the file is empty")
    size = header_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name}: {size[0]}x{size[1]} pixels is too large for a photo")
    if _is_jpeg(data) and _jpeg_is_truncated(data):
        # libjpeg fills a cut-off JPEG with grey and only warns; a half-grey photo reads as
        # missing tiles, so it is refused here.
        raise ImageError(f"{name}: the image file is truncated")
    if data[:8] == PNG_SIGNATURE and PNG_END not in data[-64:]:
        # Cut off before its end chunk: refused here, not by libpng, which prints its own
        # line ("libpng error: ...") before ours.
        raise ImageError(f"{name}: the image file is truncated")


def to_model_colours(image_bgr: np.ndarray, channel_order: str = "RGB") -> np.ndarray:
    """The one place colour order changes: ultralytics models are trained on RGB."""
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB) if channel_order == "RGB" else image_bgr


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG or PNG header without decoding pixels; None for other formats."""
    if data[:8] == PNG_SIGNATURE and len(data) >= 24 and data[12:16] == b"IHDR":
        width, height = struct.unpack(">II", data[16:24])
        return width, height
    if _is_jpeg(data):
        for marker, start, _ in _jpeg_segments(data):
            if marker in _JPEG_SOF_MARKERS and start + 5 <= len(data):
                height, width = struct.unpack(">HH", data[start + 1 : start + 5])
                return width, height
    return None


def _is_jpeg(data: bytes) -> bool:
    return data[:2] == b"\xff\xd8"


def _jpeg_segments(data: bytes):  # type: ignore[no-untyped-def]
    """(marker, payload start, payload end) of each header segment up to the first scan.

    Walking by segment lengths skips the EXIF thumbnail (a whole JPEG inside APP1), whose own
    markers would otherwise be mistaken for the photo's.
    """
    position = 2
    while position + 4 <= len(data):
        if data[position] != 0xFF:
            return
        marker = data[position + 1]
        if marker == 0xFF:  # fill byte
            position += 1
            continue
        length = struct.unpack(">H", data[position + 2 : position + 4])[0]
        start, end = position + 4, position + 2 + length
        yield marker, start, end
        if marker == 0xDA:  # start of scan: entropy-coded data follows, no more lengths
            return
        position = end


def _jpeg_is_truncated(data: bytes) -> bool:
    """True when the end-of-image marker never follows the first scan.

    Entropy-coded data stuffs every 0xFF byte, so 0xFFD9 after the scan can only be the real end
    (trailers that phones append after it, such as depth maps, do not matter).
    """
    scan_start = None
    for marker, start, _ in _jpeg_segments(data):
        if marker == 0xDA:
            scan_start = start
    if scan_start is None:
        return True
    return data.find(b"\xff\xd9", scan_start) == -1
