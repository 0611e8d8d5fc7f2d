"""The table's memory: sessions, every scored hand with its photo and corrections, in SQLite.

WAL mode and a commit per change, so a power cut loses at most the hand being written. Every
change that reads before it writes does both in one transaction begun at once (``BEGIN
IMMEDIATE``), so two requests at the same moment cannot both act on what they read before the
other wrote. Photos are saved under the data folder with names the store makes (``hand-<id>.jpg``,
never one a file or a label already holds); nothing from a request ever becomes a path.
"""

from __future__ import annotations

import csv
import errno
import io
import itertools
import json
import logging
import os
import shutil
import sqlite3
import tempfile
import time
from collections.abc import Iterator
from contextlib import contextmanager
from dataclasses import dataclass
from pathlib import Path
from typing import Any

from device.app.seats import chairs
from scoring.drawn_hands import DEAL_PASSES, DEALER_WINS, DealMove, Streak
from scoring.errors import TilescoreError

log = logging.getLogger(__name__)
SEATS = ("E", "S", "W", "N")
WINDS = ("E", "S", "W", "N")

SCHEMA = """
CREATE TABLE IF NOT EXISTS sessions (
    id INTEGER PRIMARY KEY,
    created REAL NOT NULL,
    players TEXT NOT NULL,          -- JSON list of names, seated E S W N when the session began
    variant TEXT NOT NULL,
    dealer INTEGER NOT NULL DEFAULT 0,      -- index into players of the current dealer
    streak INTEGER NOT NULL DEFAULT 0,      -- the dealer's consecutive wins
    round_wind INTEGER NOT NULL DEFAULT 0,  -- index into E S W N
    dealer_turns INTEGER NOT NULL DEFAULT 0 -- dealer changes in this round wind
);
CREATE TABLE IF NOT EXISTS hands (
    id INTEGER PRIMARY KEY,
    session_id INTEGER NOT NULL REFERENCES sessions(id),
    created REAL NOT NULL,
    photo TEXT,                 -- file name inside the data folder, made by the store
    detections TEXT NOT NULL,   -- JSON: the tiles as read
    reading TEXT NOT NULL,      -- JSON: the hand as scored (after corrections)
    context TEXT NOT NULL,      -- JSON: winds, dealer, streak, events...
    result TEXT NOT NULL,       -- JSON: what the scorer returned
    corrections TEXT NOT NULL DEFAULT '[]',
    state_before TEXT NOT NULL, -- JSON: session dealer/streak/round before this hand (for undo)
    undone INTEGER NOT NULL DEFAULT 0
);
CREATE TABLE IF NOT EXISTS settings (key TEXT PRIMARY KEY, value TEXT NOT NULL);
CREATE TABLE IF NOT EXISTS labels (
    id INTEGER PRIMARY KEY,
    hand_id INTEGER REFERENCES hands(id),
    created REAL NOT NULL,
    photo TEXT NOT NULL,
    tiles TEXT NOT NULL         -- JSON: corrected detections, the labelling format
);
"""


class StoreError(TilescoreError):
    """The data folder or its database cannot be used: one line naming the file, and what to do."""


@dataclass(frozen=True)
class SessionState:
    id: int
    players: tuple[str, ...]
    variant: str
    dealer: int
    streak: int
    round_wind: str

    @property
    def chairs(self) -> tuple[str, ...]:
        """The session's chairs: the first of E S W N, one a player (a 3-player table has no
        North), the dealer East."""
        return chairs(len(self.players))

    def seat_of(self, player_index: int) -> str:
        return SEATS[(player_index - self.dealer) % len(self.players)]

    def player_at(self, seat: str) -> int:
        """The index of the player at ``seat``; a chair nobody sits in is a ``TilescoreError``,
        never wrapped round onto another player."""
        if seat not in self.chairs:
            raise TilescoreError(
                f"nobody sits at chair {seat!r} of this {len(self.players)}-player session "
                f"({' '.join(self.chairs)})"
            )
        return (self.dealer + SEATS.index(seat)) % len(self.players)

    def to_json(self) -> dict[str, Any]:
        return {
            "id": self.id,
            "players": list(self.players),
            "variant": self.variant,
            "dealer": self.dealer,
            "streak": self.streak,
            "round_wind": self.round_wind,
            "seats": {self.seat_of(i): name for i, name in enumerate(self.players)},
        }


