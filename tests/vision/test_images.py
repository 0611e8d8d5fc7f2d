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
    with pytest.raises(ImageError, match="too large"):
        load_image(path)
