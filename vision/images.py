"""Reading photos: EXIF orientation applied, colour order settled here and nowhere else.

Everything inside ``vision`` holds images as OpenCV does (BGR, uint8, height x width x 3); the
conversion to the colour order a model was trained on happens in ``to_model_colours`` only. Bad files are
refused with one line naming them, before any pixel is decoded where the header already tells.
"""

from __future__ import annotations

import struct
from pathlib import Path

import cv2
import numpy as np

from vision.errors import ImageError

# A 12-megapixel photo is 12 M pixels; 80 M is no camera on a table but a decompression bomb
# (a few kilobytes of PNG that would take gigabytes to decode).
MAX_PIXELS = 80_000_000
MAX_FILE_BYTES = 80 * 1024 * 1024

_JPEG_SOF_MARKERS = {0xC0, 0xC1, 0xC2, 0xC3, 0xC5, 0xC6, 0xC7, 0xC9, 0xCA, 0xCB, 0xCD, 0xCE, 0xCF}


def load_image(path: Path | str) -> np.ndarray:
    """The photo at ``path`` as BGR uint8, turned upright by its EXIF orientation."""
    path = Path(path)
    if path.is_dir():
        raise ImageError(f"{path}: is a folder, not a photo")
    try:
        size = path.stat().st_size
        if size > MAX_FILE_BYTES:
            raise ImageError(f"{path}: {size // 2**20} MB is too large for a photo")
        data = path.read_bytes()
    except FileNotFoundError:
        raise ImageError(f"{path}: no such file") from None
    except OSError as error:
        raise ImageError(f"{path}: cannot be read ({error.strerror or error})") from None
    return decode_image(data, str(path))


def decode_image(data: bytes, name: str) -> np.ndarray:
    """Image bytes (JPEG, PNG, or anything OpenCV reads) to BGR with EXIF orientation applied."""
    if not data:
        raise ImageError(f"{name}: the file is empty")
    size = header_size(data)
    if size is not None and size[0] * size[1] > MAX_PIXELS:
        raise ImageError(f"{name}: {size[0]}x{size[1]} pixels is too large for a photo")
    if _is_jpeg(data) and _jpeg_is_truncated(data):
        # libjpeg fills a cut-off JPEG with grey and only warns; a half-grey photo reads as
        # missing tiles, so it is refused here.
        raise ImageError(f"{name}: the image file is truncated")
    # IMREAD_COLOR applies the EXIF orientation tag, so a phone photo comes out upright.
    image = cv2.imdecode(np.frombuffer(data, dtype=np.uint8), cv2.IMREAD_COLOR)
    if image is None or image.size == 0:
        raise ImageError(f"{name}: not a readable image (unsupported, damaged or truncated file)")
    if image.shape[0] * image.shape[1] > MAX_PIXELS:  # formats whose header we do not parse
        raise ImageError(f"{name}: {image.shape[1]}x{image.shape[0]} pixels is too large")
    return image


def to_model_colours(image_bgr: np.ndarray, channel_order: str = "RGB") -> np.ndarray:
    """The one place colour order changes: ultralytics models are trained on RGB."""
    return cv2.cvtColor(image_bgr, cv2.COLOR_BGR2RGB) if channel_order == "RGB" else image_bgr


def header_size(data: bytes) -> tuple[int, int] | None:
    """(width, height) from a JPEG or PNG header without decoding pixels; None for other formats."""
    if data[:8] == b"\x89PNG\r\n\x1a\n" and len(data) >= 24 and data[12:16] == b"IHDR":
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
