"""``tilescore label``: the labelling page, and exports/imports/reports of the labels.

tilescore label PHOTOS --labels DIR                      # open the page (localhost)
tilescore label PHOTOS --labels DIR --export yolo|crops|labelstudio --out PATH
tilescore label PHOTOS --labels DIR --import labelstudio.json
tilescore label PHOTOS --labels DIR --report [--json]
"""

from __future__ import annotations

import argparse
import json
from pathlib import Path

from scoring.errors import TilescoreError


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument("photos", type=Path, help="folder of photos")
    parser.add_argument("--labels", type=Path, help="label folder (default: PHOTOS/labels)")
    parser.add_argument("--models", type=Path, default=Path("models"), help="for pre-labels")
    parser.add_argument("--port", type=int, default=8766)
    parser.add_argument("--export", choices=("yolo", "crops", "labelstudio"))
    parser.add_argument("--out", type=Path, help="where --export writes")
    parser.add_argument("--import", dest="import_file", type=Path, help="Label Studio JSON")
    parser.add_argument("--report", action="store_true", help="counts per class and tile set")
    parser.add_argument("--seed", type=int, default=0, help="train/val split seed")
    parser.add_argument("--json", action="store_true")


def run(args: argparse.Namespace) -> int:
    from device.labels import LabelStore

    store = LabelStore(args.photos, args.labels or args.photos / "labels")
    done = [
        (store.photo_path(name), label)
        for name in store.photo_names()
        if (label := store.load(name)) is not None
    ]
    if args.export:
        if args.out is None:
            raise TilescoreError("--export needs --out")
        from datasets import label_export

        if args.export == "yolo":
            count = label_export.export_yolo(done, args.out, args.seed)
        elif args.export == "crops":
            count = label_export.export_crops(done, args.out, args.seed)
        else:
            args.out.write_text(label_export.dump(label_export.to_label_studio(done)))
            count = len(done)
        print(json.dumps({"exported": count, "format": args.export, "out": str(args.out)}))
        return 0
    if args.import_file:
        from datasets import label_export

        try:
            tasks = json.loads(args.import_file.read_text("utf-8"))
        except (OSError, json.JSONDecodeError) as error:
            raise TilescoreError(f"cannot read {str(args.import_file)!r}: {error}") from None
        imported = label_export.from_label_studio(tasks)
        for name, label in imported.items():
            store.save(name, label)
        print(json.dumps({"imported": len(imported)}))
        return 0
    if args.report:
        from datasets import label_export

        summary = label_export.report(done)
        if args.json:
            print(json.dumps(summary, ensure_ascii=False))
        else:
            print(f"{summary['photos']} photos, {summary['tiles']} tiles")
            for code, count in summary["per_class"].items():
                print(f"  {code:<6} {count}")
            few = summary["classes_with_too_few_examples"]
            print(f"classes with fewer than {summary['minimum']}: {' '.join(few) or 'none'}")
        return 0
    from werkzeug.serving import run_simple

    from device.label_web import create_label_app

    app = create_label_app(store, args.models)
    print(f"labelling {args.photos} on http://localhost:{args.port}/", flush=True)
    run_simple("127.0.0.1", args.port, app, threaded=True, use_reloader=False)
    return 0
