"""``tilescore evaluate --labels DIR --photos DIR``: how well a model set reads labelled photos."""

from __future__ import annotations

import argparse
import json
import sys
import time
from collections import Counter
from collections.abc import Sequence
from pathlib import Path
from typing import TYPE_CHECKING, Any

from scoring import strict_json
from scoring.cli import json_text, write_json
from scoring.errors import TilescoreError
from scoring.variant import flowers_in_play
from vision.folders import check_writable
from vision.json_values import finite_number
from vision.models import SHIPPED_MODELS, thread_count

SAME_SHAPE = 0.02
"""A label and a photo whose widths and heights scale by shares this close are one photo at two
sizes (resized, rounded to whole pixels)."""

if TYPE_CHECKING:
    import numpy as np

    from vision.detection import Detection
    from vision.evaluate import Evaluation, PhotoResult
    from vision.images import Photo
    from vision.labels import LabelledPhoto
    from vision.models import ModelInfo
    from vision.tile_sets import TileSet


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--labels", type=Path, required=True, metavar="DIR", help="label JSON files, one a photo"
    )
    parser.add_argument(
        "--photos", type=Path, metavar="DIR", help="the photos (not needed with --predictions)"
    )
    parser.add_argument(
        "--models", type=Path, default=SHIPPED_MODELS, metavar="DIR", help="model folder"
    )
    parser.add_argument(
        "--threads", type=thread_count, default=None, metavar="N", help="onnxruntime threads"
    )
    parser.add_argument(
        "--predictions",
        type=Path,
        metavar="DIR",
        help="judge saved detect JSON (one NAME.json per photo, as `tilescore detect --json` "
        "writes) instead of running the models: how any other model is put on the same scale",
    )
    parser.add_argument(
        "--record",
        metavar="NAME",
        help="write the summary into each model's metadata JSON as metrics.NAME "
        "(for example real_photos), so the shipped files say how well they read",
    )
    parser.add_argument(
        "--tile-sets",
        metavar="FILE|none",
        help="what each labelled tile set holds (red fives or not); default: tile_sets.json "
        "beside the labels folder, when there is one; none: read every photo as if it might "
        "hold red fives",
    )
    parser.add_argument(
        "--variant",
        metavar="RULES",
        help="the rule set the photos are of (taiwan, riichi, mingjiang, xiangqi): read with the "
        "detector the model folder names for its tables, as detect and score do, and, for a "
        "rule set without flowers, no tile read as a flower, as score does",
    )
    parser.add_argument("--json", action="store_true", help="print the report as JSON")
    parser.add_argument(
        "--out",
        type=Path,
        metavar="DIR",
        help="write evaluation.json, confusion.png and annotated photos here",
    )


