"""Letterbox, YOLO decoding and NMS against boxes worked out by hand."""

import cv2
import numpy as np
import pytest

from vision.boxes import decode_yolo, iou_matrix, letterbox, letterbox_params, nms, to_original


def test_letterbox_of_a_wide_image_pads_top_and_bottom():
    image = np.full((100, 200, 3), 255, np.uint8)
    boxed, params = letterbox(image, 64)
    assert boxed.shape == (64, 64, 3)
    assert params.scale == 0.32 and params.pad_x == 0 and params.pad_y == 16
    assert (boxed[:16] == 114).all() and (boxed[16:48] == 255).all() and (boxed[48:] == 114).all()


def test_boxes_map_back_to_original_pixels():
    params = letterbox_params(4000, 3000, 640)  # scale 0.16, 80 px of padding above and below
    assert params.pad_y == 80
    mapped = to_original(np.array([[16.0, 96.0, 32.0, 128.0]]), params)
    assert mapped.round(3).tolist() == [[100.0, 100.0, 200.0, 300.0]]


def test_decode_reads_centre_size_and_best_class():
    # Two anchors, three classes: anchor 0 is class 2 at 0.9, anchor 1 is below threshold.
    output = np.zeros((1, 7, 2), np.float32)
    output[0, :4, 0] = [50, 40, 20, 10]  # cx, cy, w, h
    output[0, 4:, 0] = [0.1, 0.2, 0.9]
    output[0, 4:, 1] = [0.05, 0.01, 0.02]
    boxes, scores, classes = decode_yolo(output, 0.25)
    assert boxes.tolist() == [[40.0, 35.0, 60.0, 45.0]]
    assert scores.tolist() == [np.float32(0.9)] and classes.tolist() == [2]


def test_nms_keeps_the_best_of_overlapping_boxes_and_touching_tiles():
    boxes = np.array(
        [
            [0, 0, 10, 10],  # best
            [1, 1, 11, 11],  # overlaps the best (IoU 0.68): dropped
            [10, 0, 20, 10],  # touches the best: a neighbouring tile, kept
        ],
        np.float32,
    )
    scores = np.array([0.9, 0.8, 0.7], np.float32)
    assert nms(boxes, scores, 0.5, 300).tolist() == [0, 2]


def test_nms_has_no_small_cap():
    boxes = np.array([[i * 10, 0, i * 10 + 9, 9] for i in range(200)], np.float32)
    assert len(nms(boxes, np.ones(200, np.float32), 0.5, 400)) == 200


def test_iou_of_half_overlap():
    a = np.array([[0, 0, 10, 10]], np.float32)
    b = np.array([[5, 0, 15, 10]], np.float32)
    assert abs(iou_matrix(a, b)[0, 0] - 50 / 150) < 1e-6


def test_odd_padding_puts_the_extra_pixel_below():
    # 100 x 61 into 64: scale 0.64, 39 rows of content, 25 of padding: 12 above, 13 below.
    image = np.full((61, 100, 3), 255, np.uint8)
    boxed, params = letterbox(image, 64)
    assert (params.pad_y, params.new_height) == (12, 39)
    assert (boxed[:12] == 114).all() and (boxed[12:51] == 255).all() and (boxed[51:] == 114).all()
    mapped = to_original(np.array([[0.0, 12.0, 64.0, 51.0]]), params)
    assert mapped[0].tolist() == pytest.approx([0.0, 0.0, 100.0, 60.9375])


def test_decode_caps_candidates_before_nms():
    output = np.zeros((1, 9, 100), np.float32)
    output[0, 2:4] = 5
    output[0, 4] = np.linspace(0.3, 0.99, 100)
    boxes, scores, _ = decode_yolo(output, 0.25, max_candidates=10)
    assert len(boxes) == 10 and scores.min() == pytest.approx(output[0, 4].max() - 9 * 0.69 / 99)


def test_shrink_by_a_whole_factor_first_matches_a_plain_area_shrink():
    from vision.boxes import shrink

    # Photo-like content: smooth shading with tile-sized edges, not per-pixel noise (which no
    # camera delivers and on which the two-step shrink differs by several grey levels).
    rng = np.random.default_rng(1)
    image = cv2.resize(rng.integers(0, 255, (12, 16, 3), np.uint8), (800, 600))
    image = cv2.GaussianBlur(image, (0, 0), 8)
    fast = shrink(image, 128, 96)
    plain = cv2.resize(image, (128, 96), interpolation=cv2.INTER_AREA)
    assert fast.shape == plain.shape
    assert np.abs(fast.astype(int) - plain).mean() < 2


@pytest.mark.parametrize("width, height", [(3000, 1), (1, 3000), (20000, 3)])
def test_a_strip_of_a_photo_letterboxes_to_at_least_a_pixel_each_way(width, height):
    # Shrunk to 640 across, a 3000 x 1 strip is 0.2 pixels high: it divided by zero before.
    image = np.full((height, width, 3), 200, np.uint8)
    out, params = letterbox(image, 640)
    assert out.shape == (640, 640, 3)
    assert params.new_width >= 1 and params.new_height >= 1
    assert (out[params.pad_y, params.pad_x] == 200).all()