SQLITE_MAX_ID = 2**63 - 1  # a larger hand number is no row's (SQLite would overflow on it)


class Store:
    def __init__(self, data_dir: Path) -> None:
        """Open the data folder, or say in one line (a ``StoreError``) why it cannot be used:
        checked now, so a damaged or read-only store stops the app at the start rather than
        failing every hand, and a damaged one never takes new hands on top of the damage."""
        self.data_dir = data_dir
        self.photo_dir = data_dir / "photos"
        self.path = data_dir / "tilescore.sqlite3"
        self._check_folders()
        self._check_database()

    def _check_folders(self) -> None:
        try:
            self.photo_dir.mkdir(parents=True, exist_ok=True)
        except OSError as error:
            raise StoreError(self._unusable(self.photo_dir, error)) from None
        for folder in (self.data_dir, self.photo_dir):
            try:
                # A file made and removed: a read-only folder exists and lists as any other.
                handle, probe = tempfile.mkstemp(dir=folder, prefix=".write-check-")
                os.close(handle)
                os.unlink(probe)
            except OSError as error:
                raise StoreError(self._unusable(folder, error)) from None

    def _unusable(self, folder: Path, error: OSError) -> str:
        if error.errno == errno.EROFS:
            return (
                f"the data folder {self.data_dir} is read-only: make it writable (a memory card "
                "turned read-only after an error needs checking) or give --data FOLDER"
            )
        return f"cannot write {folder}: {error.strerror}; give --data FOLDER"

    def _check_database(self) -> None:
        """The database opens, ``PRAGMA quick_check`` finds it whole, and its tables are there.
        A bad one is left exactly as it is (it may hold the table's sessions), for a person to
        move aside."""
        if self.path.is_dir():
            raise StoreError(
                f"{self.path} is a folder, not the table's database: move it aside and start "
                "again (a new database is made)"
            )
        if self.path.exists() and not os.access(self.path, os.W_OK):
            # A write transaction still begins on it in WAL mode: every hand failed after.
            raise StoreError(
                f"{self.path} cannot be written (read-only, or another user's: a sudo run's): "
                "give it to the user the app runs as"
            )
        try:
            with self._read() as db:
                problems = [str(row[0]) for row in db.execute("PRAGMA quick_check")]
            if problems == ["ok"] and self.path.exists() and no_room(self.data_dir):
                # The scores can be seen and exported (reads need no room); every hand saved
                # says the disk is full. Stopped here, the display showed no scores at all.
                log.warning("the disk of %s is full: no hand can be saved", self.data_dir)
                return
            with self._write() as db:
                db.execute("SELECT 1")
            with self._connect() as db:
                db.executescript(SCHEMA)  # executescript commits first: a transaction of its own
        except sqlite3.OperationalError as error:
            raise StoreError(f"cannot open {self.path} ({error}); check the data folder") from None
        except sqlite3.DatabaseError as error:  # not a database, or its pages are damaged
            problems = [str(error)]
        if problems != ["ok"]:
            raise StoreError(self._damaged(" ".join(problems)))

    def _damaged(self, problem: str) -> str:
        problem = " ".join(problem.replace("*** in database main ***", "").split())[:200]
        if "not a database" in problem:
            what, keep = "is not a database", ""
        else:  # its pages fail the check: some hands may still be read from it
            what, keep = (
                "is damaged",
                f" (keep it: `sqlite3 {self.path.name} .recover` may save its hands)",
            )
        return (
            f"{self.path} {what} ({problem}): move it aside{keep} and start again; "
            "a new one is made"
        )

    def _open(self) -> sqlite3.Connection:
        db = sqlite3.connect(self.path, timeout=10)
        db.row_factory = sqlite3.Row
        return db

    @contextmanager
    def _connect(self) -> Iterator[sqlite3.Connection]:
        db = self._open()
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            yield db
            db.commit()
        finally:
            db.close()

    @contextmanager
    def _write(self) -> Iterator[sqlite3.Connection]:
        """A write transaction begun at once (``BEGIN IMMEDIATE``): what it reads is read under
        the write lock, so two undos at the same moment undo two hands, not one hand twice, and
        a hand is dealt from the state the one before it left. Rolled back on any error."""
        db = self._open()
        try:
            db.execute("PRAGMA journal_mode=WAL")
            db.execute("PRAGMA synchronous=FULL")
            db.execute("BEGIN IMMEDIATE")
            yield db
            db.commit()
        finally:
            db.close()  # without a commit: rolled back

    @contextmanager
    def _read(self) -> Iterator[sqlite3.Connection]:
        """A connection that only reads, and reads on when the data folder turns read-only (a
        memory card remounted after an error) or its disk fills: SQLite cannot make WAL's
        shared-memory file then, so the file is read as an unchanging file, and the scores can
        still be seen and exported. Not while the WAL file holds changes: they would be missed."""
        db = self._open()
        try:
            try:
                db.execute("PRAGMA schema_version")  # opens the file
            except sqlite3.OperationalError:
                if not self._all_in_file():
                    raise
                db.close()
                db = sqlite3.connect(
                    self.path.resolve().as_uri() + "?mode=ro&immutable=1", uri=True
                )
                db.row_factory = sqlite3.Row
            yield db
        finally:
            db.close()

    def _all_in_file(self) -> bool:
        """Whether all of the database is in its file (no change waits in the WAL file): it
        can be read as it is, with no shared memory. Whether it cannot be written (a read-only
        card) or has no room to (a full disk: SQLite's error there is a 'disk I/O error')."""
        wal = self.path.with_name(self.path.name + "-wal")
        return not (wal.exists() and wal.stat().st_size > 0)

    # -- settings remembered between hands -------------------------------------------------
    def get_setting(self, key: str, default: Any = None) -> Any:
        with self._read() as db:
            row = db.execute("SELECT value FROM settings WHERE key = ?", (key,)).fetchone()
        return json.loads(row["value"]) if row else default

    def set_setting(self, key: str, value: Any) -> None:
        with self._write() as db:
            db.execute(
                "INSERT INTO settings(key, value) VALUES (?, ?) "
                "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                (key, json.dumps(value, ensure_ascii=False)),
            )

    # -- sessions --------------------------------------------------------------------------
    def new_session(
        self, players: list[str], variant: str, settings: dict[str, Any] | None = None
    ) -> SessionState:
        """Start a session; with ``settings`` (key: value), saved in the same transaction: the
        table's context brought to the new session's chairs is saved with it or not at all."""
        if not 2 <= len(players) <= len(SEATS):  # each sits at a chair of E S W N
            raise TilescoreError(f"a session has 2 to {len(SEATS)} players, got {len(players)}")
        with self._write() as db:
            cursor = db.execute(
                "INSERT INTO sessions(created, players, variant) VALUES (?, ?, ?)",
                (time.time(), json.dumps(players, ensure_ascii=False), variant),
            )
            session_id = cursor.lastrowid
            for key, value in (settings or {}).items():
                db.execute(
                    "INSERT INTO settings(key, value) VALUES (?, ?) "
                    "ON CONFLICT(key) DO UPDATE SET value = excluded.value",
                    (key, json.dumps(value, ensure_ascii=False)),
                )
        assert session_id is not None
        return self.session(session_id)

    def current_session(self) -> SessionState | None:
        with self._read() as db:
            row = db.execute("SELECT id FROM sessions ORDER BY id DESC LIMIT 1").fetchone()
        return self.session(row["id"]) if row else None

    def sessions(self) -> list[dict[str, Any]]:
        """Every session, the newest first: when it began, who played, its rule set, and how many
        hands it kept (those undone aside)."""
        with self._read() as db:
            rows = db.execute(
                "SELECT s.id, s.created, s.players, s.variant, "
                "(SELECT COUNT(*) FROM hands h WHERE h.session_id = s.id AND h.undone = 0) "
                "AS hands FROM sessions s ORDER BY s.id DESC"
            ).fetchall()
        return [
            {
                "id": row["id"],
                "created": row["created"],
                "players": json.loads(row["players"]),
                "variant": row["variant"],
                "hands": row["hands"],
            }
            for row in rows
        ]

    def session(self, session_id: int) -> SessionState:
        with self._read() as db:
            row = db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise KeyError(session_id)
        return SessionState(
            id=row["id"],
            players=tuple(json.loads(row["players"])),
            variant=row["variant"],
            dealer=row["dealer"],
            streak=row["streak"],
            round_wind=WINDS[row["round_wind"] % 4],
        )

    def _session_row(self, db: sqlite3.Connection, session_id: int) -> dict[str, Any]:
        row = db.execute("SELECT * FROM sessions WHERE id = ?", (session_id,)).fetchone()
        if row is None:
            raise KeyError(session_id)
        return dict(row)

    # -- hands -----------------------------------------------------------------------------
    def add_hand(
        self,
        session_id: int,
        photo_jpeg: bytes | None,
        detections: list[dict[str, Any]],
        reading: dict[str, Any],
        context: dict[str, Any],
        result: dict[str, Any],
    ) -> int:
        """Record a scored hand and move the dealer on (a dealer win extends the streak). The
        session is read inside the write transaction: the hand is dealt from the state the hand
        before it (or an undo) left, whatever else came at the same moment."""
        with self._write() as db:
            state = self._session_row(db, session_id)
            cursor = db.execute(
                "INSERT INTO hands(session_id, created, detections, reading, context, result, "
                "state_before) VALUES (?, ?, ?, ?, ?, ?, ?)",
                (
                    session_id,
                    time.time(),
                    _dump(detections),
                    _dump(reading),
                    _dump(context),
                    _dump(result),
                    _dump(
                        {k: state[k] for k in ("dealer", "streak", "round_wind", "dealer_turns")}
                    ),
                ),
            )
            hand_id = cursor.lastrowid
            assert hand_id is not None
            photo = None if photo_jpeg is None else self._save_photo(hand_id, photo_jpeg)
            try:
                if photo is not None:
                    db.execute("UPDATE hands SET photo = ? WHERE id = ?", (photo.name, hand_id))
                self._advance_dealer(db, state, context, result)
                db.commit()
            except BaseException:
                if photo is not None:  # no row will name it: its name is free again
                    photo.unlink(missing_ok=True)
                raise
        return hand_id

    def _save_photo(self, hand_id: int, jpeg: bytes) -> Path:
        """Write a hand's photo under a name no file and no label in the folder holds.

        ``hand-<id>.jpg`` as a rule; but a database moved aside or lost numbers its hands from 1
        again, and the photos and labels (some reviewed) of its hands stay in the folder: their
        names are passed over for ``hand-<id>-2.jpg`` and on, so no photo is ever written over
        and no old label comes to stand beside another photo. A name is taken (``O_EXCL``)
        before the photo is written into it."""
        taken = self._taken_stems()
        for n in itertools.count(1):
            stem = f"hand-{hand_id}" if n == 1 else f"hand-{hand_id}-{n}"
            if stem.casefold() in taken:
                continue
            path = self.photo_dir / f"{stem}.jpg"
            try:
                os.close(os.open(path, os.O_WRONLY | os.O_CREAT | os.O_EXCL, 0o644))
            except FileExistsError:  # made since the folder was listed
                continue
            try:
                _write_atomically(path, jpeg)
            except BaseException:
                path.unlink(missing_ok=True)
                raise
            return path
        raise AssertionError("unreachable")

    def _taken_stems(self) -> set[str]:
        """The names (without suffix, any case: a label file is one per stem, and some file
        systems ignore case) of the photos and the label files in the photo folder."""
        labels = self.photo_dir / "labels"
        names = [p.name for p in self.photo_dir.iterdir()]
        if labels.is_dir():
            names += [p.name for p in labels.iterdir()]
        return {Path(name).stem.casefold() for name in names}

    def _advance_dealer(
        self,
        db: sqlite3.Connection,
        state: dict[str, Any],
        context: dict[str, Any],
        result: dict[str, Any],
    ) -> None:
        move = _dealer_outcome(context, result)
        if move is None:
            return
        streak = {Streak.UP: state["streak"] + 1, Streak.SAME: state["streak"], Streak.RESET: 0}[
            move.streak
        ]
        if move.dealer_stays:
            db.execute("UPDATE sessions SET streak = ? WHERE id = ?", (streak, state["id"]))
            return
        players = len(json.loads(state["players"]))
        turns = state["dealer_turns"] + 1
        round_wind = state["round_wind"] + (1 if turns >= players else 0)
        db.execute(
            "UPDATE sessions SET dealer = ?, streak = ?, dealer_turns = ?, round_wind = ? "
            "WHERE id = ?",
            ((state["dealer"] + 1) % players, streak, turns % players, round_wind, state["id"]),
        )

    def update_hand(
        self,
        hand_id: int,
        reading: dict[str, Any],
        context: dict[str, Any],
        result: dict[str, Any],
        correction: dict[str, Any],
        detections: list[dict[str, Any]] | None = None,
        other_run: bool = False,
    ) -> int | None:
        """Save a corrected hand (with its tiles as corrected, if a tile was): all of it or,
        if anything fails, none of it. When it is the session's latest hand and the fix changes
        what moves the dealer (a win into no win, the dealer's win into another's), the dealer
        is moved on again from where it stood before the hand, and the next hand is dealt from
        the corrected outcome. Any other fix leaves the table as it stands: a streak or round
        wind the players set by hand since the hand was scored is theirs.

        ``other_run``: the table plays another rule set than the hand's since it was scored,
        and the session's streak is that rule set's run (a Taiwan 連莊 is not riichi's 本場):
        the dealer and the round move again, the streak stays as it is. Returned, where the
        deal moved again: the streak the hand's own run comes to after it."""
        with self._write() as db:
            row = db.execute(
                "SELECT session_id, corrections, state_before, context, result FROM hands "
                "WHERE id = ?",
                (hand_id,),
            ).fetchone()
            if row is None:
                raise KeyError(hand_id)
            corrections = [*json.loads(row["corrections"]), correction]
            db.execute(
                "UPDATE hands SET reading = ?, context = ?, result = ?, corrections = ? "
                "WHERE id = ?",
                (_dump(reading), _dump(context), _dump(result), _dump(corrections), hand_id),
            )
            if detections is not None:
                db.execute(
                    "UPDATE hands SET detections = ? WHERE id = ?", (_dump(detections), hand_id)
                )
            latest = db.execute(
                "SELECT MAX(id) FROM hands WHERE session_id = ? AND undone = 0",
                (row["session_id"],),
            ).fetchone()[0]
            # An older hand keeps its effect: the hands after it were dealt as the table saw it.
            moved_before = _dealer_outcome(json.loads(row["context"]), json.loads(row["result"]))
            if latest != hand_id or moved_before == _dealer_outcome(context, result):
                return None
            session_id = row["session_id"]
            streak_now = self._session_row(db, session_id)["streak"]
            self._restore_state(db, session_id, json.loads(row["state_before"]))
            self._advance_dealer(db, self._session_row(db, session_id), context, result)
            own_run = int(self._session_row(db, session_id)["streak"])
            if other_run:
                db.execute("UPDATE sessions SET streak = ? WHERE id = ?", (streak_now, session_id))
            return own_run

    def _restore_state(
        self, db: sqlite3.Connection, session_id: int, before: dict[str, Any]
    ) -> None:
        db.execute(
            "UPDATE sessions SET dealer = ?, streak = ?, round_wind = ?, dealer_turns = ? "
            "WHERE id = ?",
            (
                before["dealer"],
                before["streak"],
                before["round_wind"],
                before["dealer_turns"],
                session_id,
            ),
        )

    def set_session_state(
        self, session_id: int, *, streak: int | None = None, round_wind: str | None = None
    ) -> SessionState:
        """The table corrects the streak or the round wind by hand (a drawn hand, a late start)."""
        with self._write() as db:
            if streak is not None:
                db.execute(
                    "UPDATE sessions SET streak = ? WHERE id = ?", (max(0, streak), session_id)
                )
            if round_wind is not None:
                db.execute(
                    "UPDATE sessions SET round_wind = ? WHERE id = ?",
                    (WINDS.index(round_wind), session_id),
                )
        return self.session(session_id)

    def hand(self, hand_id: int) -> dict[str, Any]:
        if not 0 < hand_id <= SQLITE_MAX_ID:
            raise KeyError(hand_id)
        with self._read() as db:
            row = db.execute("SELECT * FROM hands WHERE id = ?", (hand_id,)).fetchone()
        if row is None:
            raise KeyError(hand_id)
        return _hand_json(row)

    def hands(self, session_id: int, include_undone: bool = False) -> list[dict[str, Any]]:
        query = "SELECT * FROM hands WHERE session_id = ?"
        if not include_undone:
            query += " AND undone = 0"
        with self._read() as db:
            rows = db.execute(query + " ORDER BY id", (session_id,)).fetchall()
        return [_hand_json(r) for r in rows]

    def latest_hand(self, session_id: int) -> dict[str, Any] | None:
        """The session's last hand that was not undone, if any."""
        with self._read() as db:
            row = db.execute(
                "SELECT * FROM hands WHERE session_id = ? AND undone = 0 ORDER BY id DESC LIMIT 1",
                (session_id,),
            ).fetchone()
        return _hand_json(row) if row else None

    def undo_last(self, session_id: int) -> int | None:
        """Mark the last hand undone and put the dealer back where it was before it. Which hand is
        last is read inside the write transaction: undos at the same moment undo one each."""
        with self._write() as db:
            row = db.execute(
                "SELECT id, state_before FROM hands WHERE session_id = ? AND undone = 0 "
                "ORDER BY id DESC LIMIT 1",
                (session_id,),
            ).fetchone()
            if row is None:
                return None
            db.execute("UPDATE hands SET undone = 1 WHERE id = ?", (row["id"],))
            self._restore_state(db, session_id, json.loads(row["state_before"]))
            return int(row["id"])

    def photo_path(self, hand_id: int) -> Path | None:
        hand = self.hand(hand_id)
        return self.photo_dir / hand["photo"] if hand["photo"] else None

    # -- totals and export -----------------------------------------------------------------
    def totals(self, session_id: int) -> dict[str, int]:
        """Running totals per player name in the rule set of the session's last hand (``tallies``)."""
        return self.tallies(session_id)[0]

    def tallies(
        self, session_id: int, hands: list[dict[str, Any]] | None = None
    ) -> tuple[dict[str, int], dict[str, dict[str, int]]]:
        """Running totals per player name in the rule set of the session's last hand (every
        hand's, where the session played one rule set): the table's scores as it plays now; and
        beside them every rule set's, apart, in the order first played: each pays in its own
        units (台, riichi's points), and summed they meant nothing. ``hands``: the session's
        hands not undone, where the caller has them already."""
        hands = self.hands(session_id) if hands is None else hands
        players = self.session(session_id).players
        by_rule_set = _totals_by_rule_set(players, hands)
        if not hands:
            return {name: 0 for name in players}, by_rule_set
        return by_rule_set[_rule_set_of(hands[-1])], by_rule_set

    def export_json(self, session_id: int) -> dict[str, Any]:
        every = self.hands(session_id, include_undone=True)
        totals, by_rule_set = self.tallies(session_id, [h for h in every if not h["undone"]])
        return {
            "session": self.session(session_id).to_json(),
            "totals": totals,
            "totals_by_rule_set": rule_set_totals_json(by_rule_set),
            "hands": every,
        }

    def seats_at(self, hand: dict[str, Any]) -> dict[str, str]:
        """Who sat where when this hand was played (seat wind -> player name)."""
        players = self.session(hand["session_id"]).players
        dealer = hand["state_before"]["dealer"]
        return {seat: _player_at(players, dealer, seat) or seat for seat in chairs(len(players))}

    def export_csv(self, session_id: int) -> str:
        """One row a hand, with players named as they sat then (a spreadsheet has no seats)."""
        out = io.StringIO()
        writer = csv.writer(out)
        writer.writerow(
            [
                "hand",
                "time",
                "variant",
                "hand_tiles",
                "winner",
                "won_by",
                "total",
                "unit",
                "payments",
                "note",
                "corrections",
                "undone",
            ]
        )
        for hand in self.hands(session_id, include_undone=True):
            result, context = hand["result"], hand["context"]
            names = self.seats_at(hand)

            def named(seat: str, names: dict[str, str] = names) -> str:
                return f"{names.get(seat, seat)} ({seat})"

            payments = "; ".join(
                f"{named(p['payer'])}->{named(p['payee'])} {p['amount']}"
                for p in result.get("payments", [])
            )
            winner = context.get("seat_wind", "E")
            won_by = (
                "self-draw" if context.get("self_draw") else named(context.get("discarder") or "?")
            )
            if is_recorded_draw(hand):  # nobody won
                winner_named, won_by = "", f"drawn ({result.get('reason', '')})"
                ready = " ".join(map(named, result.get("ready", [])))
                note = f"drawn hand; ready: {ready}" if ready else "drawn hand"
            else:
                winner_named = named(winner)
                note = result.get("error") or (
                    "" if result.get("winning") else "not a winning hand"
                )
            write_cells(
                writer,
                [
                    hand["id"],
                    time.strftime("%Y-%m-%d %H:%M", time.localtime(hand["created"])),
                    result.get("variant", context.get("variant", "")),
                    hand["reading"].get("hand", ""),
                    winner_named,
                    won_by,
                    result.get("total", ""),
                    result.get("unit", ""),
                    payments,
                    note,
                    len(hand["corrections"]),
                    hand["undone"],
                ],
            )
        return out.getvalue()

    # -- labelled data from corrections ----------------------------------------------------
    def add_label(
        self, hand_id: int, photo: str, tiles: list[dict[str, Any]], size: tuple[int, int] = (0, 0)
    ) -> bool:
        """Keep a corrected photo's tiles: in the database, and as a label file beside the photos
        in the labelling page's layout (``photos/labels/<photo's name>.json``), so ``tilescore
        label DATA/photos`` opens it for review and ``tilescore train classifier --from
        DATA/photos/labels`` learns from it once marked done. It stays "proposed": a person fixed
        the tiles that mattered to the score, not necessarily every one.

        The file is written only while it is the app's own: none yet, or the very proposal the
        app last wrote for this hand. One a person has reviewed (marked done, a tile or a note
        changed) is theirs and is never written over; nor is one the app did not write (left
        by a database moved aside). Returns whether the file was written."""
        from device.labels import validate_label, write_json_atomically

        label = {"width": size[0], "height": size[1], "status": "proposed", "tiles": tiles}
        clean = validate_label(photo, label)
        path = self.photo_dir / "labels" / (Path(photo).stem + ".json")
        with self._write() as db:
            before = db.execute(
                "SELECT tiles FROM labels WHERE hand_id = ? AND photo = ? ORDER BY id DESC LIMIT 1",
                (hand_id, photo),
            ).fetchone()
            db.execute("DELETE FROM labels WHERE hand_id = ?", (hand_id,))
            db.execute(
                "INSERT INTO labels(hand_id, created, photo, tiles) VALUES (?, ?, ?, ?)",
                (hand_id, time.time(), photo, _dump(tiles)),
            )
        if path.exists() and not _written_by_app(path, photo, before):
            return False
        write_json_atomically(path, clean)
        return True

    def labels(self) -> list[dict[str, Any]]:
        with self._read() as db:
            rows = db.execute("SELECT * FROM labels ORDER BY id").fetchall()
        return [
            {"hand_id": r["hand_id"], "photo": r["photo"], "tiles": json.loads(r["tiles"])}
            for r in rows
        ]