def run(args: argparse.Namespace) -> int:
    from vision.evaluate import Evaluation, match_photo
    from vision.images import load_photo
    from vision.labels import find_photo, load_labels
    from vision.pipeline import load_pipeline
    from vision.tile_sets import tile_set_named

    _check_arguments(args)
    labels = load_labels(args.labels)
    tile_sets = _tile_sets(args)
    facts = {label.image: tile_set_named(tile_sets, label.tile_set) for label in labels}
    red_fives = {image: tile_set.red_fives for image, tile_set in facts.items()}
    if args.predictions is not None:
        saved = _saved_results(labels, args.predictions, red_fives)
        return _report(args, labels, saved, None, tile_sets)
    if args.photos is None:
        raise TilescoreError("--photos DIR is needed to run the models")
    if not args.photos.is_dir():
        raise TilescoreError(f"{args.photos}: no such photos folder")
    pipeline = load_pipeline(args.models, threads=args.threads, variant=args.variant)
    flowers = flowers_in_play(args.variant)  # read as a table of that rule set reads
    results = []
    backs: dict[str, list[np.ndarray]] = {}  # tile-set name: crops of its labelled backs
    unreadable: list[dict[str, str]] = []  # photos not found or not read: said, not judged
    for number, label in enumerate(labels, 1):
        start = time.perf_counter()
        try:
            photo = find_photo(label, args.photos)
            decoded = load_photo(photo)
        except TilescoreError as error:
            unreadable.append({"image": label.image, "error": str(error)})
            continue
        decode_ms = round((time.perf_counter() - start) * 1000, 2)
        reading = pipeline.read(decoded.pixels, flowers=flowers, **facts[label.image].read_options)
        timing = {"decode": decode_ms, **reading.timing_ms}
        timing["total"] = round(decode_ms + reading.timing_ms["total"], 2)
        scale = _label_scale(decoded, label, photo)
        results.append(match_photo(label, reading.scaled(*scale).tiles, timing))
        backs.setdefault(label.tile_set or "", []).extend(_back_crops(decoded, label, scale))
        if args.out is not None:
            _annotate(decoded.pixels, reading.tiles, args.out / "annotated" / f"{photo.stem}.jpg")
        if not args.json:
            # One line redrawn on a terminal; a line each in a log (\r ran them together).
            line = f"{number}/{len(labels)} {photo.name}"
            if sys.stderr.isatty():
                print(f"\r{line}", end="", file=sys.stderr, flush=True)
            else:
                print(line, file=sys.stderr, flush=True)
    if not args.json and sys.stderr.isatty():
        print(file=sys.stderr)
    if not results and unreadable:  # none read: the folder is wrong, say why once
        if args.json:
            # A --json caller reads stdout: it gets the failure there too, in the shape of a
            # hand or photo that failed ({"error": ...}, as score and detect print them), with
            # each photo's own reason; the exit status and the stderr line stay as they were.
            write_json({"error": unreadable[0]["error"], "unreadable": unreadable})
        raise TilescoreError(unreadable[0]["error"])
    if args.record and unreadable:
        # The shipped files say how well they read the whole set, or nothing new: a figure
        # over the photos that happened to be read would stand in for it.
        print(
            f"not recorded as {args.record}: {len(unreadable)} of {len(labels)} photos were "
            "not read",
            file=sys.stderr,
        )
    elif args.record:
        _record(args, Evaluation(tuple(results), ()), args.labels, tile_sets)
    measured = _measured_backs(backs)
    models = tuple(_model_name(m) for m in pipeline.models)
    return _report(args, labels, results, models, tile_sets, measured, unreadable)


def _check_arguments(args: argparse.Namespace) -> None:
    """What can be told wrong before a photo is read: a rule set nobody knows, an output folder
    that is a file, or one that is the labels' or photos' folder (its evaluation.json would
    overwrite a label of that name, and the next evaluate would take the report for a label)."""
    from scoring.variant import variant_name

    if args.variant is not None:
        args.variant = variant_name(args.variant)
    if args.record and args.predictions is not None:
        raise TilescoreError(
            "--record writes into the metadata of the models that read the photos: with "
            "--predictions none of the folder's did"
        )
    if args.record:
        check_writable(args.models, "the models folder")
    if args.out is None:
        return
    if args.out.exists() and not args.out.is_dir():
        raise TilescoreError(f"{args.out}: a file, not a folder to write the report in")
    out = args.out.resolve()
    for name, folder in (("labels", args.labels), ("photos", args.photos)):
        if folder is not None and out == Path(folder).resolve():
            raise TilescoreError(
                f"--out {args.out} is the {name} folder: write the report in a folder of its own"
            )
    check_writable(args.out, "--out")


def _model_name(info: ModelInfo) -> str:
    """The model's name, and what it was adapted to (``train classifier --adapt``): the same
    name reads differently after."""
    adapted = info.metadata.get("adapted")
    if not isinstance(adapted, dict):
        return info.name
    photos = len(adapted.get("photos", []))
    return f"{info.name} (adapted to {adapted.get('tiles')} tiles of {photos} photos)"


