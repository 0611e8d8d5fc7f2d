"""From a photo to tiles: ONNX YOLO detector and classifier, run with onnxruntime and numpy."""