def _player_at(players: tuple[str, ...], dealer: int, seat: str) -> str | None:
    """Who sat at ``seat`` when ``dealer`` dealt; None for a chair the session does not have
    (North at a 3-player table), never wrapped round onto another player."""
    if seat not in chairs(len(players)):
        return None
    return players[(dealer + SEATS.index(seat)) % len(players)]


def _written_by_app(path: Path, photo: str, before: sqlite3.Row | None) -> bool:
    """Whether the label file is still the proposal the app last wrote for the photo: status
    "proposed", the same tiles, nothing added (the size aside: the app writes the same one)."""
    from device.labels import validate_label

    if before is None:
        return False
    try:
        found = json.loads(path.read_text(encoding="utf-8"))
        wrote = validate_label(photo, {"status": "proposed", "tiles": json.loads(before["tiles"])})
    except (OSError, ValueError, TilescoreError):  # unreadable: a person's to sort out
        return False
    if not isinstance(found, dict):
        return False
    size = ("width", "height")
    return {k: v for k, v in found.items() if k not in size} == {
        k: v for k, v in wrote.items() if k not in size
    }


def _totals_by_rule_set(
    players: tuple[str, ...], hands: list[dict[str, Any]]
) -> dict[str, dict[str, int]]:
    """Running totals per player name, from every hand's payments (seats as they were then),
    apart for each rule set the hands were scored under, in the order first played."""
    by_rule_set: dict[str, dict[str, int]] = {}
    for hand in hands:
        totals = by_rule_set.setdefault(_rule_set_of(hand), {name: 0 for name in players})
        before = hand["state_before"]
        for payment in hand["result"].get("payments", []):
            payer = _player_at(players, before["dealer"], payment["payer"])
            payee = _player_at(players, before["dealer"], payment["payee"])
            if payer is not None and payee is not None:
                totals[payer] -= payment["amount"]
                totals[payee] += payment["amount"]
            else:
                # Scoring refuses such a hand now (service.score_reading); one kept by an
                # older version is left out of the totals rather than charged to a player
                # who did not pay, and said in the log.
                log.warning(
                    "hand %s: payment %s -> %s names a chair nobody sits in; not counted",
                    hand["id"],
                    payment["payer"],
                    payment["payee"],
                )
    return by_rule_set


