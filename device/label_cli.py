"""``tilescore label``: the labelling page, and exports/imports/reports of the labels.

tilescore label PHOTOS --labels DIR                      # open the page (localhost)
tilescore label PHOTOS --labels DIR --export yolo|crops|labelstudio --out PATH
tilescore label PHOTOS --labels DIR --import labelstudio.json [--allow-empty]
tilescore label PHOTOS --labels DIR --report [--json]

A Label Studio export carries each label's size, tile set and notes in its tasks' data, and its
tiles as an annotation, or, for a label nobody checked (status "proposed"), as a pre-annotation
for a person to correct there; so exporting and importing again gives back the same files. An
import checks every task before it writes any label; a task's fields go over the label file's
(what it does not say stays), an annotation makes the label "done" (a person submitted it), and
a task with no annotation is skipped (counted, the label file left as it was). A label file the
import changes is copied to LABELS/.replaced/TIME/ first (it may hold edits made on the page
since the export), and one it would leave without tiles is refused unless --allow-empty. A
region that is no rectangle (a polygon...) cannot be a tile box: it is not imported, but counted
("dropped") and said per photo; a rectangle turned in Label Studio comes in as the upright box
around it, said too. Boxes are turned into pixels with the photo's own size, and a photo
uploaded into Label Studio (``8f3a2b1c-IMG_3085.jpg``) is found by its own name.

An export never writes inside the photo or labels folder (a Label Studio export over a label
file or a photo lost it), and a yolo or crops export goes into an empty or new folder only: old
files left in one would be mixed into the new training set as if they were part of it.
"""

from __future__ import annotations

import argparse
import sys
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring import strict_json
from scoring.cli import write_json
from scoring.errors import TilescoreError
from vision.models import SHIPPED_MODELS

if TYPE_CHECKING:
    from device.labels import LabelStore


def configure(parser: argparse.ArgumentParser) -> None:
    from device.app.cli import port_number  # as `serve` reads it: 0 to 65535, one line if not

    parser.add_argument("photos", type=Path, help="folder of photos")
    parser.add_argument("--labels", type=Path, help="label folder (default: PHOTOS/labels)")
    parser.add_argument("--models", type=Path, default=SHIPPED_MODELS, help="for pre-labels")
    parser.add_argument(
        "--port",
        type=port_number,
        help=f"the page's port, 1 to 65535 (default {PAGE_PORT}; 0: any free port)",
    )
    parser.add_argument("--export", choices=("yolo", "crops", "labelstudio"))
    parser.add_argument("--out", type=Path, help="where --export writes")
    parser.add_argument("--import", dest="import_file", type=Path, help="Label Studio JSON")
    parser.add_argument("--report", action="store_true", help="counts per class and tile set")
    parser.add_argument(
        "--allow-empty",
        action="store_true",
        help="let --import leave no tiles in a label that has some (an annotation with no boxes)",
    )
    parser.add_argument("--seed", type=int, help="--export's train/val split seed (default 0)")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from device.labels import LabelStore

    _check_flags(args)
    reads_only = bool(args.export or args.report)
    store = LabelStore(args.photos, args.labels or args.photos / "labels", create=not reads_only)
    if args.export:
        return _export(store, args.export, args.out, args.seed or 0)
    if args.import_file:
        return _import(store, args.import_file, args.allow_empty)
    if args.report:
        return _report(store, args.json)
    from device.app.cli import listening_server
    from device.label_web import create_label_app

    # As `serve` does: a port in use is one line, and the address printed is the port taken.
    port = PAGE_PORT if args.port is None else args.port
    server = listening_server("127.0.0.1", port, create_label_app(store, args.models))
    print(f"labelling {args.photos} on http://localhost:{server.port}/", flush=True)
    try:
        server.serve_forever()  # until Ctrl-C
    except KeyboardInterrupt:
        pass
    finally:
        server.server_close()
    return 0


PAGE_PORT = 8766
"""The labelling page's port unless ``--port`` says (the table app has 8765)."""


def _check_flags(args: argparse.Namespace) -> None:
    """Refuse flags that do not go together: each of them was left out in silence."""
    given = [
        flag
        for flag, value in (
            ("--export", args.export),
            ("--import", args.import_file),
            ("--report", args.report),
        )
        if value
    ]
    if len(given) > 1:
        raise TilescoreError(f"{' and '.join(given)} do not go together: give one at a time")
    if args.out is not None and not args.export:
        raise TilescoreError("--out is where --export writes: give --export yolo|crops|labelstudio")
    if args.allow_empty and not args.import_file:
        raise TilescoreError("--allow-empty is for --import")
    if args.seed is not None and not args.export:
        raise TilescoreError("--seed is --export's split: give --export yolo|crops|labelstudio")
    if not given and args.json:
        raise TilescoreError("--json is for --report, --export and --import: the page has no JSON")
    if given and args.port is not None:
        raise TilescoreError(f"--port is the page's: {given[0]} opens no page")


