"""The table app's web layer: one page for the display and phones, and a small JSON API.

Requests from this machine need nothing; when the owner opens the app to the network, every other
client must first send the PIN shown on the display. No request value ever becomes a file path.
"""

from __future__ import annotations

import contextlib
import errno
import hmac
import logging
import os
import secrets
import sqlite3
import threading
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from pathlib import Path
from typing import Any

import numpy as np
from flask import Flask, Response, jsonify, request, send_from_directory
from werkzeug.exceptions import HTTPException, RequestEntityTooLarge

from device.app import context as table_context
from device.app import draws, edits, fixes, folder_place, service, typed
from device.app.seats import chairs
from device.app.still import StillWatch, not_a_win, same_hand, same_layout, same_scene
from device.camera import CameraError, CameraSource, open_camera
from device.same_site import refuse_other_sites
from device.store import (
    SEATS,
    SQLITE_MAX_ID,
    Store,
    is_recorded_draw,
    no_room,
    rule_set_totals_json,
)
from scoring import result_notes, strict_json
from scoring.errors import TilescoreError, shown
from scoring.tiles import ALL_TILES
from scoring.variant import find_variant
from vision.labels import IGNORED_CODE
from vision.tile_sets import UNSAID_BACKS, Backs

MAX_UPLOAD_BYTES = 25 * 1024 * 1024
MAX_JSON_BYTES = 1024 * 1024  # a request body other than a photo: a fix or settings are a few KB
UPLOAD_TYPES = {"image/jpeg", "image/png", "image/webp", "image/bmp"}
SAME_UPLOAD_WITHIN_S = 10.0
"""A photo sent again this soon after its hand was recorded is the one photo sent twice: longer
than a typed hand's double tap (``typed.SAME_TYPED_WITHIN_S``), since the file is picked again,
and far shorter than any hand is played in."""
STATIC = Path(__file__).parent / "static"
CAMERA_RETRY_S = 2.0  # a failed camera is opened again at most this often
PIN_TRIES = 5  # wrong PINs from one address before it must wait
PIN_LOCKOUT_S = 60.0
LOCAL = ("127.0.0.1", "::1")
STILL_SETTING = "still_scoring"  # the Table screen's "score by itself when the hand is still"
HAND_KEYS = ("variant", "seat_wind", "self_draw", "discarder", "events")
"""What a player sets for one hand (remembered for the next); the round wind and the dealer's
streak belong to the session, which moves them on as hands are scored."""
log = logging.getLogger(__name__)
DEFAULT_CONTEXT = table_context.DEFAULT_CONTEXT
LEFT_RUN = "run_left"
"""The settings key of the dealer's run the last change of rule set ended (its rule set, its
streak, the session and the hand it followed), given back on a change straight back."""

UNSAVED = {
    "score_from_camera": "the hand was not saved",
    "score_upload": "the hand was not saved",
    "fix_hand": "the correction was not saved",
    "score_typed": "the hand was not saved",
    "undo": "nothing was undone",
    "record_draw": "the drawn hand was not saved",
    "set_context": "the table settings were not saved",
    "new_session": "no new session was started",
    "set_still": "the setting was not saved",
}
"""What a request that failed to write did not do, by its view's name, for the one line said."""


class NoSuchHand(TilescoreError):
    """A hand number that is no hand's: a 404, whatever the number (0, -1, beyond SQLite's)."""


class NoSuchSession(NoSuchHand):
    """A session number that is no session's: a 404 as a hand's is."""


class NoTiles(TilescoreError):
    """A photo in which no tile was found (an empty table, a blank or junk picture): nothing
    is recorded. Recorded, it was a hand in the totals ("the hand has no tiles") that the
    players had to undo; a hand with tiles that does not win is kept, to correct."""


@dataclass
class AppState:
    store: Store
    reader: service.Reader
    camera_spec: str
    pin: str | None = None
    network_url: str | None = None
    camera_turn: int = 0
    """Degrees clockwise the camera's frames are turned upright (a camera mounted rolled)."""
    camera: CameraSource | None = None
    camera_error: str | None = None
    lock: threading.Lock = field(default_factory=threading.Lock)
    """Held while a hand is scored or corrected (a Score tap, an upload, a fix, a still hand) and
    while anything else reads and then changes the store (the table settings, a new session, an
    undo, the still toggle): one at a time, so no change is made from what another just changed."""
    pin_failures: dict[str, tuple[int, float]] = field(default_factory=dict)
    still: StillWatch = field(default_factory=StillWatch)
    camera_lock: threading.Lock = field(default_factory=threading.Lock)
    """One camera call at a time: a USB camera through OpenCV is not safe to read from two
    threads, and a still hand's capture starts from a preview request."""
    clock: Callable[[], float] = time.monotonic
    """The still-hand detector's time (tests set it)."""
    context_error: str | None = None
    """What of the saved table settings could not be used (``table_context.load_context``)."""

    camera_failed_at: float = 0.0

    taps_scored: int = 0
    """Hands recorded from Score taps so far. A tap that took its photo before the last of them
    was recorded came at once with it: the same hand, whatever its tiles."""

    def get_camera(self) -> CameraSource:
        if self.camera is None:
            # The preview asks about once a second; opening a missing camera each time would load
            # the Pi (picamera2 probes every module) and fill the log. Try again now and then.
            if self.camera_error and time.monotonic() - self.camera_failed_at < CAMERA_RETRY_S:
                raise CameraError(self.camera_error)
            try:
                camera = open_camera(self.camera_spec, self.camera_turn)
                folder_place.resume(self.store, camera)  # where it was before a restart
                self.camera = camera
            except Exception as error:  # a driver's own error is the camera's too
                failure = _as_camera_error(f"camera {self.camera_spec}", error)
                self.camera_error = str(failure)
                self.camera_failed_at = time.monotonic()
                raise failure from None
        return self.camera

    def grab(self, full: bool) -> np.ndarray:
        """A preview frame, or a full-resolution still when ``full``; a failing camera is
        forgotten (``camera_failed``) and its ``CameraError`` raised. Whatever goes wrong in the
        camera is a ``CameraError``: a driver's ``OSError`` was said as the data folder's, and a
        camera that stops answering (picamera2's capture can block when the module dies) is
        given up after ``CAMERA_WAIT_S``, so the app and its page go on."""
        with self.camera_lock:
            try:
                camera = self.get_camera()
                frame = within(
                    CAMERA_WAIT_S[full],
                    camera.capture if full else camera.preview,
                    f"camera {camera.name}",
                )
            except CameraError as error:
                self.camera_failed(error, hung=isinstance(error, CameraHung))
                raise
            if not isinstance(frame, np.ndarray) or frame.size == 0:
                blank = CameraError(f"camera {camera.name} gave no picture")
                self.camera_failed(blank)
                raise blank
            return frame

    def camera_failed(self, error: CameraError, hung: bool = False) -> None:
        """Forget a failing camera (closed, so a USB device is free to come back) and keep the
        reason for the display; a later request opens it again. A camera that hung is closed
        on a thread of its own: its close may hang as well."""
        self.camera_error = str(error)
        camera, self.camera = self.camera, None
        if camera is not None:  # else it never opened: get_camera timed that failure already
            self.camera_failed_at = time.monotonic()
            if hung:
                threading.Thread(target=_close_quietly, args=(camera,), daemon=True).start()
            else:
                _close_quietly(camera)