def _rule_set_of(hand: dict[str, Any]) -> str:
    """The rule set a hand was scored under (one kept by an older version may not say: the
    app's first, Taiwan's)."""
    return str((hand.get("context") or {}).get("variant") or "taiwan")


def rule_set_totals_json(by_rule_set: dict[str, dict[str, int]]) -> list[dict[str, Any]]:
    """``totals_by_rule_set`` as the API and the JSON export say it: a list, in the order the
    rule sets were first played."""
    return [{"variant": name, "totals": totals} for name, totals in by_rule_set.items()]


def is_recorded_draw(hand: dict[str, Any]) -> bool:
    """Whether a kept hand is a drawn hand the table recorded (``/api/draw``): nobody won, and
    there is no photo and no tile to correct. Its reading holds the draw as the table said it."""
    return "draw" in (hand.get("reading") or {})


def _dealer_outcome(context: dict[str, Any], result: dict[str, Any]) -> DealMove | None:
    """What a hand does to the deal (``Store._advance_dealer``), or None where nothing moves on
    its own.

    A drawn hand the table recorded says its move (``deal``: its rule set's ``score_draw``). A
    hand nobody won moves nothing, whoever is said to have won it, and neither does a draw
    scored as a hand (riichi's event ``nagashi_mangan``, kept by an older version: the app now
    records 流局滿貫 as a drawn hand, which says its move). A 明將 雞糊 under 方案一 is no end of the hand (it goes on). Where the dealer never
    repeats (明將: 冇冧莊), every hand that ends passes the deal, a dealer's win or a third 雞糊
    (摸和) too."""
    from scoring.variant import find_variant

    if "deal" in result:
        return DealMove.from_json(result["deal"])
    if result.get("hand_continues"):
        return None
    try:
        repeats = find_variant(context.get("variant") or "taiwan").dealer_repeats
    except TilescoreError:  # a hand kept with a rule set this version has not
        repeats = True
    if result.get("drawn") or result.get("hand_ends"):
        return None if repeats else DEAL_PASSES
    if not result.get("winning"):
        return None
    return DEALER_WINS if repeats and context.get("seat_wind", "E") == "E" else DEAL_PASSES


