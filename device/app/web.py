"""The table app's web layer: one page for the display and phones, and a small JSON API.

Requests from this machine need nothing; when the owner opens the app to the network, every other
client must first send the PIN shown on the display. No request value ever becomes a file path.
"""

from __future__ import annotations

import hmac
import secrets
import threading
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

from flask import Flask, Response, jsonify, request, send_from_directory

from device.app import service
from device.camera import CameraError, CameraSource, open_camera
from device.store import SEATS, Store
from scoring.errors import TilescoreError
from scoring.tiles import ALL_TILES

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
UPLOAD_TYPES = {"image/jpeg", "image/png", "image/webp", "image/bmp"}
STATIC = Path(__file__).parent / "static"
DEFAULT_CONTEXT: dict[str, Any] = {
    "variant": "taiwan",
    "seat_wind": "E",
    "round_wind": "E",
    "dealer_streak": 0,
    "self_draw": False,
    "discarder": None,
    "events": [],
    "rules": {},
}


@dataclass
class AppState:
    store: Store
    reader: service.Reader
    camera_spec: str
    pin: str | None = None
    camera: CameraSource | None = None
    camera_error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)

    def get_camera(self) -> CameraSource:
        if self.camera is None:
            try:
                self.camera = open_camera(self.camera_spec)
                self.camera_error = None
            except CameraError as error:
                self.camera_error = str(error)
                raise
        return self.camera


