"""From a photo to tiles: ONNX YOLO detector and classifier, run with onnxruntime and numpy."""

import os

MAX_PIXELS = 80_000_000
"""The most pixels a photo may hold. A 12-megapixel photo is 12 M pixels; 80 M is no camera on a
table but a decompression bomb (a few kilobytes of PNG or WebP that would take gigabytes)."""

# OpenCV reads its own limit once, as it loads: set here, before anything imports cv2, it refuses
# a file whose header claims more before decoding it (the WebP and TIFF headers ``images`` does
# not parse; decoded first, a 10 KB WebP took 1.7 GB).
os.environ.setdefault("OPENCV_IO_MAX_IMAGE_PIXELS", str(MAX_PIXELS))
# Its own log lines for a file it cannot decode ("[ERROR:0@1.0] global grfmt_tiff.cpp ...") come
# before the one line that names the file and says why: a damaged photo is said once, by us.
os.environ.setdefault("OPENCV_LOG_LEVEL", "OFF")