def _dump(value: Any) -> str:
    return json.dumps(value, ensure_ascii=False)


def _hand_json(row: sqlite3.Row) -> dict[str, Any]:
    out = dict(row)
    for key in ("detections", "reading", "context", "result", "corrections", "state_before"):
        out[key] = json.loads(out[key])
    return out


def no_room(folder: Path) -> bool:
    """Whether the disk of ``folder`` has no room for a hand (a photo and its row)."""
    try:
        return shutil.disk_usage(folder).free < NO_ROOM_BYTES
    except OSError:
        return False


NO_ROOM_BYTES = 1024 * 1024
"""Less free space than a kept photo takes: the disk is full, whatever SQLite's error said
(on a full disk it says "disk I/O error")."""


def _write_atomically(path: Path, data: bytes) -> None:
    tmp = path.with_suffix(path.suffix + ".tmp")
    try:
        with open(tmp, "wb") as handle:
            handle.write(data)
            handle.flush()
            os.fsync(handle.fileno())
        tmp.replace(path)
    except BaseException:
        tmp.unlink(missing_ok=True)  # a half-written photo is no photo
        raise
    # The rename lives in the folder: sync it too, or a power cut right after the hand's row is
    # committed can leave the row without its photo.
    folder = os.open(path.parent, os.O_RDONLY)
    try:
        os.fsync(folder)
    finally:
        os.close(folder)


FORMULA_STARTS = ("=", "+", "-", "@", "\t", "\r")
"""What a spreadsheet takes for a formula at a cell's start: a player named ``=HYPERLINK(...)``
or ``@SUM(1)`` would run as one in the exported scores."""


def write_cells(writer: Any, cells: list[Any]) -> None:
    """One CSV row, each text that a spreadsheet would read as a formula led by ``'`` (shown as
    it was typed; the quote is the spreadsheets' own mark for "text"). Numbers stay numbers."""
    writer.writerow(
        "'" + cell if isinstance(cell, str) and cell.startswith(FORMULA_STARTS) else cell
        for cell in cells
    )