CAMERA_WAIT_S = {False: 10.0, True: 30.0}
"""How long a preview frame and a still may take before the camera counts as hung: a still
from a folder camera decodes a photo of up to 80 megapixels (seconds on a Pi)."""


class CameraHung(CameraError):
    """The camera did not answer in time."""


def within(seconds: float, call: Callable[[], Any], what: str) -> Any:
    """``call()``'s answer, from a thread of its own given ``seconds``: a ``CameraHung`` past
    them, a ``CameraError`` for anything it raised."""
    answer: list[Any] = []
    failure: list[BaseException] = []

    def run() -> None:
        try:
            answer.append(call())
        except BaseException as error:  # handed to the caller's thread
            failure.append(error)

    worker = threading.Thread(target=run, daemon=True)
    worker.start()
    worker.join(seconds)
    if worker.is_alive():
        raise CameraHung(f"{what} did not answer in {seconds:g} s")
    if failure:
        raise _as_camera_error(what, failure[0]) from None
    return answer[0]


def _as_camera_error(what: str, error: BaseException) -> CameraError:
    if isinstance(error, CameraError):
        return error
    return CameraError(f"{what} failed: {type(error).__name__}: {error}")


def _close_quietly(camera: CameraSource) -> None:
    try:
        camera.close()
    except Exception:  # closing a camera that just failed may fail too; it is gone
        log.debug("closing the failed camera", exc_info=True)