def _labelled(store: LabelStore, checked_only: bool = False) -> list[tuple[Path, dict[str, Any]]]:
    """(photo, label) for every photo with a label; a malformed label file, or one of a photo
    since replaced, is an error naming it. ``checked_only``: the labels a person marked done,
    not the models' proposals a page wrote on opening a photo (said on stderr)."""
    found = []
    proposed = 0
    for name in store.photo_names():
        label = store.load(name)
        if label is None:
            continue
        if checked_only and label.get("status", "done") != "done":
            proposed += 1
            continue
        store.check_size(name, label)
        found.append((store.photo_path(name), label))
    if proposed:
        print(
            f"left out {proposed} label(s) nobody marked done (the models' proposals)",
            file=sys.stderr,
        )
    return found


def _export(store: LabelStore, kind: str, out: Path | None, seed: int) -> int:
    from datasets import label_export
    from device.labels import write_json_atomically

    if out is None:
        raise TilescoreError("--export needs --out")
    # Checked before anything is read or written, so a wrong --out costs nothing.
    if kind == "labelstudio" and out.is_dir():
        raise TilescoreError(f"--out {out} is a folder: the Label Studio export is one JSON file")
    if kind == "labelstudio" and not out.parent.is_dir():
        raise TilescoreError(f"--out {out}: there is no folder {out.parent}")
    if kind != "labelstudio" and out.exists() and not out.is_dir():
        raise TilescoreError(f"--out {out} is a file: the {kind} export is a folder")
    _check_out_is_apart(store, out)
    if kind != "labelstudio" and out.is_dir() and any(out.iterdir()):
        # Not cleared either: what is in it may be anything of the user's.
        raise TilescoreError(
            f"--out {out} is not empty: give a new or empty folder (files left there would be "
            f"mixed into the {kind} export)"
        )
    # Label Studio takes the proposals too, as pre-annotations to check there; the training
    # exports only what a person checked.
    done = _labelled(store, checked_only=kind != "labelstudio")
    if kind != "labelstudio" and len(done) < 2:
        # One photo goes to train or to val, and either side empty fails the training on it.
        raise TilescoreError(
            f"--export {kind} needs at least 2 photos marked done, one to train on and one to "
            f"validate on: {len(done)} {'is' if len(done) == 1 else 'are'}"
        )
    try:
        if kind == "yolo":
            count = label_export.export_yolo(done, out, seed)
        elif kind == "crops":
            count = label_export.export_crops(done, out, seed)
        else:
            write_json_atomically(out, label_export.to_label_studio(done))
            count = len(done)
    except OSError as error:  # a full disk, a folder we may not write, a file in the way
        where = f" ({error.filename})" if error.filename else ""
        raise TilescoreError(f"cannot export to {out}: {error.strerror}{where}") from None
    write_json({"exported": count, "format": kind, "out": str(out)})
    return 0


def _check_out_is_apart(store: LabelStore, out: Path) -> None:
    """Refuse an --out in the photo or labels folder (or the folder itself): an export there
    writes over a label or a photo, or puts its own files among them. Compared resolved, so a
    relative path or a link to them is found too."""
    target = out.resolve()
    for what, folder in (("labels", store.labels), ("photo", store.photos)):
        if target.is_relative_to(folder.resolve()):
            raise TilescoreError(
                f"--out {out} is in the {what} folder {folder}: export somewhere else"
            )


