"""Loading photos: EXIF orientation honoured, bad files give one-line errors naming them."""

from pathlib import Path

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.detection import Detection, PhotoReading
from vision.errors import ImageError
from vision.images import KEEP_LONG_SIDE, load_image, load_photo


def test_exif_rotated_photo_comes_out_upright(tmp_path):
    # Stored 40 wide x 20 high with orientation 6 (turn 90° clockwise to view): upright is 20x40.
    pixels = np.zeros((20, 40, 3), np.uint8)
    pixels[:, :20] = (255, 0, 0)
    image = Image.fromarray(pixels)
    exif = image.getexif()
    exif[274] = 6
    path = tmp_path / "rotated.jpg"
    image.save(path, exif=exif)
    assert load_image(path).shape[:2] == (40, 20)


@pytest.mark.parametrize("load", [load_image, load_photo])
@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"not an image at all", "not a readable image"),
    ],
)
def test_bad_files(tmp_path, content, message, load):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=message):
        load(path)


def test_truncated_jpeg(tmp_path):
    _ok, data = cv2.imencode(".jpg", np.full((200, 200, 3), 128, np.uint8))
    path = tmp_path / "cut.jpg"
    path.write_bytes(bytes(data)[: len(data) // 2])
    with pytest.raises(ImageError, match=r"truncated|not a readable"):
        load_image(path)


def test_missing_file_names_the_path(tmp_path):
    with pytest.raises(ImageError, match=r"nope\.jpg: no such file"):
        load_image(tmp_path / "nope.jpg")


def test_absurdly_large_image_is_refused_from_its_header(tmp_path):
    path = tmp_path / "huge.png"
    Image.new("1", (12000, 12000)).save(path)  # 144 megapixels, tiny file
    with pytest.raises(ImageError, match=r"too large"):
        load_image(path)


def test_truncated_png(tmp_path):
    _ok, data = cv2.imencode(
        ".png", np.random.default_rng(0).integers(0, 255, (64, 64, 3), np.uint8)
    )
    path = tmp_path / "cut.png"
    path.write_bytes(bytes(data)[: len(data) // 2])
    # Refused before libpng sees it, which printed "libpng error: ..." before our one line.
    with pytest.raises(ImageError, match=r"cut.png: the image file is truncated"):
        load_image(path)


def test_opencv_says_nothing_of_a_file_it_cannot_decode(tmp_path):
    # A BMP cut in half: OpenCV logged "[ERROR:0@0.8] global loadsave.cpp ..." lines before
    # the one line that names the file; it loads silenced (vision/__init__.py).
    import os
    import subprocess
    import sys

    _ok, data = cv2.imencode(".bmp", np.zeros((100, 100, 3), np.uint8))
    (tmp_path / "cut.bmp").write_bytes(bytes(data)[: len(data) // 2])
    code = "from vision.images import load_image; load_image('cut.bmp')"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    assert "ImageError: cut.bmp: not a readable image" in run.stderr
    assert "[ERROR" not in run.stderr and "loadsave" not in run.stderr


def _noise(suffix: str) -> bytes:
    _ok, data = cv2.imencode(
        suffix, np.random.default_rng(1).integers(0, 255, (96, 96, 3), np.uint8)
    )
    return bytes(data)


def _damaged(data: bytes, start: int, count: int) -> bytes:
    """The file with ``count`` bytes from ``start`` lost (a JPEG's) or zeroed (a PNG's), every
    marker still in place."""
    if data[:2] == b"\xff\xd8":
        return data[:start] + data[start + count :]
    return data[:start] + bytes(count) + data[start + count :]


@pytest.mark.parametrize("suffix", [".jpg", ".png"])
def test_a_photo_damaged_inside_is_refused_and_the_decoder_says_nothing(tmp_path, suffix):
    # Its end marker is there, so it is no truncation: libjpeg decoded a smeared photo and
    # printed "Corrupt JPEG data: ..." before it was read for tiles; libpng printed its error.
    import os
    import subprocess
    import sys

    data = _noise(suffix)
    (tmp_path / f"hurt{suffix}").write_bytes(_damaged(data, len(data) // 2, 300))
    code = f"from vision.images import load_photo; load_photo('hurt{suffix}')"
    run = subprocess.run(
        [sys.executable, "-c", code], capture_output=True, text=True, cwd=tmp_path,
        env=os.environ | {"PYTHONPATH": str(Path(__file__).resolve().parents[2])}, timeout=60,
    )  # fmt: skip
    assert run.returncode == 1
    last = run.stderr.strip().splitlines()[-1]
    assert last.startswith(f"vision.errors.ImageError: hurt{suffix}: the image file is damaged (")
    assert "Corrupt JPEG" not in run.stderr.replace(last, "")
    assert "libpng" not in run.stderr.replace(last, "")


def test_bytes_padded_before_a_jpegs_end_marker_are_no_damage(tmp_path):
    # Some cameras and editors write them; libjpeg says "Corrupt JPEG data: 96 extraneous
    # bytes before marker 0xd9" and decodes the photo byte for byte as without them.
    data = _noise(".jpg")
    padded = tmp_path / "padded.jpg"
    padded.write_bytes(data[:-2] + bytes(100) + data[-2:])
    whole = tmp_path / "whole.jpg"
    whole.write_bytes(data)
    assert (load_image(padded) == load_image(whole)).all()


def test_nothing_is_caught_while_another_thread_runs(capfd):
    # The standard error is the process's: in the table app a camera thread's decoder could
    # speak during a photo's decode and have the photo refused.
    import os
    import threading

    from vision import decoder_messages

    stop = threading.Event()
    other = threading.Thread(target=stop.wait)
    other.start()
    try:
        complaints: list[str] = []
        with decoder_messages.caught(complaints):
            os.write(2, b"Corrupt JPEG data: premature end of data segment\n")
    finally:
        stop.set()
        other.join()
    assert complaints == []
    assert "premature end of data segment" in capfd.readouterr().err


def test_lines_not_the_decoders_are_written_on_and_warnings_dropped(capfd):
    import os

    from vision import decoder_messages

    complaints: list[str] = []
    with decoder_messages.caught(complaints):
        os.write(2, b"another thread's line\nlibpng warning: iCCP: known incorrect sRGB\n")
        os.write(2, b"libpng error: IDAT: CRC error\n")
    assert complaints == ["libpng error: IDAT: CRC error"]
    assert capfd.readouterr().err == "another thread's line\n"


def test_jpeg_cut_after_its_exif_thumbnail_is_truncated(tmp_path):
    # The EXIF thumbnail is a whole JPEG with its own end marker: it must not hide the cut.
    image = Image.fromarray(np.full((300, 300, 3), 90, np.uint8))
    exif = image.getexif()
    exif[274] = 1
    path = tmp_path / "thumb.jpg"
    image.save(path, exif=exif)
    data = path.read_bytes()
    path.write_bytes(data[: len(data) - 40])
    with pytest.raises(ImageError, match=r"truncated"):
        load_image(path)


def test_data_after_the_end_of_a_jpeg_is_fine(tmp_path):
    _ok, data = cv2.imencode(".jpg", np.full((50, 80, 3), 128, np.uint8))
    path = tmp_path / "trailer.jpg"
    path.write_bytes(bytes(data) + b"phone maker trailer" * 20)
    assert load_image(path).shape == (50, 80, 3)


def test_folder_is_not_a_photo(tmp_path):
    with pytest.raises(ImageError, match=r"is a folder"):
        load_image(tmp_path)


def test_a_device_or_a_pipe_is_not_a_photo(tmp_path):
    # Neither says its size, and neither need ever end: /dev/zero was read until memory ran
    # out, and a pipe nobody writes hung the run.
    import os

    fifo = tmp_path / "hand.jpg"
    os.mkfifo(fifo)
    for path in (Path("/dev/zero"), fifo):
        with pytest.raises(ImageError, match=r"not a file \(a device or a pipe\), not a photo"):
            load_photo(path)


def test_large_jpeg_header_is_read_without_decoding(tmp_path):
    from vision.images import header_size

    _ok, data = cv2.imencode(".jpg", np.zeros((30, 70, 3), np.uint8))
    assert header_size(bytes(data)) == (70, 30)


def test_jpeg_bomb_is_refused_from_its_header(tmp_path):
    from vision.images import header_size

    _ok, encoded = cv2.imencode(".jpg", np.zeros((30, 70, 3), np.uint8))
    data = bytearray(encoded)
    sof = data.index(b"\xff\xc0")
    data[sof + 5 : sof + 9] = (20000).to_bytes(2, "big") + (20000).to_bytes(2, "big")
    assert header_size(bytes(data)) == (20000, 20000)
    path = tmp_path / "bomb.jpg"
    path.write_bytes(bytes(data))
    with pytest.raises(ImageError, match=r"bomb.jpg: 20000x20000 pixels is too large"):
        load_image(path)


def _photo(width, height):
    """A photo with content to compare: a gradient and a dark square in its top-left quarter."""
    x = np.linspace(0, 255, width, dtype=np.float32)
    y = np.linspace(0, 255, height, dtype=np.float32)[:, None]
    image = np.stack(
        [
            np.broadcast_to(x, (height, width)),
            np.broadcast_to(y, (height, width)),
            np.full((height, width), 128, np.float32),
        ],
        axis=2,
    ).astype(np.uint8)
    image[height // 8 : height // 4, width // 8 : width // 4] = 20
    return image


def test_a_large_jpeg_is_decoded_at_the_least_size_that_keeps_the_long_side(tmp_path):
    path = tmp_path / "large.jpg"
    cv2.imwrite(str(path), _photo(4000, 3000))
    photo = load_photo(path)
    assert photo.pixels.shape == (1500, 2000, 3) and KEEP_LONG_SIDE == 2000
    assert (photo.width, photo.height) == (4000, 3000) and photo.scale == (2.0, 2.0)
    # The same picture: the whole decode shrunk to that size differs by a grey level or two.
    whole = cv2.resize(load_image(path), (2000, 1500), interpolation=cv2.INTER_AREA)
    assert np.abs(whole.astype(int) - photo.pixels.astype(int)).mean() < 2
    # Asked to keep fewer pixels, it decodes smaller still: 4000 / 8 = 500.
    assert load_photo(path, keep_long_side=500).pixels.shape == (375, 500, 3)
    assert load_photo(path, keep_long_side=501).pixels.shape == (750, 1000, 3)


@pytest.mark.parametrize(
    ("name", "size"), [("small.jpg", (2048, 1536)), ("large.png", (4000, 3000))]
)
def test_a_photo_near_the_size_or_not_a_jpeg_is_decoded_whole(tmp_path, name, size):
    path = tmp_path / name
    cv2.imwrite(str(path), _photo(*size))
    photo = load_photo(path)
    assert photo.pixels.shape[:2] == (size[1], size[0]) and photo.scale == (1.0, 1.0)


def test_a_turned_large_jpeg_is_upright_with_its_upright_size(tmp_path):
    # Stored 4000 wide x 2400 high with orientation 6: upright it is 2400 x 4000.
    image = Image.fromarray(_photo(4000, 2400))
    exif = image.getexif()
    exif[274] = 6
    path = tmp_path / "turned.jpg"
    image.save(path, exif=exif)
    photo = load_photo(path)
    assert photo.pixels.shape[:2] == (2000, 1200)
    assert (photo.width, photo.height) == (2400, 4000) and photo.scale == (2.0, 2.0)
    whole = cv2.resize(load_image(path), (1200, 2000), interpolation=cv2.INTER_AREA)
    assert np.abs(whole.astype(int) - photo.pixels.astype(int)).mean() < 2


def test_a_truncated_large_jpeg_is_refused_before_the_reduced_decode(tmp_path):
    _ok, data = cv2.imencode(".jpg", _photo(4000, 3000))
    path = tmp_path / "cut.jpg"
    path.write_bytes(data.tobytes()[: len(data) // 2])
    with pytest.raises(ImageError, match="truncated"):
        load_photo(path)


def test_a_reading_scaled_to_the_photo_pixels():
    tile = Detection("9p", (10.0, 20.0, 30.0, 50.0), 0.9, 0.95, 0.95, False, False, False)
    reading = PhotoReading((tile,), {"total": 5.0})
    scaled = reading.scaled(2.0, 3.0)
    assert scaled.tiles[0].box == (20.0, 60.0, 60.0, 150.0)
    assert scaled.tiles[0].code == "9p" and scaled.timing_ms == {"total": 5.0}
    assert reading.scaled(1.0, 1.0) is reading