def create_app(
    data_dir: Path,
    models_dir: Path,
    camera: str,
    pin: str | None = None,
    threads: int | None = None,
    network_url: str | None = None,
    backs: Backs = UNSAID_BACKS,
    camera_turn: int = 0,
) -> Flask:
    app = Flask(__name__, static_folder=None)
    app.config["MAX_CONTENT_LENGTH"] = MAX_UPLOAD_BYTES
    app.json.sort_keys = False  # type: ignore[attr-defined]  # totals stay in seat order
    state = AppState(
        Store(data_dir),
        service.Reader(models_dir, threads, backs),
        camera,
        pin,
        network_url,
        camera_turn=camera_turn,
    )
    app.config["STATE"] = state
    try:
        still = state.store.get_setting(STILL_SETTING, False)
    except ValueError:  # kept damaged (by hand, an older version): off, as never set
        log.warning("the saved still-hand setting cannot be read: it is off")
        still = False
    state.still.switch(still is True)

    refuse_other_sites(app)

    @app.before_request
    def check_pin() -> Any:
        if state.pin is None or request.remote_addr in LOCAL:
            return None
        if request.path in ("/", "/pin") or request.path.startswith("/static/"):
            return None
        given = request.headers.get("X-Tilescore-Pin") or request.cookies.get("tilescore_pin", "")
        if not _same_pin(given, state.pin):
            return jsonify(
                error="this app needs the PIN shown on the table's display", pin_required=True
            ), 403
        return None

    @app.errorhandler(TilescoreError)
    def user_error(error: TilescoreError) -> Any:
        return jsonify(error=str(error)), 400

    @app.errorhandler(NoTiles)
    def no_tiles(error: NoTiles) -> Any:
        # The page offers to type the hand in (POST /api/typed).
        return jsonify(error=str(error), no_tiles=True), 400

    @app.errorhandler(NoSuchHand)
    def no_such_hand(error: NoSuchHand) -> Any:
        return jsonify(error=str(error)), 404

    @app.errorhandler(413)
    def too_large(_: Any) -> Any:
        if request.path == "/api/upload":
            if (request.content_length or 0) > MAX_UPLOAD_BYTES:
                return jsonify(error=f"photo larger than {MAX_UPLOAD_BYTES // 2**20} MB"), 413
            # Under the limit and still too large: a form field that is no file (the form
            # parser keeps fields in memory, a few hundred kilobytes at most).
            return jsonify(error="send the photo as a file in form field 'photo'"), 413
        return jsonify(error=f"request body larger than {MAX_JSON_BYTES // 2**20} MB"), 413

    @app.errorhandler(HTTPException)
    def http_error(error: HTTPException) -> Any:
        return jsonify(error=f"{error.code} {error.name}".lower()), error.code or 500

    @app.errorhandler(sqlite3.Error)
    @app.errorhandler(OSError)
    def storage_error(error: Exception) -> Any:
        """A full disk, a folder turned read-only, a failing SD card: the page says what was not
        saved, and the app keeps running. Reads do not write, so they go on (the scores can
        still be seen and exported); one that fails all the same says it could not read."""
        log.error("storage failed: %s", error)
        unsaved = UNSAVED.get(str(request.endpoint))
        if unsaved is None:
            return jsonify(error=f"cannot read the data folder {data_dir} ({error})"), 503
        full = getattr(error, "errno", None) == errno.ENOSPC or "full" in str(error)
        full = full or no_room(data_dir)  # SQLite says "disk I/O error" for a full disk
        if full:
            said = f"the disk is full: {unsaved}; free space and try again"
        elif _read_only(data_dir, error):
            said = (
                f"the data folder {data_dir} is read-only: {unsaved}; the scores can still be "
                "seen and exported"
            )
        else:
            said = f"cannot write the data folder ({error}): {unsaved}; try again"
        return jsonify(error=said), 507

    @app.errorhandler(Exception)
    def internal_error(error: Exception) -> Any:
        # The traceback goes to the log (journalctl -u tilescore); the display gets one line.
        log.exception("request failed")
        return jsonify(error=f"internal error: {type(error).__name__}: {error}"), 500

    @app.get("/")
    def index() -> Response:
        return send_from_directory(STATIC, "index.html")

    @app.get("/static/<path:name>")
    def static_file(name: str) -> Response:
        return send_from_directory(STATIC, name)

    @app.post("/pin")
    def enter_pin() -> Any:
        address = str(request.remote_addr)
        failures, until = state.pin_failures.get(address, (0, 0.0))
        if until > time.monotonic():
            wait = int(until - time.monotonic()) + 1
            return jsonify(error=f"too many wrong PINs: try again in {wait} s"), 429
        sent = _json_object('send the PIN as {"pin": "123456"}')
        given = str(sent.get("pin", "")).strip()
        if state.pin is None or _same_pin(given, state.pin):
            state.pin_failures.pop(address, None)
            response = jsonify(ok=True)
            response.set_cookie("tilescore_pin", given, httponly=True, samesite="Strict")
            return response
        # Six digits are a million guesses: a few tries a minute keep them out of reach.
        failures += 1
        locked = time.monotonic() + PIN_LOCKOUT_S if failures >= PIN_TRIES else 0.0
        state.pin_failures[address] = (0 if locked else failures, locked)
        return jsonify(error="wrong PIN"), 403

    @app.get("/api/status")
    def status() -> Any:
        local = request.remote_addr in LOCAL
        if state.camera is None and state.camera_error is None:
            with state.camera_lock, contextlib.suppress(CameraError):  # kept in camera_error
                state.get_camera()
        return jsonify(
            camera=state.camera_spec,
            camera_error=state.camera_error,
            model_error=state.reader.check(),
            context_error=_context_error(),
            pin=state.pin if local else None,
            network_url=state.network_url if local else None,
            disk_free_mb=_disk_free_mb(data_dir),
            tiles=[{"code": t.code, "name": t.name} for t in ALL_TILES],
            not_a_tile=IGNORED_CODE,  # the code a box a person said holds no tile carries
            variants=service.variants_json(),
        )

    @app.get("/api/preview.jpg")
    def preview() -> Any:
        try:
            frame = state.grab(full=False)
        except CameraError as error:
            return jsonify(error=str(error)), 503
        state.camera_error = None
        jpeg = service.encode_jpeg(frame, 70)
        # The still hand is watched for here, on the preview frames the page already asks for,
        # rather than in a thread of its own or in the page: no second reader of the camera,
        # no work at all while no page shows the Camera screen (the Result screen stops the
        # polling, so a hand on show is not read again behind the player's back), and the
        # decision stays in Python, tested without a browser. Frames from two pages at once
        # only come more often: the detector goes by time, not by frame count. The read runs
        # in this request (a thread of the server's): other preview requests go on meanwhile.
        if state.still.feed(frame, state.clock()):
            _score_still_hand()
        return Response(jpeg, mimetype="image/jpeg")

    @app.get("/api/still")
    def still_status() -> Any:
        return jsonify(state.still.to_json())

    @app.post("/api/still")
    def set_still() -> Any:
        refusal = 'send {"enabled": true} or {"enabled": false}'
        given = _json_object(refusal)
        if not isinstance(given.get("enabled"), bool):
            raise TilescoreError(refusal)
        with state.lock:  # two taps at once: the setting kept is the one the watch follows
            state.store.set_setting(STILL_SETTING, given["enabled"])
            state.still.switch(given["enabled"])
        return jsonify(state.still.to_json())

    def _score_still_hand() -> None:
        """The scene went still after a change: read the full-resolution still and score it
        without saving; record it, as a Score tap would, only when it is a complete winning
        hand. Anything else leaves a note and nothing saved (the dealer does not move on).
        Never raises: the preview goes on whatever happens. The still is taken before the
        app's lock: a camera that hangs holds up no Score tap, correction or setting."""
        try:
            image = state.grab(full=True)
        except CameraError as error:
            log.info("still hand: %s", error)
            state.still.again(str(error))
            return
        if not state.lock.acquire(blocking=False):
            # A Score tap or a correction is at work: try again on the next frame. After a tap
            # the scene counts as scored (``handled``) and no next try comes.
            state.still.busy()
            return
        hand_id: int | None = None
        note: str | None = None
        try:
            outcome = _read_still_hand(image)
            hand_id, note = (outcome, None) if isinstance(outcome, int) else (None, outcome)
        except TilescoreError as error:  # the camera or the models: said in the note
            note = str(error)
        except (OSError, sqlite3.Error) as error:
            log.error("still hand not saved: %s", error)
            note = f"the hand was not saved ({error})"
        except Exception as error:
            log.exception("still hand failed")
            note = f"internal error: {type(error).__name__}: {error}"
        finally:
            state.lock.release()
        if note:
            log.info("still hand: %s", note)
        state.still.done(hand_id, note)

    def _read_still_hand(image: Any) -> int | str:
        """The recorded hand's id, or why the still scene was not recorded."""
        session = state.store.current_session()
        context = _context_for(session)
        detections, reading, kinds = service.read_hand(state.reader, image, context)
        result = service.score_reading(reading, context)
        from vision.layout.sizes import expected_size

        why = not_a_win(reading, kinds, result, expected_size(context["variant"]))
        if why is not None:
            return why
        latest = state.store.latest_hand(session.id) if session else None
        if latest is not None and (
            same_layout(detections, latest["detections"]) or same_hand(reading, latest["reading"])
        ):
            # The scene looked new (a lamp, a shadow, the row straightened, the camera bumped)
            # but the tiles are those of the hand scored last.
            return f"the same tiles as hand {latest['id']}, already scored"
        if not state.still.enabled:  # switched off while the still was read: not recorded
            return "switched off while the hand was read: not recorded"
        session = session or _new_session()  # it starts where _context_for(None) said
        # The folder camera is not moved on to its next photo, as after a tap: that would be a
        # new scene, and a demo folder would score itself round and round.
        return _record_hand(session.id, image, detections, reading, context, result)

    def _record_hand(
        session_id: int,
        image: Any,
        detections: list[dict[str, Any]],
        reading: dict[str, Any],
        context: dict[str, Any],
        result: dict[str, Any],
    ) -> int:
        """A hand read from a photo (a tap or the still scene), kept; the hand-scoped rules
        move on past it (``_after_hand``)."""
        hand_id = state.store.add_hand(
            session_id, service.encode_jpeg(image), detections, reading, context, result
        )
        _set_hand_rules(_after_hand(context, result))
        return hand_id

    def _after_hand(context: dict[str, Any], result: dict[str, Any]) -> dict[str, Any]:
        """The hand-scoped rules after this hand, as the store moves the deal on: no draws
        before the next; 明將's seats out (方案一) with the winner of a 雞糊 the hand goes on
        after added, none after a hand that ends (a win, a third 雞糊, a draw), and as they
        were after one nobody won (a misread photo, a refused hand: the hand goes on)."""
        from scoring.variants.mingjiang_points import seats_out

        own = str((context.get("rules") or {}).get(table_context.SEATS_OUT_RULE) or "")
        if result.get("hand_continues"):
            # The hand scored, so its seats out are good; its winner joins them.
            winner = context.get("seat_wind") or "E"
            out = {*seats_out({"seats_out": own}, winner), winner}
            own = "".join(seat for seat in SEATS if seat in out)
        elif result.get("winning") or result.get("drawn") or result.get("hand_ends"):
            own = ""
        return {"variant": context.get("variant"), "rules": {table_context.SEATS_OUT_RULE: own}}

    @app.get("/api/context")
    def get_context() -> Any:
        session = state.store.current_session()
        return jsonify(_context_for(session) if session else _stored_context())

    @app.post("/api/context")
    def set_context() -> Any:
        sent = _json_object("context must be a JSON object")
        # Read, change and save under the lock: two changes at once (two phones, two taps)
        # would each save the context as it was before the other's, and one would be lost.
        with state.lock:
            return _save_context(sent)

    def _save_context(sent: dict[str, Any]) -> Any:
        for key in table_context.HAND_ONLY_KEYS:
            if key in sent:
                raise TilescoreError(
                    f"{key} is said of one hand, on its result screen: the table does not keep it"
                )
        stored = _stored_context()
        session = state.store.current_session()
        # Who plays is the session's: the context's player count is its number of players.
        base = stored if session is None else {**stored, "players": len(session.players)}
        # Every field is checked before anything is saved: a bad one is refused and the saved
        # context stays as it was.
        given = table_context.check_context(sent, base)
        context = {**base, **given}
        # Before the first hand, the session it will start has the context's count of players.
        players = len(session.players) if session else _new_session_size(context)
        table_context.check_seating(given, context, players)
        streak = table_context.streak_given(given)  # honba in riichi: the same count
        if (
            streak is None
            and session is not None
            and context.get("variant") != stored.get("variant")
        ):
            # Another rule set, another run: a Taiwan 連莊 is not riichi's 本場. Straight back
            # to the rule set just left, no hand scored between, its run is the table's again
            # (a tap on the wrong rule set lost it).
            latest = state.store.latest_hand(session.id)
            here = {"session": session.id, "after_hand": latest["id"] if latest else None}
            left = state.store.get_setting(LEFT_RUN) or {}
            back = left.get("variant") == context.get("variant") and all(
                left.get(key) == value for key, value in here.items()
            )
            streak = int(left.get("streak", 0)) if back else 0
            state.store.set_setting(
                LEFT_RUN, {**here, "variant": stored.get("variant"), "streak": session.streak}
            )
        state.store.set_setting("context", context)
        if streak is not None or "round_wind" in given:
            # Set before the first hand too: the session that hand starts must begin from them.
            session = session or _new_session()
            session = state.store.set_session_state(
                session.id, streak=streak, round_wind=given.get("round_wind")
            )
        return jsonify(_context_for(session) if session else context)

    def _new_session() -> Any:
        """The session the first hand starts: as many players as the table's context says (the
        scorer's 4 when it says none), so a 3-player xiangqi table gets three chairs."""
        context = _stored_context()
        return state.store.new_session(
            DEFAULT_PLAYERS[: _new_session_size(context)], context["variant"]
        )

    def _set_hand_rules(
        of_hand: dict[str, Any] | None, names: tuple[str, ...] = table_context.HAND_RULES
    ) -> None:
        """The table's rule options said of the hand being played (``HAND_RULES``: xiangqi's
        draws just before it, 明將's seats out after a 雞糊) as ``of_hand``'s context has them,
        or none: a hand scored ends the run of draws, so the next hand follows no draw (kept,
        it charged every later winner's payer again), and a hand that ends lets everyone back
        in (kept, the seat out paid nothing and could not be won from in every later hand); a
        hand undone gives them back to the next hand of its rule set."""
        stored = _stored_context()
        if of_hand is not None and of_hand.get("variant") != stored.get("variant"):
            return
        kept = dict(stored.get("rules") or {})
        given = (of_hand or {}).get("rules") or {}
        for name in names:
            if given.get(name):
                kept[name] = given[name]
            else:
                kept.pop(name, None)
        if kept != (stored.get("rules") or {}):
            state.store.set_setting("context", {**stored, "rules": kept})

    def _stored_context() -> dict[str, Any]:
        """The remembered context, the defaults standing in for any part of it that cannot be
        used (saved by an older version that took anything): said once in the log, and in
        ``/api/status``'s ``context_error`` until the Table screen is saved again."""
        try:
            saved = state.store.get_setting("context", {})
        except ValueError:  # not JSON at all
            saved = "unreadable"
        context, note = table_context.load_context(saved)
        if note != state.context_error:
            if note:
                log.warning("%s", note)
            state.context_error = note
        return context

    def _context_error() -> str | None:
        _stored_context()
        return state.context_error

    @app.get("/api/session")
    def get_session() -> Any:
        """The session being played, or an earlier one (``?id=N``) to look back at."""
        session = _asked_session()
        if session is None:
            return jsonify(session=None, totals={}, totals_by_rule_set=[], hands=[], current=True)
        current = state.store.current_session()
        hands = state.store.hands(session.id)
        totals, by_rule_set = state.store.tallies(session.id, hands)
        return jsonify(
            session=session.to_json(),
            totals=totals,
            totals_by_rule_set=rule_set_totals_json(by_rule_set),
            hands=[_hand_summary(h, state.store.seats_at(h)) for h in hands],
            current=current is not None and current.id == session.id,
        )

    @app.get("/api/sessions")
    def list_sessions() -> Any:
        """Every session kept, the newest first: earlier evenings' scores, read back."""
        return jsonify(sessions=state.store.sessions())

    def _asked_session() -> Any:
        """The session a request names (``?id=N`` or ``?session=N``), else the current one;
        a number that is no session's is a 404."""
        asked = request.args.get("id", request.args.get("session"))
        if asked is None:
            return state.store.current_session()
        if not asked.isascii() or not asked.isdigit() or not 0 < int(asked) <= SQLITE_MAX_ID:
            raise NoSuchSession(f"no session {asked!r}")
        try:
            return state.store.session(int(asked))
        except KeyError:
            raise NoSuchSession(f"no session {asked}") from None

    @app.post("/api/session")
    def new_session() -> Any:
        given = _json_object("a session must be a JSON object", optional=True)
        players, variant = _session_fields({} if given is None else given)
        with state.lock:  # not between a hand's read of the session and its record
            stored = _stored_context()
            # The table's context follows the session: its rule set (the one named, or the
            # table's) must be played by this many, and hands are scored for this many chairs.
            changes = table_context.check_context(
                {"variant": variant or stored["variant"], "players": len(players)}, stored
            )
            context = {**stored, **changes}
            # A new game starts no hand going on: no draws before it, nobody out of it.
            rules = context.get("rules") or {}
            context["rules"] = {k: v for k, v in rules.items() if k not in table_context.HAND_RULES}
            table_context.check_seating(changes, context, len(players))
            for key, default in (("seat_wind", "E"), ("discarder", None)):
                if context.get(key) not in (None, *chairs(len(players))):
                    context[key] = default  # a chair this table does not have (North, for 3)
            # Both or neither: a session whose table settings were not saved would be scored
            # with another rule set or chairs it does not have.
            session = state.store.new_session(
                players, context["variant"], {"context": context} if context != stored else None
            )
        return jsonify(session=session.to_json())

    @app.post("/api/score")
    def score_from_camera() -> Any:
        still_seq, taps_scored = state.still.seq, state.taps_scored
        # A folder camera moves to its next photo once this one is scored; two taps at once
        # read the same photo, and only the first moves it on (each moved it, one photo was
        # never scored). Its place is taken as the photo is: a camera not yet open is opened
        # first, since it opens where it was before a restart (folder_place).
        with state.camera_lock:
            try:
                camera = state.get_camera()
            except CameraError:
                camera = None  # the grab says why
            read_at = getattr(camera, "position", 0)
        try:
            image = state.grab(full=True)
        except CameraError as error:
            return jsonify(error=str(error)), 503
        camera = state.camera
        try:
            hand = _score_image(image, still_seq, taps_scored)
        except NoTiles:
            # Read, and empty: a folder camera goes on to its next photo, as after a hand (it
            # stayed, every tap read the same empty photo).
            _advance(camera, read_at)
            raise
        _advance(camera, read_at)
        return jsonify(hand)

    def _advance(camera: Any, read_at: int) -> None:
        advance = getattr(camera, "advance", None)
        with state.camera_lock:  # looked at and moved at once: two taps move it once
            if advance is not None and getattr(camera, "position", None) == read_at:
                advance()
                folder_place.keep(state.store, camera)

    @app.post("/api/upload")
    def score_upload() -> Any:
        upload = request.files.get("photo")
        if upload is None:
            raise TilescoreError("send the photo as form field 'photo'")
        if upload.mimetype not in UPLOAD_TYPES:
            raise TilescoreError(f"photo type {upload.mimetype!r} is not JPEG, PNG, WebP or BMP")
        sent_at = time.time()  # before the read: a second send may wait on the first's
        image = service.decode_upload(upload.read())
        return jsonify(_score_image(image, sent_at=sent_at))

    @app.post("/api/typed")
    def score_typed() -> Any:
        """A hand typed in, for a photo in which no tile was found: scored with the table's
        context and recorded like a photo's hand, with no photo (a drawn hand has none either);
        Edit groups corrects it as any other."""
        sent = _json_object("a typed hand must be a JSON object")
        with state.lock:  # dealt from the session as the hand before it left it
            session = state.store.current_session()
            context = _context_for(session)  # before the first hand: the session it starts
            reading = typed.typed_reading(sent, context)
            latest = state.store.latest_hand(session.id) if session else None
            if latest is not None and typed.same_typed_again(latest, reading, context, time.time()):
                return jsonify(_shown_again(latest))  # a double tap: paid once
            result = service.score_reading(reading, context)
            if "error" in result:
                # Every tile was typed and no photo is kept to correct: a hand that cannot be
                # scored is typed again, not recorded (a photo's is kept, for a tap to mend).
                raise TilescoreError(f"{result['error']}: nothing was recorded")
            session = session or _new_session()
            hand_id = state.store.add_hand(session.id, None, [], reading, context, result)
            _set_hand_rules(_after_hand(context, result))
            return jsonify(_hand_view(state.store.hand(hand_id)))

    def _score_image(
        image: Any,
        still_seq: int | None = None,
        taps_scored: int | None = None,
        sent_at: float | None = None,
    ) -> dict[str, Any]:
        """Read, score and record a photo. ``still_seq``: the still-hand count when a Score tap
        came; a still hand recorded while the tap waited for the lock is the hand it meant.
        ``taps_scored``: the tap count then; a hand another tap recorded meanwhile, likewise
        (two taps at once: a short or xiangqi hand, which no reading tells apart, was kept
        twice). ``sent_at``: when an uploaded photo came (``uploaded_again``)."""
        with state.lock:
            if (
                still_seq is not None
                and state.still.seq != still_seq
                and state.still.hand is not None
            ):
                return _hand_view(state.store.hand(state.still.hand))
            session = state.store.current_session()
            latest = state.store.latest_hand(session.id) if session else None
            if taps_scored is not None and state.taps_scored != taps_scored and latest:
                return _shown_again(latest)
            service.check_photo_size(image)  # one that cannot be kept is not read first
            context = _context_for(session)  # before the first hand: the session it will start
            detections, reading, kinds = service.read_hand(state.reader, image, context)
            height, width = image.shape[:2]
            # Nothing at all on the photo; tiles the rule set has not (a xiangqi hand at a table
            # set to Taiwan) are a hand to record, whose problems say why, for the rule set to
            # be changed.
            if "no_tiles" in kinds and "not_played" not in kinds and not reading.get("flowers"):
                if still_seq is not None:
                    state.still.handled(image)  # this scene was read: not read again by itself
                raise NoTiles("no tiles found in the photo: nothing was recorded")
            if (
                still_seq is not None
                and latest is not None
                and (
                    same_hand(reading, latest["reading"])
                    or same_scene(detections, latest["detections"])
                )
            ):
                # A second tap on a slow Pi, or a tap just after the still hand was recorded:
                # the hand scored last, again. Recorded twice it was paid twice and moved the
                # deal twice; it is shown instead, to correct or undo there.
                state.still.handled(image)
                return _shown_again(latest)
            if (
                sent_at is not None
                and latest is not None
                and uploaded_again(latest, detections, reading, context, sent_at)
            ):
                return _shown_again(latest)  # the photo sent twice: paid once, dealt on once
            result = service.score_reading(reading, context)
            session = session or _new_session()  # it starts where _context_for(None) said
            hand_id = _record_hand(session.id, image, detections, reading, context, result)
            if taps_scored is not None:
                state.taps_scored += 1
            if still_seq is not None:
                # Still under the lock: the scene settling now was scored, not to be read again.
                state.still.handled(image)
            return _hand_view(state.store.hand(hand_id), (width, height))

    def _shown_again(hand: dict[str, Any]) -> dict[str, Any]:
        """A hand recorded already, shown for a tap that would have recorded it again."""
        return {**_hand_view(hand), "repeat_of": hand["id"]}

    def _context_for(session: Any) -> dict[str, Any]:
        """The remembered context with the session's round wind and dealer streak: the session
        moves them on as hands are scored, so the next hand is scored with the right ones. With
        no session yet, those a new session starts with (east round, no streak); and the
        session's count of players."""
        context = _stored_context()
        round_wind, streak = (session.round_wind, session.streak) if session else ("E", 0)
        context["round_wind"] = round_wind
        # Scored for the session's chairs (before the first hand, those of the session it will
        # start): a rule set without winds (xiangqi) names the seats from the winner's by the
        # player count, and a payment goes to a chair.
        context["players"] = len(session.players) if session else _new_session_size(context)
        return table_context.with_streak(context, streak)

    @app.get("/api/hands/<int(signed=True):hand_id>")
    def get_hand(hand_id: int) -> Any:
        return jsonify(_hand_view(_hand_or_404(hand_id)))

    @app.get("/api/hands/<int(signed=True):hand_id>/photo.jpg")
    def hand_photo(hand_id: int) -> Any:
        path = state.store.photo_path(hand_id) if _hand_or_404(hand_id) else None
        if path is None or not path.exists():
            return jsonify(error="this hand has no photo"), 404
        return send_from_directory(path.parent, path.name, mimetype="image/jpeg")

    @app.post("/api/hands/<int(signed=True):hand_id>/fix")
    def fix_hand(hand_id: int) -> Any:
        """A correction: a tile's code, a face-down tile, the winning tile, or the reading.
        Checked whole before anything is applied; saved whole (tiles, reading, score) or not."""
        given = _json_object("a fix must be a JSON object")
        with state.lock:
            hand = _hand_or_404(hand_id)
            if is_recorded_draw(hand):
                raise TilescoreError(
                    "a drawn hand has no tiles to correct: undo it and record the draw again"
                )
            if hand["undone"]:
                # Out of the totals and the deal: a correction would change a score nobody is
                # paid and a label for training, on a hand the table took back.
                again = "type it" if hand["reading"].get("typed") else "score the photo"
                raise TilescoreError(
                    f"hand {hand_id} was undone: it takes no corrections ({again} again to"
                    " record it anew)"
                )
            fix = fixes.check_fix(given, len(hand["detections"]))
            players = len(state.store.session(hand["session_id"]).players)
            # The hand is scored for its session's chairs (one kept by an older version may not
            # say how many play).
            base = {**hand["context"], "players": players}
            changes = table_context.check_context(fix.get("context") or {}, base)
            if "context" in fix:
                fix["context"] = changes  # as it is kept: the events by their codes, once each
            context = {**base, **changes}
            # The streak said by either name, as the hand's rule set says it (riichi's 本場 is
            # its honba: kept as dealer_streak, the hand was scored as an error). A hand moved
            # to another rule set keeps its own streak where the fix says none.
            streak = table_context.streak_given(changes)
            if streak is None and context.get("variant") != base.get("variant"):
                streak = table_context.streak_of(base)
            if streak is not None:
                context = table_context.with_streak(context, streak)
            table_context.check_seating(changes, context, players)
            fixes.check_fix_tiles(fix, context)
            for melds in (fix.get("melds"), [fix["mend"]] if "mend" in fix else None):
                if melds is not None:
                    fixes.check_fix_melds(melds, context)
            detections, reading = _fixed_reading(hand, fix, context)
            result = service.score_reading(reading, context)
            # Since a change of rule set the session's streak is the new rule set's run, which
            # no correction of the old rule set's hand changes.
            other_run = _stored_context().get("variant") != hand["context"].get("variant")
            own_run = state.store.update_hand(
                hand_id, reading, context, result, fix, detections, other_run
            )
            if other_run and own_run is not None:
                _correct_left_run(hand, own_run)
            if _is_tables_latest(hand_id):
                # The hand going on after it as had it been scored so: a 雞糊 corrected into
                # being, out of it, or to another winner moves who is out of the hand.
                _set_hand_rules(_after_hand(context, result), (table_context.SEATS_OUT_RULE,))
            if detections is not None:
                _save_label(hand_id, hand, detections)
            return jsonify(_hand_view(state.store.hand(hand_id)))

    def _correct_left_run(hand: dict[str, Any], streak: int) -> None:
        """The run the last change of rule set left (``LEFT_RUN``), given ``streak`` where it
        is the one the corrected hand ended: a change straight back gives the corrected run."""
        left = state.store.get_setting(LEFT_RUN) or {}
        if (
            left.get("session") == hand["session_id"]
            and left.get("after_hand") == hand["id"]
            and left.get("variant") == hand["context"].get("variant")
        ):
            state.store.set_setting(LEFT_RUN, {**left, "streak": streak})

    def _is_tables_latest(hand_id: int) -> bool:
        """Whether the hand is the one the table plays on from: the current session's latest.
        An earlier session's last hand is not: that evening is over, and a correction of it
        changed today's table (明將's seats out)."""
        session = state.store.current_session()
        latest = state.store.latest_hand(session.id) if session else None
        return latest is not None and latest["id"] == hand_id

    def _fixed_reading(
        hand: dict[str, Any], fix: dict[str, Any], context: dict[str, Any]
    ) -> tuple[list[dict[str, Any]] | None, dict[str, Any]]:
        """The tiles (None: unchanged) and the reading after a checked fix."""
        detections, reading = None, dict(hand["reading"])
        # What would make the hand win (the tiles a hand a tile short lacks, the reads of one
        # tile, the tiles a hand a tile over would win without) and the tile taken where one
        # was missed hold for the layout's reading under the context it was read with: any
        # other fix (the rules, who won, the winning tile, the hand typed) leaves them stale,
        # and only a tile fix reads them again.
        reading = edits.without_layout_keys(reading)
        if "tile" in fix:
            detections = service.apply_tile_fix(
                hand["detections"],
                fix["tile"],
                fix.get("code"),
                fix.get("face_down", False),
                fix.get("not_a_tile", False),
            )
            win_before = reading.get("win_tile")
            reading = service.reconstruct(detections, context["variant"], context)

            def wins(read: dict[str, Any]) -> bool:
                return bool(service.score_reading(read, context).get("winning"))

            reading, dropped = edits.replayed(
                reading, hand["corrections"], context["variant"], wins
            )
            if dropped:  # said once, by this fix, and never made again
                fix["dropped"] = dropped
            if fix.get("keep_win", True) and win_before and hand["corrections"]:
                reading = _keep_manual_win(reading, hand, detections)
        if "win_tile" in fix:
            reading["win_tile"] = fix["win_tile"]
            # Which box the player tapped, so the display marks that one as the winning tile;
            # chosen by its code alone, no box is marked.
            reading.pop("win_index", None)
            if "win_index" in fix:
                boxes = detections if detections is not None else hand["detections"]
                fixes.check_winning_box(boxes, fix["win_index"], fix["win_tile"])
                reading["win_index"] = fix["win_index"]
        for key in ("hand", "melds", "flowers"):
            if key in fix:
                reading[key] = fix[key]
        if "split" in fix:
            melds = list(reading.get("melds") or [])
            reading = service.split_meld(reading, fix["split"])  # a meld it has, or refused
            # Kept with the edit, to split that meld again when the tiles are read again.
            fix["split_meld"] = service.meld_text(melds[fix["split"]])
        if "join" in fix:
            reading = service.join_tiles(reading, fix["join"], fix["meld"])
        if "add" in fix:
            reading = service.add_tile(reading, fix["add"])
        if "mend" in fix:
            reading = service.add_meld(reading, fix["mend"])
        if "hand" in fix:  # the concealed tiles typed: every tile restated
            reading = edits.typed_over(reading)
        elif edits.restates_groups(fix):
            reading = edits.without_problems(reading, edits.SHAPE_KINDS)
        if "win_tile" in fix:
            reading = edits.without_problems(reading, edits.WIN_KINDS)
        elif "tile" not in fix:  # the reads that would win were for the rules read with
            reading = edits.without_problems(reading, {"would_win_as"})
        if "tile" not in fix and context.get("variant") != hand["context"].get("variant"):
            # The layout counted the tiles against the old rule set's hand ("17 tiles
            # expected"): the scorer says the new one's size where the hand lacks it.
            reading = edits.without_problems(reading, {"count"})
            reading = edits.with_rule_set_problems(reading, hand["detections"], context["variant"])
        return detections, reading

    def _keep_manual_win(
        reading: dict[str, Any], hand: dict[str, Any], detections: list[dict[str, Any]]
    ) -> dict[str, Any]:
        """The reading with the winning tile the player chose. Where they chose it by its box,
        it is that box's tile as now read (read again since, it is still the winning tile);
        a box now face down or said to hold no tile is none, and the layout's winning tile
        stands. Where they chose it by its code only, it stands unless this fix took the hand's
        last such tile away (set aside, face down, read as another tile): then the layout's."""
        # Since the last tile fix that let the layout choose again (keep_win false).
        corrections = hand["corrections"]
        reset = max(
            (i for i, c in enumerate(corrections) if c.get("keep_win") is False), default=-1
        )
        manual = [c for c in corrections[reset + 1 :] if "win_tile" in c]
        if not manual:
            return reading
        win_tile, win_index = manual[-1]["win_tile"], manual[-1].get("win_index")
        if isinstance(win_index, int) and 0 <= win_index < len(detections):
            win_tile = detections[win_index].get("code")
            if win_tile in (None, IGNORED_CODE):
                return reading
        elif service.holds_tile(hand["reading"], win_tile) and not service.holds_tile(
            reading, win_tile
        ):
            return reading
        # The player's winning tile: what the layout said of its own is stale, and where it is
        # another tile, so is what would make the hand win with the layout's.
        if win_tile != reading.get("win_tile"):
            reading = edits.without_problems(edits.without_offers(reading), {"would_win_as"})
        reading = edits.without_problems(reading, edits.WIN_KINDS - {"would_win_as"})
        reading = {**reading, "win_tile": win_tile}
        if isinstance(win_index, int):
            reading["win_index"] = win_index
        return reading

    def _save_label(hand_id: int, hand: dict[str, Any], detections: list[dict[str, Any]]) -> None:
        """The corrected tiles as a label for training. A by-product of a correction already
        saved: one that cannot be written is said in the log, not as a failed correction."""
        photo = hand.get("photo")
        if not photo:
            return
        try:
            if not state.store.add_label(hand_id, photo, detections, _photo_size(hand_id)):
                log.info("label of %s left as it is: it was reviewed or edited by hand", photo)
        except (OSError, sqlite3.Error, TilescoreError) as error:  # a label check's too
            log.warning("the correction is saved; its label file was not (%s)", error)

    @app.post("/api/undo")
    def undo() -> Any:
        with state.lock:  # not while a hand is recorded, and one undo at a time: one hand each
            session = state.store.current_session()
            if session is None:
                raise TilescoreError("no session to undo in")
            undone = state.store.undo_last(session.id)
            if undone is not None:  # the run of draws it followed is the next hand's again
                _set_hand_rules(state.store.hand(undone)["context"])
        return jsonify(undone=undone)

    @app.post("/api/draw")
    def record_draw() -> Any:
        """A drawn hand (流局), kept like a hand: what the table's rule set pays on it (riichi's
        罰符, xiangqi's 聽 payments and 片甲不留), the deal moved as it says, and xiangqi's run
        of draws one longer. An undo takes it back as it does a hand."""
        sent = _json_object("a drawn hand must be a JSON object")
        with state.lock:  # dealt from the session as the hand before it left it
            session = state.store.current_session()
            context = _context_for(session)  # before the first hand: the session it starts
            draw = draws.check_draw(sent, context)
            result = draws.score_draw(draw, context)
            latest = state.store.latest_hand(session.id) if session else None
            if latest is not None and draws.same_draw_again(latest, draw, context, time.time()):
                # A double tap on Record draw: recorded twice, it paid twice and passed the deal
                # twice (the second time from another chair).
                return jsonify(_shown_again(latest))
            session = session or _new_session()  # refused above, a draw starts no session
            hand_id = state.store.add_hand(session.id, None, [], {"draw": draw}, context, result)
            # The hand is over (明將's seats out come back); xiangqi's run of draws grows.
            variant = find_variant(context["variant"])
            run = int((context.get("rules") or {}).get(table_context.DRAW_RUN_RULE) or 0)
            counted = any(o.name == table_context.DRAW_RUN_RULE for o in variant.options)
            _set_hand_rules(
                {"variant": variant.name, "rules": {table_context.DRAW_RUN_RULE: run + 1}}
                if counted
                else None
            )
            return jsonify(_hand_view(state.store.hand(hand_id)))

    @app.post("/api/adapt")
    def adapt_classifier() -> Any:
        """Fit the classifier to this table's set from every photo the app has kept, no labels
        (``train classifier --adapt DATA/photos``; onnxruntime alone). The reader takes the
        adapted classifier up from the next photo (service.Reader)."""
        from vision.training.adapt import AdaptSettings, adapt

        settings = AdaptSettings(
            photos=(state.store.photo_dir,),
            models_dir=state.reader.models_dir,
            threads=state.reader.threads,
        )
        # Not while a hand is being read; nothing is installed until the adapted files are whole.
        with state.lock, _writing_models(state.reader.models_dir, "; the tile reader is unchanged"):
            report = adapt(settings, "tilescore serve: Fit to this set")
        return jsonify(
            tiles=report["tiles"],
            photos=len(report["photos"]),
            reads_changed=report["reads_changed"],
        )

    @app.post("/api/adapt/undo")
    def previous_classifier() -> Any:
        """The classifier the last fit (or fine-tune) replaced, back; again, and they swap."""
        from vision.training.finetune import rollback

        with state.lock, _writing_models(state.reader.models_dir):
            restored = rollback(state.reader.models_dir)
        return jsonify(date=restored["date"])

    @app.get("/api/export.json")
    def export_json() -> Any:
        session = _asked_session()
        if session is None:
            raise TilescoreError("no session to export")
        response = jsonify(state.store.export_json(session.id))
        response.headers["Content-Disposition"] = (
            f"attachment; filename=tilescore-session-{session.id}.json"
        )
        return response

    @app.get("/api/export.csv")
    def export_csv() -> Any:
        session = _asked_session()
        if session is None:
            raise TilescoreError("no session to export")
        return Response(
            state.store.export_csv(session.id),
            mimetype="text/csv",
            headers={
                "Content-Disposition": f"attachment; filename=tilescore-session-{session.id}.csv"
            },
        )

    def _hand_or_404(hand_id: int) -> dict[str, Any]:
        try:
            return state.store.hand(hand_id)
        except KeyError:
            raise NoSuchHand(f"no hand {hand_id}") from None

    def _photo_size(hand_id: int) -> tuple[int, int]:
        """The kept photo's size, from its JPEG header: decoded whole for it, six views at once
        took 3 GB on a 9000-pixel photo (the app writes its photos upright, with no EXIF)."""
        from vision.images import header_size

        path = state.store.photo_path(hand_id)
        if path is None:
            return (0, 0)
        try:
            with open(path, "rb") as photo:  # the header lies in the first few kilobytes
                size = header_size(photo.read(HEADER_BYTES))
        except OSError:
            size = None
        return size or (0, 0)

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
            "total_note": result_notes.total_note(hand["result"]),
            "result_notes": result_notes.notes(hand["result"]),
            "problems": hand["reading"].get("problems", []),
            "corrections": hand["corrections"],
            "seats": state.store.seats_at(hand),
            "red_fives": _red_fives(hand["context"]),
            "undone": bool(hand["undone"]),
        }

    return app


