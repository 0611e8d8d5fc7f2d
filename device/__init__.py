"""What a table uses: the command line, the camera, the display and the web app."""

import vision  # noqa: F401  (OpenCV's pixel limit, set before anything here imports cv2)