def create_app(
    data_dir: Path,
    models_dir: Path,
    camera: str,
    pin: str | None = None,
    threads: int | None = None,
) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    state = AppState(Store(data_dir), service.Reader(models_dir, threads), camera, pin)
    app.config["STATE"] = state

    @app.before_request
    def check_pin() -> Any:
        if state.pin is None or request.remote_addr in ("127.0.0.1", "::1"):
            return None
        if request.path in ("/", "/pin") or request.path.startswith("/static/"):
            return None
        given = request.headers.get("X-Tilescore-Pin") or request.cookies.get("tilescore_pin", "")
        if not hmac.compare_digest(given, state.pin):
            return jsonify(error="this app needs the PIN shown on the table's display"), 403
        return None

    @app.errorhandler(TilescoreError)
    def user_error(error: TilescoreError) -> Any:
        return jsonify(error=str(error)), 400

    @app.errorhandler(413)
    def too_large(_: Any) -> Any:
        return jsonify(error=f"photo larger than {MAX_UPLOAD_BYTES // 2**20} MB"), 413

    @app.get("/")
    def index() -> Response:
        return send_from_directory(STATIC, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name)

    @app.post("/pin")
    def enter_pin() -> Any:
        given = str((request.get_json(silent=True) or {}).get("pin", ""))
        if state.pin is None or hmac.compare_digest(given, state.pin):
            response = jsonify(ok=True)
            response.set_cookie("tilescore_pin", given, httponly=True, samesite="Strict")
            return response
        return jsonify(error="wrong PIN"), 403

    @app.get("/api/status")
    def status() -> Any:
        local = request.remote_addr in ("127.0.0.1", "::1")
        camera_error = state.camera_error
        if state.camera is None and camera_error is None:
            try:
                state.get_camera()
            except CameraError as error:
                camera_error = str(error)
        return jsonify(
            camera=state.camera_spec,
            camera_error=camera_error,
            model_error=state.reader.error,
            pin=state.pin if local else None,
            disk_free_mb=_disk_free_mb(data_dir),
            tiles=[{"code": t.code, "name": t.name} for t in ALL_TILES],
        )

    @app.get("/api/preview.jpg")
    def preview() -> Any:
        try:
            frame = state.get_camera().preview()
        except CameraError as error:
            state.camera = None
            return jsonify(error=str(error)), 503
        return Response(service.encode_jpeg(frame, 70), mimetype="image/jpeg")

    @app.get("/api/context")
    def get_context() -> Any:
        return jsonify(state.store.get_setting("context", DEFAULT_CONTEXT))

    @app.post("/api/context")
    def set_context() -> Any:
        given = request.get_json(silent=True)
        if not isinstance(given, dict):
            raise TilescoreError("context must be a JSON object")
        unknown = set(given) - set(service.CONTEXT_KEYS)
        if unknown:
            raise TilescoreError(f"unknown context key {sorted(unknown)[0]!r}")
        context = {**state.store.get_setting("context", DEFAULT_CONTEXT), **given}
        state.store.set_setting("context", context)
        return jsonify(context)

    @app.get("/api/session")
    def get_session() -> Any:
        session = state.store.current_session()
        if session is None:
            return jsonify(session=None, totals={}, hands=[])
        return jsonify(
            session=session.to_json(),
            totals=state.store.totals(session.id),
            hands=[_hand_summary(h) for h in state.store.hands(session.id)],
        )

    @app.post("/api/session")
    def new_session() -> Any:
        given = request.get_json(silent=True) or {}
        players = given.get("players") or ["East", "South", "West", "North"]
        if not (isinstance(players, list) and 2 <= len(players) <= 4):
            raise TilescoreError("a session has 2 to 4 players")
        players = [str(p)[:40] or f"Player {i + 1}" for i, p in enumerate(players)]
        variant = str(given.get("variant") or "taiwan")
        session = state.store.new_session(players, variant)
        return jsonify(session=session.to_json())

    @app.post("/api/score")
    def score_from_camera() -> Any:
        try:
            image = state.get_camera().capture()
        except CameraError as error:
            state.camera = None
            return jsonify(error=str(error)), 503
        hand = _score_image(image)
        camera = state.camera
        if camera is not None and hasattr(camera, "advance"):
            camera.advance()
        return jsonify(hand)

    @app.post("/api/upload")
    def score_upload() -> Any:
        upload = request.files.get("photo")
        if upload is None:
            raise TilescoreError("send the photo as form field 'photo'")
        if upload.mimetype not in UPLOAD_TYPES:
            raise TilescoreError(f"photo type {upload.mimetype!r} is not JPEG, PNG, WebP or BMP")
        image = service.decode_upload(upload.read())
        return jsonify(_score_image(image))

    def _score_image(image: Any) -> dict[str, Any]:
        with state.lock:
            session = state.store.current_session() or state.store.new_session(
                ["East", "South", "West", "North"], "taiwan"
            )
            context = _context_for(session)
            try:
                detections = state.reader.read(image, service.uses_red_fives(context))
            except TilescoreError as error:
                raise TilescoreError(f"cannot read tiles: {error}") from None
            height, width = image.shape[:2]
            reading = service.reconstruct(detections, context["variant"], (width, height))
            result = service.score_reading(reading, context)
            hand_id = state.store.add_hand(
                session.id, service.encode_jpeg(image), detections, reading, context, result
            )
            return _hand_view(state.store.hand(hand_id), (width, height))

    def _context_for(session: Any) -> dict[str, Any]:
        context = dict(state.store.get_setting("context", DEFAULT_CONTEXT))
        context.setdefault("variant", session.variant)
        context.setdefault("round_wind", session.round_wind)
        if context.get("variant") == "taiwan":
            context.setdefault("dealer_streak", session.streak)
        return context

    @app.get("/api/hands/<int:hand_id>")
    def get_hand(hand_id: int) -> Any:
        return jsonify(_hand_view(_hand_or_404(hand_id)))

    @app.get("/api/hands/<int:hand_id>/photo.jpg")
    def hand_photo(hand_id: int) -> Any:
        path = state.store.photo_path(hand_id) if _hand_or_404(hand_id) else None
        if path is None or not path.exists():
            return jsonify(error="this hand has no photo"), 404
        return send_from_directory(path.parent, path.name, mimetype="image/jpeg")

    @app.post("/api/hands/<int:hand_id>/fix")
    def fix_hand(hand_id: int) -> Any:
        """A correction: a tile's code, a face-down tile, the winning tile, or the reading."""
        given = request.get_json(silent=True)
        if not isinstance(given, dict):
            raise TilescoreError("a fix must be a JSON object")
        with state.lock:
            hand = _hand_or_404(hand_id)
            detections = hand["detections"]
            reading = dict(hand["reading"])
            context = {**hand["context"], **(given.get("context") or {})}
            if "tile" in given:
                detections = service.apply_tile_fix(
                    detections,
                    int(given["tile"]),
                    given.get("code"),
                    bool(given.get("face_down", False)),
                )
                state.store.set_detections(hand_id, detections)
                width, height = _photo_size(hand_id)
                win_before = reading.get("win_tile")
                reading = service.reconstruct(detections, context["variant"], (width, height))
                if given.get("keep_win", True) and win_before and hand["corrections"]:
                    reading = _keep_manual_win(reading, hand)
                _save_label(hand_id, hand, detections)
            if "win_tile" in given:
                reading["win_tile"] = service.tile_from_code(str(given["win_tile"])).code
            for key in ("hand", "melds", "flowers"):
                if key in given:
                    reading[key] = given[key]
            result = service.score_reading(reading, context)
            state.store.update_hand(hand_id, reading, context, result, given)
            return jsonify(_hand_view(state.store.hand(hand_id)))

    def _keep_manual_win(reading: dict[str, Any], hand: dict[str, Any]) -> dict[str, Any]:
        manual = [c["win_tile"] for c in hand["corrections"] if "win_tile" in c]
        if manual:
            reading = {**reading, "win_tile": manual[-1]}
        return reading

    def _save_label(hand_id: int, hand: dict[str, Any], detections: list[dict[str, Any]]) -> None:
        photo = hand.get("photo")
        if photo:
            state.store.add_label(hand_id, photo, detections)

    @app.post("/api/undo")
    def undo() -> Any:
        session = state.store.current_session()
        if session is None:
            raise TilescoreError("no session to undo in")
        undone = state.store.undo_last(session.id)
        return jsonify(undone=undone)

    @app.get("/api/export.json")
    def export_json() -> Any:
        session = state.store.current_session()
        if session is None:
            raise TilescoreError("no session to export")
        return jsonify(state.store.export_json(session.id))

    @app.get("/api/export.csv")
    def export_csv() -> Any:
        session = state.store.current_session()
        if session is None:
            raise TilescoreError("no session to export")
        return Response(
            state.store.export_csv(session.id),
            mimetype="text/csv",
            headers={"Content-Disposition": "attachment; filename=tilescore-session.csv"},
        )

    def _hand_or_404(hand_id: int) -> dict[str, Any]:
        try:
            return state.store.hand(hand_id)
        except KeyError:
            raise TilescoreError(f"no hand {hand_id}") from None

    def _photo_size(hand_id: int) -> tuple[int, int]:
        import cv2

        path = state.store.photo_path(hand_id)
        image = cv2.imread(str(path)) if path else None
        if image is None:
            return (0, 0)
        return image.shape[1], image.shape[0]

    def _hand_view(hand: dict[str, Any], size: tuple[int, int] | None = None) -> dict[str, Any]:
        width, height = size or _photo_size(hand["id"])
        return {
            "id": hand["id"],
            "photo": f"/api/hands/{hand['id']}/photo.jpg" if hand["photo"] else None,
            "width": width,
            "height": height,
            "tiles": hand["detections"],
            "reading": hand["reading"],
            "context": hand["context"],
            "result": hand["result"],
            "problems": hand["reading"].get("problems", []),
            "corrections": hand["corrections"],
        }

    return app


def _hand_summary(hand: dict[str, Any]) -> dict[str, Any]:
    result = hand["result"]
    return {
        "id": hand["id"],
        "hand": hand["reading"].get("hand"),
        "total": result.get("total"),
        "unit": result.get("unit"),
        "winner": hand["context"].get("seat_wind"),
        "error": result.get("error"),
        "payments": result.get("payments", []),
    }


def _disk_free_mb(path: Path) -> int:
    import shutil

    return int(shutil.disk_usage(path).free // 2**20)


def make_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


__all__ = ["SEATS", "create_app", "make_pin"]