@contextlib.contextmanager
def _writing_models(folder: Path, outcome: str = "") -> Any:
    """A models folder that cannot be written is said as such, not as the data folder's "the
    hand was not saved" (the app's OSError handler): no hand is at stake."""
    try:
        yield
    except OSError as error:
        raise TilescoreError(
            f"cannot write the models folder {folder} ({error}){outcome}"
        ) from None


HEADER_BYTES = 64 * 1024
"""Enough of a kept JPEG to hold its size (its frame header comes before any pixel data)."""

SESSION_KEYS = ("players", "variant")
DEFAULT_PLAYERS = ["East", "South", "West", "North"]


def _new_session_size(context: dict[str, Any]) -> int:
    """How many the session a first hand starts seats: the context's count, else the
    scorer's 4."""
    players = context.get("players")
    return players if isinstance(players, int) and 2 <= players <= 4 else 4


def _session_fields(given: Any) -> tuple[list[str], str | None]:
    """A new session's players (2 to 4 names, each at most 40 characters, an empty one named
    "Player N") and rule set (None: the table's), checked before anything is saved."""
    if not isinstance(given, dict):
        raise TilescoreError("a session must be a JSON object")
    unknown = set(given) - set(SESSION_KEYS)
    if unknown:
        raise TilescoreError(f"unknown session key {sorted(unknown)[0]!r}")
    players = given.get("players") or DEFAULT_PLAYERS
    if not (isinstance(players, list) and 2 <= len(players) <= 4):
        raise TilescoreError("a session has 2 to 4 players")
    names: list[str] = []
    for i, name in enumerate(players):
        if not isinstance(name, str | None):
            raise TilescoreError(f"a player's name must be text, got {shown(name)}")
        name = (name or "").strip()[:40] or f"Player {i + 1}"
        if name in names:
            # The totals are kept by name: two players of one name would share a total.
            raise TilescoreError(f"two players are named {name!r}")
        names.append(name)
    variant = given.get("variant")
    return names, None if variant is None else table_context.context_value("variant", variant, "")