def _label_scale(decoded: Photo, label: LabelledPhoto, photo: Path) -> tuple[float, float]:
    """The label's pixels per decoded pixel, across and down. A photo resized since it was
    labelled (the same shape, another size) is read at its own size and its boxes scaled to the
    label's; a label of another shape is another photo's, said in one line, not scored as a
    photo whose every tile was missed."""
    across, down = decoded.scale
    if not label.width or not label.height:
        return across, down
    to_x, to_y = label.width / decoded.width, label.height / decoded.height
    if abs(to_x / to_y - 1) > SAME_SHAPE:
        raise TilescoreError(
            f"{photo.name}: its label is for a {label.width}x{label.height} photo, "
            f"this one is {decoded.width}x{decoded.height}"
        )
    return across * to_x, down * to_y


def _back_crops(photo: Photo, label: LabelledPhoto, scale: tuple[float, float]) -> list[np.ndarray]:
    """The pixels of the photo's labelled backs, each at least 4 pixels each way; ``scale``:
    the label's pixels per decoded pixel."""
    from vision.crops import box_pixels

    across, down = scale
    pixels = [
        box_pixels(photo.pixels, (x1 / across, y1 / down, x2 / across, y2 / down))
        for x1, y1, x2, y2 in (tile.box for tile in label.tiles if tile.face_down)
    ]
    return [p for p in pixels if p is not None and min(p.shape[:2]) >= 4]


def _measured_backs(backs: dict[str, list[np.ndarray]]) -> dict[str, dict[str, Any]]:
    """Per tile set, the colour its labelled backs are painted and how many said so: what its
    tile_sets.json ``back_colour`` should say."""
    from vision.face_colour import measured_back_colour

    return {
        name: {"colour": measured_back_colour(crops), "backs": len(crops)}
        for name, crops in sorted(backs.items())
        if crops
    }


def _tile_sets(args: argparse.Namespace) -> dict[str, TileSet]:
    from vision.tile_sets import beside, load_tile_sets

    if args.tile_sets == "none":
        return {}
    path = Path(args.tile_sets) if args.tile_sets else beside(args.labels)
    if args.tile_sets and not path.is_file():
        raise TilescoreError(f"{path}: no such tile-set file")
    return load_tile_sets(path)


def _tile_set_facts(tile_sets: dict[str, TileSet]) -> dict[str, dict[str, Any]]:
    return {name: t.facts_json() for name, t in sorted(tile_sets.items())}


SUMMARY_KEYS = (
    "photos",
    "labelled_tiles",
    "tile_accuracy",
    "photo_accuracy",
    "detection_recall",
    "detection_precision",
    "reading_accuracy",
    "rotation_accuracy",
    "right_or_asked_accuracy",
    "questions",
)


def _record(
    args: argparse.Namespace, evaluation: Evaluation, labels: Path, tile_sets: dict[str, TileSet]
) -> None:
    """Each model's metadata JSON gets the summary under metrics[args.record]; the file is
    replaced atomically so a crash never leaves a shipped model without its metadata."""
    import datetime as dt
    import os

    report = evaluation.to_json()
    summary = {k: report[k] for k in SUMMARY_KEYS}
    summary["labels"] = str(labels)
    summary["tile_sets"] = _tile_set_facts(tile_sets)
    summary["date"] = dt.date.today().isoformat()
    from vision.models import named_models

    # The models that read the photos: with --variant, the detector named for its tables.
    named = named_models(args.models, args.variant)
    for path in (named.detector, named.classifier, named.pieces, named.second_opinion):
        if path is None:
            continue
        meta = json.loads(path.read_text())
        meta.setdefault("metrics", {})[args.record] = summary
        temporary = path.with_suffix(".json.tmp")
        # json_text: a labels folder named in bytes that are not UTF-8 cannot be written raw.
        temporary.write_text(json_text(meta, indent=2) + "\n", encoding="utf-8")
        os.replace(temporary, path)


