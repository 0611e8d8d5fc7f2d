"""Shared test setup: ultralytics must never reach the network, whichever test imports it."""

import os

os.environ.setdefault("YOLO_OFFLINE", "1")
os.environ.setdefault("YOLO_AUTOINSTALL", "0")