def _json_object(refusal: str, optional: bool = False) -> Any:
    """The request's body as the JSON object the page sends; ``refusal`` when it is JSON but no
    object. With ``optional``, no body at all is None. Anything else is refused in one line
    (a 400; a 413 over ``MAX_JSON_BYTES``) rather than read as no body, which would start a
    session or save settings nobody sent: text, form data, bad UTF-8, JSON cut short, NaN,
    nesting too deep for Python, a number of more digits than Python reads."""
    if (request.content_length or 0) > MAX_JSON_BYTES:
        raise RequestEntityTooLarge()
    data = request.get_data(cache=True)
    if len(data) > MAX_JSON_BYTES:  # sent in chunks, with no length said
        raise RequestEntityTooLarge()
    if not data.strip():
        if optional:
            return None
        raise TilescoreError(refusal)
    value = strict_json.loads(data, "the request body")
    if not isinstance(value, dict):
        raise TilescoreError(refusal)
    return value


def _same_pin(given: str, pin: str) -> bool:
    """Compared as bytes, in constant time: ``hmac.compare_digest`` refuses text that is not
    ASCII (a header or cookie from any client), which must be a wrong PIN, not a crash."""
    return hmac.compare_digest(given.encode("utf-8", "replace"), pin.encode("utf-8"))


