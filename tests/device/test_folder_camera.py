"""The folder camera: the laptop's stand-in for the Pi camera, a folder of photos in name order."""

from pathlib import Path

import cv2
import numpy as np
import pytest

from device.camera import CameraError, open_camera


def _jpeg(path: Path, width: int, height: int) -> None:
    pixels = np.zeros((height, width, 3), np.uint8)
    pixels[:, : width // 2] = (40, 120, 200)
    cv2.imwrite(str(path), pixels)


def test_photos_come_in_name_order_and_large_ones_at_the_size_read(tmp_path):
    _jpeg(tmp_path / "a.jpg", 4400, 3300)  # a 14-megapixel phone photo
    _jpeg(tmp_path / "b.jpg", 800, 600)
    (tmp_path / "notes.txt").write_text("not a photo")
    camera = open_camera(f"dir:{tmp_path}")
    assert camera.capture().shape == (1650, 2200, 3)  # decoded at half: 2,000 pixels kept
    assert camera.preview().shape[1] <= 2200
    camera.advance()
    assert camera.capture().shape == (600, 800, 3)
    camera.advance()
    assert camera.capture().shape == (1650, 2200, 3)  # round again


def test_an_empty_folder_is_a_one_line_error(tmp_path):
    with pytest.raises(CameraError, match="has no photos"):
        open_camera(f"dir:{tmp_path}").capture()


def test_a_camera_mounted_rolled_gives_its_frames_turned_upright(tmp_path):
    pixels = np.zeros((300, 400, 3), np.uint8)
    pixels[:100, :] = 255  # the top third white: where the far side of the table is
    cv2.imwrite(str(tmp_path / "a.png"), pixels)
    as_taken = open_camera(f"dir:{tmp_path}").capture()
    for degrees, white in (
        (90, (slice(None), slice(-100, None))),
        (270, (slice(None), slice(100))),
    ):
        turned = open_camera(f"dir:{tmp_path}", degrees)
        frame = turned.capture()
        assert frame.shape == (400, 300, 3) and turned.name.endswith(f"turned {degrees}")
        assert frame[white].min() == 255 and frame.mean() == as_taken.mean()
    half = open_camera(f"dir:{tmp_path}", 180)
    assert half.capture()[-100:].min() == 255 and half.preview().shape == (300, 400, 3)
    half.advance()  # what the folder camera offers, the turned one offers too
    with pytest.raises(CameraError, match="camera turn 45: use 0, 90, 180 or 270 degrees"):
        open_camera(f"dir:{tmp_path}", 45)


def test_a_photo_of_an_extreme_shape_gives_a_preview_of_at_least_a_pixel(tmp_path):
    cv2.imwrite(str(tmp_path / "line.png"), np.full((1, 3000, 3), 200, np.uint8))
    camera = open_camera(f"dir:{tmp_path}")
    assert camera.preview().shape == (1, 640, 3)  # 640 wide, its one row kept, not rounded away
    assert camera.capture().shape == (1, 3000, 3)


def test_a_folder_that_is_a_file_or_goes_away_is_a_camera_error(tmp_path):
    photo = tmp_path / "a.jpg"
    _jpeg(photo, 80, 60)
    with pytest.raises(CameraError, match="is not a folder"):
        open_camera(f"dir:{photo}")
    folder = tmp_path / "photos"
    folder.mkdir()
    _jpeg(folder / "a.jpg", 80, 60)
    camera = open_camera(f"dir:{folder}")
    (folder / "a.jpg").unlink()
    folder.rmdir()  # a stick pulled out: the camera is out, not the data folder
    with pytest.raises(CameraError, match="No such file or directory"):
        camera.preview()


@pytest.mark.parametrize(
    ("spec", "said"),
    [
        ("usb:abc", "usb needs a device number"),
        ("usb:-1", "usb needs a device number"),
        (
            "usb:2147483648",
            "usb needs a device number",
        ),  # past a C int: OpenCV failed on every frame
        ("dir:", "dir needs a folder"),
        ("pi:0", "unknown camera 'pi:0'"),
        ("webcam", "unknown camera 'webcam'"),
    ],
)
def test_a_camera_spec_that_can_never_work_is_one_line(spec, said):
    with pytest.raises(CameraError, match=said):
        open_camera(spec)


def test_hidden_files_and_folders_named_like_photos_are_no_photos(tmp_path):
    # A Mac leaves "._a.jpg" (its metadata, no JPEG) beside each photo copied: it sorted first
    # and the camera failed on it for good.
    _jpeg(tmp_path / "a.jpg", 800, 600)
    (tmp_path / "._a.jpg").write_bytes(b"\x00\x05\x16\x07 not a photo")
    (tmp_path / "b.jpg").mkdir()
    camera = open_camera(f"dir:{tmp_path}")
    assert camera.current_path().name == "a.jpg"
    camera.advance()
    assert camera.current_path().name == "a.jpg"  # the only photo, round again


def test_a_file_that_is_no_photo_is_the_cameras_error(tmp_path):
    (tmp_path / "a.jpg").write_text("not a photo")
    with pytest.raises(CameraError, match=r"camera folder photo 'a\.jpg': "):
        open_camera(f"dir:{tmp_path}").capture()


def test_a_file_that_is_no_photo_is_passed_over_once_said(tmp_path):
    # It blocked every Score tap of a demo folder for good (a helper's probe).
    (tmp_path / "a.jpg").write_text("not a photo")
    _jpeg(tmp_path / "b.jpg", 800, 600)
    with pytest.raises(CameraError, match="passed over from now on"):
        open_camera(f"dir:{tmp_path}").capture()
    again = open_camera(f"dir:{tmp_path}")  # the app opens the camera again after a failure
    assert again.capture().shape == (600, 800, 3)
    _jpeg(tmp_path / "a.jpg", 400, 300)  # mended: a photo again
    assert open_camera(f"dir:{tmp_path}").capture().shape == (300, 400, 3)


def test_the_app_restarted_carries_on_at_the_folder_cameras_next_photo(tmp_path):
    # Restarted, the app took the folder's first photo again: a laptop demo scored its hands
    # over from the start, each found again as a hand recorded already.
    from device.app.web import create_app
    from tests.device.typed_hands import one_tile

    camera = tmp_path / "camera"
    camera.mkdir()
    for name, width in (("a.jpg", 640), ("b.jpg", 320), ("c.jpg", 480)):
        _jpeg(camera / name, width, 240)
    read: list[int] = []

    def app():
        made = create_app(tmp_path / "data", tmp_path / "no-models", f"dir:{camera}")

        def reads(image, *_):
            read.append(image.shape[1])
            return one_tile()

        made.config["STATE"].reader.read = reads
        return made

    with app().test_client() as client:
        assert client.post("/api/score").status_code == 200
    with app().test_client() as client:  # restarted
        assert client.post("/api/score").status_code == 200
        assert read == [640, 320]
    (camera / "c.jpg").unlink()  # the next photo gone: the one after it, round to the first
    with app().test_client() as client:
        assert client.post("/api/score").status_code == 200
        assert read == [640, 320, 640]