def _saved_results(
    labels: Sequence[LabelledPhoto], folder: Path, red_fives: dict[str, bool]
) -> list[PhotoResult]:
    from vision.evaluate import match_photo

    if not folder.is_dir():
        raise TilescoreError(f"{folder}: no such predictions folder")
    results = []
    for label in labels:
        path = folder / f"{label.label_path.stem}.json"
        if not path.is_file():
            raise TilescoreError(f"{path}: no saved predictions for {label.image}")
        saved = strict_json.loads(path.read_bytes(), str(path))
        try:
            tiles, timing = _saved_photo(saved, red_fives[label.image])
        except TilescoreError as error:
            raise TilescoreError(f"{path}: not detect JSON: {error}") from None
        results.append(match_photo(label, tiles, timing))
    return results


def _saved_photo(saved: object, red_fives: bool) -> tuple[list[Detection], dict[str, float]]:
    """One photo's ``detect --json`` object: its tiles and timing, every field checked (as
    ``reconstruct`` checks them: vision.layout.tiles.from_detections)."""
    from vision.detection import Detection
    from vision.layout.tiles import from_detections
    from vision.tile_sets import plain_five

    if not isinstance(saved, dict) or not isinstance(saved.get("tiles"), list):
        raise TilescoreError("an object with a list of tiles is expected")
    timing = saved.get("timing_ms") or {}
    if not isinstance(timing, dict) or not all(
        finite_number(v) is not None for v in timing.values()
    ):
        raise TilescoreError("timing_ms must map stages to numbers")
    tiles = [
        Detection(
            code=tile.code if red_fives else plain_five(tile.code),
            box=tile.box,
            confidence=tile.confidence,
            detector_confidence=tile.confidence,
            classifier_confidence=1.0,
            face_down=tile.face_down,
            rotated=tile.rotated,
            # The flag as the reader saved it (it also flags reads it moved to fit the set);
            # worked out from the confidence for JSON from before the flag.
            low_confidence=tile.low_confidence,
        )
        for tile in from_detections(saved["tiles"])
    ]
    return tiles, {k: float(v) for k, v in timing.items()}


def _report(
    args: argparse.Namespace,
    labels: Sequence[LabelledPhoto],
    results: list[PhotoResult],
    models: tuple[str, ...] | None,
    tile_sets: dict[str, TileSet],
    measured_backs: dict[str, dict[str, Any]] | None = None,
    unreadable: Sequence[dict[str, str]] = (),
) -> int:
    """Print (and with ``--out``, write) the report; 1 where some labelled photos could not be
    read (``unreadable``, each said on stderr and left out of every figure), else 0."""
    from vision.evaluate import Evaluation

    name = models or (f"saved predictions in {args.predictions}",)
    evaluation = Evaluation(tuple(results), name)
    report = {**evaluation.to_json(), "tile_sets": _tile_set_facts(tile_sets)}
    if unreadable:
        report["unreadable"] = list(unreadable)
    if measured_backs:  # only when the photos were read
        report["labelled_backs"] = measured_backs
    if args.out is not None:
        from vision.confusion_plot import save_confusion

        args.out.mkdir(parents=True, exist_ok=True)
        (args.out / "evaluation.json").write_text(json.dumps(report, indent=2) + "\n")
        title = f"{' + '.join(evaluation.models)}: tile accuracy "
        title += _percent(evaluation.tile_accuracy).strip()
        save_confusion(evaluation.confusion(), args.out / "confusion.png", title)
    text = format_report(evaluation)
    if tile_sets:
        facts = "; ".join(t.describe() for t in tile_sets.values())
        text = text.replace("\n", f"\ntile sets: {facts}\n", 1)
    if measured_backs:
        colours = "; ".join(
            f"{name or '(no set named)'} {m['colour']} (median of {m['backs']})"
            for name, m in measured_backs.items()
        )
        text += f"\nlabelled backs are painted: {colours} (tile_sets.json back_colour)"
    if unreadable:
        text += f"\nleft out, not read: {len(unreadable)} of {len(labels)} labelled photos"
    if args.json:
        # Through write_json: a photo or label name whose bytes are not UTF-8 went out raw, or
        # as a traceback, where the output must be JSON in UTF-8.
        write_json(report)
    else:
        print(text)
    for photo in unreadable:
        print(f"error: {photo['error']}", file=sys.stderr)
    return 1 if unreadable else 0