def _read_only(folder: Path, error: Exception) -> bool:
    if getattr(error, "errno", None) == errno.EROFS:
        return True
    return folder.is_dir() and not os.access(folder, os.W_OK)


def _red_fives(context: dict[str, Any]) -> bool:
    try:
        return service.uses_red_fives(context)
    except TilescoreError:
        return False  # a bad rule option is reported by the scorer; the picker just shows fives


def uploaded_again(
    latest: dict[str, Any],
    detections: list[dict[str, Any]],
    reading: dict[str, Any],
    context: dict[str, Any],
    sent_at: float,
) -> bool:
    """Whether an uploaded photo is the session's latest hand's sent again: its tiles read
    alike, as a Score tap's are judged (``same_hand``, ``same_scene``), sent within
    ``SAME_UPLOAD_WITHIN_S`` of the hand's recording (or before it, waiting on its read), and
    to the same table. Sent again after a change on the Table screen, it is the hand as it should
    have been scored; long after, a new hand of the same tiles: each is recorded."""
    if not table_context.sent_again(latest, context, sent_at, SAME_UPLOAD_WITHIN_S):
        return False
    return same_hand(reading, latest["reading"]) or same_scene(detections, latest["detections"])


def _hand_summary(hand: dict[str, Any], seats: dict[str, str]) -> dict[str, Any]:
    result = hand["result"]
    winner = hand["context"].get("seat_wind", "E")
    return {
        "id": hand["id"],
        "variant": hand["context"].get("variant"),
        "drawn": is_recorded_draw(hand),
        "reason": result.get("reason"),
        "hand": hand["reading"].get("hand"),
        "total": result.get("total"),
        "unit": result.get("unit"),
        "winning": bool(result.get("winning")),
        "winner": winner,
        "winner_name": seats.get(winner, winner),
        "self_draw": bool(hand["context"].get("self_draw")),
        "discarder": hand["context"].get("discarder"),
        "discarder_name": seats.get(hand["context"].get("discarder") or ""),
        "error": result.get("error"),
        "payments": [
            {**p, "payer_name": seats.get(p["payer"]), "payee_name": seats.get(p["payee"])}
            for p in result.get("payments", [])
        ],
    }


def _disk_free_mb(path: Path) -> int:
    import shutil

    return int(shutil.disk_usage(path).free // 2**20)


def make_pin() -> str:
    return f"{secrets.randbelow(10**6):06d}"


__all__ = ["SEATS", "create_app", "make_pin"]