def _import(store: LabelStore, path: Path, allow_empty: bool = False) -> int:
    """Label Studio tasks into the label files: every task is checked before any file is
    written, so a bad one leaves every label as it was. Nothing a person saved is lost: a label
    file the import changes is copied aside first (``LabelStore.keep_copies``: one edited on the
    page since the export, say), and one it would leave with no tiles is refused unless
    ``allow_empty``."""
    from datasets import label_export
    from device.labels import write_json_atomically

    tasks = _read_json(path)
    try:
        imported = label_export.from_label_studio(tasks, store.photo_names(), store.photo_size)
    except TilescoreError as error:
        raise TilescoreError(f"{path}: {error}") from None
    checked = {name: _imported(store, path, name, given) for name, given in imported.labels.items()}
    emptied = {
        name: len(old["tiles"])
        for name, (new, old) in checked.items()
        if old is not None and old.get("tiles") and not new["tiles"]
    }
    if emptied and not allow_empty:
        raise TilescoreError(
            f"{path}: an annotation with no boxes would leave no tiles in the label of "
            f"{_some(emptied)}: nothing imported; give --allow-empty to import it so"
        )
    # Only the files that change are written: one written over with what it holds would look
    # changed to a page open on it, which then refuses its next save.
    changed = {name: new for name, (new, old) in checked.items() if new != old}
    replaced = [name for name, (new, old) in checked.items() if old is not None and new != old]
    copies = _keep_copies(store, replaced)
    for written, (name, label) in enumerate(changed.items()):
        try:
            write_json_atomically(store.label_path(name), label)
        except OSError as error:  # a read-only folder, a full disk: the first one stops it
            raise TilescoreError(
                f"cannot write the labels folder {store.labels} ({error.strerror}): "
                f"{written} of {len(changed)} labels imported, {name} and the rest not"
            ) from None
    for name, had in emptied.items():  # allowed, and said
        print(f"warning: {name} is imported with no tiles (it had {had})", file=sys.stderr)
    for name, count in imported.dropped.items():
        print(
            f"warning: {name}: {count} region(s) not imported: only rectangles are tiles",
            file=sys.stderr,
        )
    for name, count in imported.turned.items():
        print(
            f"warning: {name}: {count} turned box(es) imported as the upright box around them",
            file=sys.stderr,
        )
    for name in imported.skipped:
        print(f"skipped {name}: its task has no annotation", file=sys.stderr)
    if copies is not None:
        print(f"replaced {len(replaced)} label(s); the old files are in {copies}", file=sys.stderr)
    summary = {
        "imported": len(checked),
        "skipped": len(imported.skipped),
        "dropped": sum(imported.dropped.values()),
        "replaced": len(replaced),
        "copies": None if copies is None else str(copies),
    }
    write_json(summary)
    return 0


def _some(names: dict[str, int]) -> str:
    """A few of ``names`` with their counts of tiles, for a one-line error."""
    shown = ", ".join(f"{name} ({count} tiles)" for name, count in list(names.items())[:3])
    return shown + (f" and {len(names) - 3} more" if len(names) > 3 else "")


def _keep_copies(store: LabelStore, names: list[str]) -> Path | None:
    """The label files of ``names`` copied aside before they are written over; one that cannot
    be copied stops the import before it writes anything."""
    try:
        return store.keep_copies(names)
    except OSError as error:
        raise TilescoreError(
            f"cannot keep a copy of the labels this import replaces in {store.labels} "
            f"({error.strerror}): nothing imported"
        ) from None


def _read_json(path: Path) -> Any:
    try:
        raw = path.read_bytes()
    except OSError as error:
        raise TilescoreError(f"cannot read {path}: {error.strerror}") from None
    return strict_json.loads(raw, str(path))


def _imported(
    store: LabelStore, path: Path, name: str, given: dict[str, Any]
) -> tuple[dict[str, Any], dict[str, Any] | None]:
    """The label a task makes, checked, not written, and the photo's label file as it is.
    The task's fields go over the label file's: what the task does not say (notes, the tile
    set) stays as the file had it; an annotation a person submitted in Label Studio is done.
    Its size is the photo's own, its boxes turned into pixels with it."""
    from device.labels import validate_label

    try:
        existing = store.load(name)
    except TilescoreError:
        # A label file that cannot be read (cut short, edited by hand) is mended by the task,
        # its bytes copied aside first as any replaced file's: the import was refused whole.
        existing = BROKEN
    label = given if existing is BROKEN else (existing or {}) | given
    try:
        clean = validate_label(name, label)
    except TilescoreError as error:
        raise TilescoreError(f"{path}: {name}: {error}") from None
    return clean, existing


BROKEN: dict[str, Any] = {"broken": True}
"""What an import finds in a label file it cannot read: replaced, never equal to a label."""


def _report(store: LabelStore, as_json: bool) -> int:
    from datasets import label_export

    summary = label_export.report(_labelled(store, checked_only=True))
    if as_json:
        write_json(summary)
        return 0
    print(f"{summary['photos']} photos, {summary['tiles']} tiles")
    for code, count in summary["per_class"].items():
        print(f"  {code:<6} {count}")
    few = summary["classes_with_too_few_examples"]
    print(f"classes with fewer than {summary['minimum']}: {' '.join(few) or 'none'}")
    return 0
