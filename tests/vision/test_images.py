"""Loading photos: EXIF orientation honoured, bad files give one-line errors naming them."""

import cv2
import numpy as np
import pytest
from PIL import Image

from vision.errors import ImageError
from vision.images import load_image


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


@pytest.mark.parametrize(
    ("content", "message"),
    [
        (b"", "the file is empty"),
        (b"not an image at all", "not a readable image"),
    ],
)
def test_bad_files(tmp_path, content, message):
    path = tmp_path / "bad.jpg"
    path.write_bytes(content)
    with pytest.raises(ImageError, match=message):
        load_image(path)


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
    with pytest.raises(ImageError, match=r"cut.png: not a readable image"):
        load_image(path)


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