def _annotate(image: np.ndarray, tiles: Sequence[Detection], target: Path) -> None:
    from vision.annotate import annotate, image_written

    target.parent.mkdir(parents=True, exist_ok=True)
    image_written(target, annotate(image, tiles))


def format_report(evaluation: Evaluation) -> str:
    """The summary first, then one line per class, then the photos that were not all right."""
    spread = evaluation.intervals()
    lines = [
        f"models: {' + '.join(evaluation.models)}",
        f"photos: {len(evaluation.photos)}, labelled tiles: {evaluation.labelled_tiles}",
        f"tile accuracy:        {_percent(evaluation.tile_accuracy)}   (found and read right; "
        f"95% interval over the photos {_span(spread['tile_accuracy'])})",
        f"photo accuracy:       {_percent(evaluation.photo_accuracy)}   (every tile right, "
        f"nothing extra; {_span(spread['photo_accuracy'])})",
        f"detection recall:     {_percent(evaluation.detection_recall)}",
        f"detection precision:  {_percent(evaluation.detection_precision)}",
        f"reading accuracy:     {_percent(evaluation.reading_accuracy)}   (of the tiles found)",
        f"rotation accuracy:    {_percent(evaluation.rotation_accuracy)}",
        *_question_lines(evaluation),
        "mean ms: " + ", ".join(f"{k} {v:.0f}" for k, v in evaluation.mean_ms().items()),
        "",
        f"{'class':<8}{'labelled':>9}{'read':>7}{'right':>7}{'precision':>11}{'recall':>8}",
    ]
    for c in evaluation.per_class():
        precision = "-" if c.precision is None else f"{c.precision:.2f}"
        recall = "-" if c.recall is None else f"{c.recall:.2f}"
        lines.append(
            f"{c.name:<8}{c.labelled:>9}{c.predicted:>7}{c.right:>7}{precision:>11}{recall:>8}"
        )
    wrong = [p for p in evaluation.photos if not p.all_right]
    if wrong:
        lines += ["", "photos not read perfectly:"]
        for p in wrong:
            lines.append(
                f"  {p.image}: {p.right}/{len(p.labels)} right, {len(p.missed)} missed, "
                f"{len(p.extra)} extra{_what_went_wrong(p)}"
            )
    return "\n".join(lines)


def _percent(share: float | None) -> str:
    """A share as the report's 7-wide percentage; n/a where there was nothing to count."""
    return f"{'n/a':>7}" if share is None else f"{share:7.1%}"


def _span(interval: tuple[float, float] | None) -> str:
    return "n/a" if interval is None else f"{interval[0]:.1%}-{interval[1]:.1%}"


def _question_lines(evaluation: Evaluation) -> list[str]:
    """What the display would ask (reads flagged low confidence) and what it lets pass."""
    asked = evaluation.questions()
    per_photo = asked["asked"] / max(len(evaluation.photos), 1)
    missed = sum(len(p.missed) for p in evaluation.photos)
    return [
        f"right or asked:       {_percent(evaluation.right_or_asked_accuracy)}   (photos with every "
        "tile found and every mistake flagged for a person to confirm)",
        f"questions:            {asked['asked']:7d}   ({per_photo:.1f} a photo; "
        f"{asked['asked_right']} of them read right)",
        f"not asked:            {asked['unasked_misreads']:7d}   misreads, "
        f"{asked['unasked_extra']} extra boxes, {missed} tiles missed",
    ]


def _what_went_wrong(photo: PhotoResult) -> str:
    """ ": 9s read as 6s x3, missed 5z" for a photo's line; nothing when only extras."""
    parts = [
        f"{label} read as {read}" + (f" x{count}" if count > 1 else "")
        for (label, read), count in Counter(photo.misreads).items()
    ]
    missed = Counter(photo.missed_names)
    parts += [
        f"missed {name}" + (f" x{count}" if count > 1 else "") for name, count in missed.items()
    ]
    return ": " + ", ".join(parts) if parts else ""
