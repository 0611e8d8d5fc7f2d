"""The labelling page: open a folder of photos, pre-label them with the models, fix them fast.

Every change the page makes is saved at once, atomically, so closing the page loses nothing.
"""

from __future__ import annotations

import logging
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_file, send_from_directory
from werkzeug.exceptions import HTTPException

from device.labels import LabelStore, StaleLabelError
from device.same_site import refuse_other_sites
from scoring import strict_json
from scoring.errors import TilescoreError, shown
from scoring.tiles import ALL_TILES

STATIC = Path(__file__).parent / "app" / "static"
# A label of a thousand tiles is some 100 kB: anything near this is no label, and is refused
# (413) before it is read into memory.
MAX_BODY = 1024 * 1024
log = logging.getLogger(__name__)
SHOWN_AS_PNG = (".tif", ".tiff")
"""Photo formats the labels page reads that no browser shows: sent to it as PNG."""


def create_label_app(store: LabelStore, models_dir: Path | None) -> Flask:
    app = Flask(__name__, static_folder=None)
    refuse_other_sites(app)
    app.config["MAX_CONTENT_LENGTH"] = MAX_BODY
    pipeline: dict[str, Any] = {}

    def propose(name: str) -> dict[str, Any]:
        """The models' reading of a photo, as a label to correct (status "proposed")."""
        from vision.images import load_photo

        # Decoded as the models read it (a 12-megapixel JPEG at half its size); the label's
        # boxes and size are in the photo's own pixels, as every label is.
        photo = load_photo(store.photo_path(name))
        tiles: list[dict[str, Any]] = []
        if models_dir is not None and (models_dir / "default.json").exists():
            if "reader" not in pipeline:
                from vision.pipeline import load_pipeline

                pipeline["reader"] = load_pipeline(models_dir)
            reading = pipeline["reader"].read(photo.pixels).scaled(*photo.scale)
            tiles = [
                {"code": t.code, "box": list(t.box), "face_down": t.face_down, "rotated": t.rotated}
                for t in reading.tiles
            ]
        label = {
            "width": photo.width,
            "height": photo.height,
            "status": "proposed",
            "tiles": tiles,
        }
        return store.save(name, label)

    @app.errorhandler(TilescoreError)
    def user_error(error: TilescoreError) -> Any:
        return jsonify(error=str(error)), 409 if isinstance(error, StaleLabelError) else 400

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        # The page reads every answer as JSON: a 404 or 405 too, not Flask's HTML page.
        return jsonify(error=f"{error.code} {error.name}".lower()), error.code or 500

    @app.errorhandler(OSError)
    def storage_error(error: OSError) -> Any:
        return jsonify(error=f"cannot write the labels folder ({error.strerror}): not saved"), 507

    @app.errorhandler(Exception)
    def internal_error(error: Exception) -> Any:
        log.exception("request failed")  # the traceback to the terminal; the page gets a line
        return jsonify(error=f"internal error: {type(error).__name__}: {error}"), 500

    @app.get("/")
    def page() -> Response:
        return send_from_directory(STATIC, "label.html")

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name)

    @app.get("/api/photos")
    def photos() -> Any:
        return jsonify(
            photos=store.summary(), tiles=[{"code": t.code, "name": t.name} for t in ALL_TILES]
        )

    @app.get("/api/photos/<name>/image")
    def photo(name: str) -> Any:
        path = store.photo_path(name).resolve()  # absolute: Flask reads relative to itself
        if path.suffix.lower() in SHOWN_AS_PNG:  # no browser shows a TIFF
            import cv2

            from vision.images import load_image

            _ok, png = cv2.imencode(".png", load_image(path))
            return Response(png.tobytes(), mimetype="image/png")
        return send_file(path)

    @app.get("/api/photos/<name>/label")
    def get_label(name: str) -> Any:
        label = store.load(name)
        if label is not None:
            store.check_size(name, label)
        label = label or propose(name)
        # The version goes back with each save: a save from an older read is refused.
        return jsonify({**label, "version": store.version(name)})

    @app.put("/api/photos/<name>/label")
    def put_label(name: str) -> Any:
        # strict_json, not Flask's reader: a body nested thousands deep is a 400 here, not a
        # RecursionError (500), and NaN is no number.
        label = strict_json.loads(request.get_data(), "the label sent")
        read_as = label.pop("version", None) if isinstance(label, dict) else None
        if read_as is not None and not isinstance(read_as, str):
            raise TilescoreError(f"version must be text, got {shown(read_as)}")
        clean = store.save(name, label, read_as)
        return jsonify({**clean, "version": store.version(name)})

    return app
