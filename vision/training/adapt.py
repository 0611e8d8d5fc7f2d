"""Adapt the classifier to a table's tile set from photos nobody labelled.

``tilescore train classifier --adapt PHOTO_OR_FOLDER...``:

1. the current pair reads the photos, and every tile it reports is cut as the classifier sees it
   (an upright crop of the full-resolution photo);
2. the classifier's BatchNorm statistics (each layer's mean and variance of its inputs) are
   measured again on those crops and mixed into the ones it learnt on the synthetic tiles, a
   ``SHARE`` of the table's to the rest; no weight is trained and no label is needed;
3. the adapted classifier is written and installed in place of the current one, which goes to
   ``MODELS/previous/`` (``tilescore train classifier --rollback`` swaps it back).

Steps 2 and 3 need only onnxruntime and numpy (vision/adaptation.py): the classifier's measuring
graph and folded-layer file, shipped beside it, say what to measure and where the statistics lie
in the ONNX file. Where they are missing or stale (a classifier trained since) and torch is
installed, ``prepare`` makes them from the checkpoint first; the checkpoint itself is adapted
too where torch is, so a later fine-tune starts from the adapted statistics.

Why it helps: the synthetic tiles and a real table's differ as a whole (the set's inks and
ivory, the camera's blur and white balance), and a network's BatchNorm layers normalise by the
statistics of what they were trained on. Measured again on the table's own tiles, they normalise
what the camera sees. On the 30 real photos, photos held out from the adaptation read better
(docs/training.md, "Adapting to your tile set without labels").
"""

from __future__ import annotations

import copy
import datetime as dt
import json
import shutil
import sys
import tempfile
from collections.abc import Callable, Sequence
from dataclasses import dataclass, replace
from pathlib import Path
from typing import Any

import numpy as np

from scoring.cli import json_text
from vision.adaptation import BATCH, FOLDED_SUFFIX, MEASURE_SUFFIX, Folded
from vision.models import SHIPPED_MODELS
from vision.training.finetune import (
    CurrentModel,
    FineTuneError,
    current_model,
    empty_candidate,
    find_checkpoint,
    install,
)

SHARE = 0.2
"""How far the statistics move from the synthetic tiles' to the table's. Chosen on the real
photos (docs/training.md): with all 15 photos of one half, 0.2 and 0.3 read the other half
best (0.4 as many whole photos and fewer tiles, 0.6 three photos fewer, 1.0 five); with 2-8 photos (20-165 tiles, 32 draws)
0.2 gained 75 tiles and lost a whole photo twice, while shares that shrink with fewer tiles (0.1,
or n / (n + 1000)) gained 45-52 and lost one 10-11 times: a small move tips borderline reads
without fixing the set's."""
MIN_CROPS = 30
"""Fewer tiles than this (two or three photos of a hand) say too little about a tile set."""

Progress = Callable[[str], None]


class AdaptError(FineTuneError):
    """Adapting cannot start or finish: no photos, too few tiles, no checkpoint."""


@dataclass(frozen=True)
class AdaptSettings:
    photos: tuple[Path, ...]  # photo files, or folders of them
    models_dir: Path = SHIPPED_MODELS
    checkpoint: Path | None = None  # default: the classifier's own (finetune.find_checkpoint)
    share: float = SHARE
    threads: int | None = None


@dataclass(frozen=True)
class TableCrops:
    """The tiles the current pair found in the photos, as the classifier sees them, and the
    pieces, where a piece reader reads them (else they are among the tiles)."""

    crops: tuple[np.ndarray, ...]
    photos_read: tuple[str, ...]
    unreadable: tuple[str, ...]  # "path: why", one a photo that could not be read
    piece_crops: tuple[np.ndarray, ...] = ()


def photo_files(given: Sequence[Path]) -> list[Path]:
    """The photos named, folders expanded to the photos in them (sorted); a name that is
    neither is an error."""
    from vision.labels import PHOTO_SUFFIXES

    files: list[Path] = []
    for path in given:
        if path.is_dir():
            files += sorted(p for p in path.iterdir() if p.suffix.lower() in PHOTO_SUFFIXES)
        elif path.is_file():
            files.append(path)
        else:
            raise AdaptError(f"photo {str(path)!r} not found")
    if not files:
        raise AdaptError(
            f"no photos in {', '.join(str(p) for p in given)} "
            f"(looked for {', '.join(PHOTO_SUFFIXES)})"
        )
    return files


def table_crops(
    models_dir: Path, photos: Sequence[Path], threads: int | None, say: Progress
) -> TableCrops:
    """Every tile the pair in ``models_dir`` reports in ``photos``, cut at the classifier's input
    size; a photo that cannot be read is listed, and the others still count."""
    from scoring.tiles import tile_from_code
    from vision.crops import crop_upright
    from vision.errors import ImageError
    from vision.images import load_image
    from vision.pipeline import load_pipeline

    pipeline = load_pipeline(models_dir, threads)
    assert pipeline.classifier is not None  # current_model checked that one is named
    size = pipeline.classifier.info.input_size
    crops: list[np.ndarray] = []
    piece_crops: list[np.ndarray] = []
    read: list[str] = []
    unreadable: list[str] = []
    for number, photo in enumerate(photos, 1):
        say(f"\r    {number}/{len(photos)} {photo.name}")
        try:
            image = load_image(photo)
        except ImageError as error:  # its message names the photo
            unreadable.append(str(error))
            continue
        for tile in pipeline.read(image).tiles:
            crop = crop_upright(image, tile.box, tile.rotated, size)
            # Each reader is measured on what it reads: the piece reader on the pieces.
            piece = tile.code is not None and tile_from_code(tile.code).is_piece
            (piece_crops if piece and pipeline.pieces is not None else crops).append(crop)
        read.append(photo.name)
    return TableCrops(tuple(crops), tuple(read), tuple(unreadable), tuple(piece_crops))


def prepare(checkpoint: Path, onnx_path: Path, imgsz: int, work: Path) -> tuple[Path, Folded]:
    """Where torch is: the measuring graph and folded-layer file of the classifier in
    ``onnx_path`` (``imgsz`` pixels square), made from its ``checkpoint`` into ``work``; returns
    the measuring graph's path and the folded layers (saved beside it)."""
    import onnx
    from onnx import numpy_helper

    from vision.adaptation import FoldedLayer, adaptation_files, sha256

    try:
        shipped = onnx.load(str(onnx_path))
    except Exception as error:  # protobuf's DecodeError: the file is no ONNX model
        first = (str(error).strip().splitlines() or [type(error).__name__])[0]
        raise AdaptError(f"{onnx_path} is no ONNX model ({first})") from None
    network = _network(checkpoint)
    measure_path, folded_path = (work / p.name for p in adaptation_files(onnx_path))
    called: list[str] = []  # the layers in the order the network calls them: the outputs' order
    _export_measuring_graph(network, measure_path, called, imgsz)
    data = onnx_path.read_bytes()
    initialisers = {t.name: t for t in shipped.graph.initializer}
    modules = dict(network.named_modules())
    layers = []
    for name in called:
        layer = modules[name]
        conv = name.rsplit(".", 1)[0] + ".conv"
        weight, bias = initialisers.get(f"{conv}.weight"), initialisers.get(f"{conv}.bias")
        if weight is None or bias is None or weight.data_type != 1 or bias.data_type != 1:
            raise AdaptError(f"{onnx_path.name} has no float convolution {conv} folding {name}")
        # The checkpoint must be the one folded into this file, statistics and all (a checkpoint
        # left unadapted beside an ONNX file adapted on a Pi is not): else the weights written
        # later would be scaled from the wrong statistics.
        gamma, beta = layer.weight.detach().numpy(), layer.bias.detach().numpy()
        mean, var = layer.running_mean.numpy(), layer.running_var.numpy()
        scale = gamma.astype(np.float64) / np.sqrt(var.astype(np.float64) + layer.eps)
        folded_bias = beta - mean * scale
        folded_weight = modules[conv].weight.detach().numpy() * scale[:, None, None, None]
        if not (
            np.allclose(numpy_helper.to_array(bias), folded_bias, rtol=1e-3, atol=1e-3)
            and np.allclose(numpy_helper.to_array(weight), folded_weight, rtol=1e-3, atol=1e-3)
        ):
            raise AdaptError(
                f"{checkpoint.name} is not the network folded into {onnx_path.name} (its "
                f"{name} differs): restore the classifier's files together (--rollback)"
            )
        layers.append(
            FoldedLayer(
                name=name,
                weight_offset=_only_place(data, weight.raw_data, f"{conv}.weight"),
                weight_shape=tuple(int(d) for d in weight.dims),
                bias_offset=_only_place(data, bias.raw_data, f"{conv}.bias"),
                gamma=gamma.astype(np.float32),
                beta=beta.astype(np.float32),
                eps=float(layer.eps),
                mean=mean.astype(np.float32),
                var=var.astype(np.float32),
            )
        )
    folded = Folded(sha256(onnx_path), sha256(measure_path), tuple(layers))
    folded.save(folded_path)
    return measure_path, folded


def _network(checkpoint: Path) -> Any:
    import torch

    import vision.training.offline  # noqa: F401  (configures ultralytics before it is imported)

    try:
        saved = torch.load(checkpoint, map_location="cpu", weights_only=False)
        return (saved.get("ema") or saved["model"]).float().eval()
    except Exception as error:  # a torch or pickle error of any kind: not a checkpoint we can use
        raise AdaptError(
            f"{str(checkpoint)!r} is not an ultralytics checkpoint ({type(error).__name__})"
        ) from None


def _export_measuring_graph(network: Any, target: Path, called: list[str], imgsz: int) -> None:
    """The network with each BatchNorm layer normalising by its batch, as in training, and
    giving out that batch's mean and unbiased variance: one pair of outputs a layer."""
    import torch

    outputs: list[Any] = []

    class BatchStatistics(torch.nn.Module):
        def __init__(self, name: str, layer: Any) -> None:
            super().__init__()
            self.name, self.layer = name, layer

        def forward(self, x: Any) -> Any:
            mean = x.mean(dim=(0, 2, 3))
            centred = x - mean[None, :, None, None]
            var = (centred * centred).mean(dim=(0, 2, 3))
            # N·H·W as a tensor, so the unbiased variance follows the batch in the graph.
            count = torch.ones_like(x[:, 0]).sum()
            outputs.extend((mean, var * count / (count - 1)))
            if self.name not in called:
                called.append(self.name)
            scale = self.layer.weight / torch.sqrt(var + self.layer.eps)
            return centred * scale[None, :, None, None] + self.layer.bias[None, :, None, None]

    measuring = copy.deepcopy(network).eval()
    for name, module in list(measuring.named_modules()):
        for child, layer in list(module.named_children()):
            if isinstance(layer, torch.nn.modules.batchnorm._BatchNorm):
                full = f"{name}.{child}" if name else child
                setattr(module, child, BatchStatistics(full, layer))

    class Measuring(torch.nn.Module):
        def __init__(self) -> None:
            super().__init__()
            self.network = measuring

        def forward(self, images: Any) -> tuple[Any, ...]:
            outputs.clear()
            self.network(images)
            return tuple(outputs)

    example = torch.rand(4, 3, imgsz, imgsz)
    with torch.no_grad():
        torch.onnx.export(
            Measuring(),
            (example,),
            str(target),
            input_names=["images"],
            dynamic_axes={"images": {0: "batch"}},
            opset_version=17,
            dynamo=False,
        )


def _only_place(data: bytes, raw: bytes, name: str) -> int:
    offset = data.find(raw)
    if offset < 0 or data.find(raw, offset + 1) >= 0:
        raise AdaptError(f"{name}'s bytes are not found once in the ONNX file")
    return offset


@dataclass(frozen=True)
class _Reader:
    """One classifier of the folder to adapt: the classifier, or the piece reader."""

    role: str  # "classifier" or "pieces"
    model: CurrentModel
    meta: dict[str, Any]  # its metadata as installed
    checkpoint: Path | None
    measure_path: Path
    folded: Folded

    @property
    def onnx_path(self) -> Path:
        return self.model.classifier_meta.parent / str(self.meta["onnx"])

    @property
    def what(self) -> str:
        """What it reads, and so what it is measured on."""
        return "tiles" if self.role == "classifier" else "pieces"


def adapt(
    settings: AdaptSettings, command: str | None = None, progress: Progress | None = None
) -> dict[str, Any]:
    """Adapt the current classifier (and the piece reader, where the folder has one and the
    photos show enough pieces) to the photos and install them; returns what was done."""
    say = progress or (lambda _: None)
    photos = photo_files(settings.photos)
    current = current_model(settings.models_dir)
    models = [("classifier", current)]
    if current.pieces_meta is not None:
        models.append(("pieces", piece_reader_model(current)))
    # Measuring graphs made from a checkpoint go to a scratch folder beside the models, not to
    # candidate/: a candidate a fine-tune kept there to look at stays until this adaptation has
    # one to put in its place (a failed one, too few tiles, deleted it).
    with tempfile.TemporaryDirectory(prefix=".adapt-", dir=settings.models_dir) as folder:
        scratch = Path(folder)
        readers: list[_Reader] = []
        skipped: list[str] = []
        for role, model in models:
            checkpoint = _checkpoint(model, settings.checkpoint if role == "classifier" else None)
            meta = json.loads(model.classifier_meta.read_text("utf-8"))
            try:
                measure_path, folded = _measuring_files(
                    model.classifier_meta.parent / meta["onnx"],
                    model.imgsz,
                    checkpoint,
                    scratch,
                    say,
                )
            except AdaptError as cannot:
                if role == "classifier":
                    raise
                skipped.append(f"{model.stem} left as it is: {cannot}")  # the classifier still can
                continue
            readers.append(_Reader(role, model, meta, checkpoint, measure_path, folded))
        say(f"1/3 reading {len(photos)} photo{'s' * (len(photos) != 1)} with the current models")
        table = table_crops(settings.models_dir, photos, settings.threads, say)
        crops_of = {"classifier": table.crops, "pieces": table.piece_crops}
        chosen = [reader for reader in readers if len(crops_of[reader.role]) >= MIN_CROPS]
        if not chosen:
            pieces = f" and {len(table.piece_crops)} pieces" if len(models) > 1 else ""
            raise AdaptError(
                f"the current models found {len(table.crops)} tiles{pieces} in "
                f"{len(table.photos_read)} readable photo{'s' * (len(table.photos_read) != 1)}: "
                f"adapting needs at least {MIN_CROPS} (photograph a few more hands of the set)"
            )
        skipped += [
            f"{reader.model.stem} left as it is: the photos show "
            f"{len(crops_of[reader.role])} of the {MIN_CROPS} {reader.what} it needs"
            for reader in readers
            if reader not in chosen
        ]
        common = {
            "photos": list(table.photos_read),
            "unreadable": list(table.unreadable),
            "skipped": skipped,
            "share": settings.share,
            "command": command or "tilescore " + " ".join(sys.argv[1:]),
            "date": dt.date.today().isoformat(),
        }
        adapted = [
            _adapt_reader(reader, crops_of[reader.role], common, settings, say) for reader in chosen
        ]
        say(f"3/3 installing the adapted {', '.join(reader.model.stem for reader in chosen)}")
        previous = install(
            current.classifier_meta.parent, *(reader.model.stem for reader in chosen)
        )
        first = adapted[0]
        return common | {
            "tiles": sum(one["tiles"] for one in adapted),
            "started_from": first["started_from"],
            "checkpoint_adapted": first["checkpoint_adapted"],
            "reads_changed": sum(one["reads_changed"] for one in adapted),
            "model": first["model"],
            "previous": str(previous),
            "readers": adapted,
        }


def piece_reader_model(current: CurrentModel) -> CurrentModel:
    """The folder's piece reader, described as the classifier is (the models check at load
    that it takes the classifier's input)."""
    assert current.pieces_meta is not None
    return replace(current, classifier_meta=current.pieces_meta, stem=current.pieces_meta.stem)


def _adapt_reader(
    reader: _Reader,
    crops: Sequence[np.ndarray],
    common: dict[str, Any],
    settings: AdaptSettings,
    say: Progress,
) -> dict[str, Any]:
    """One reader's statistics measured on its crops and mixed in, written as its candidate
    (MODELS/candidate/STEM.*); returns what was done to it."""
    from vision.adaptation import adapted_bytes, measure, sha256
    from vision.crops import to_batch

    current_meta, onnx_path = reader.meta, reader.onnx_path
    candidate = empty_candidate(onnx_path.parent, reader.model.stem)
    share = settings.share
    say(
        f"2/3 measuring the {reader.model.stem} statistics on {len(crops)} {reader.what} "
        f"(they weigh {share:.0%} against the synthetic tiles' {1 - share:.0%})"
    )
    normalisation = current_meta.get("normalisation", {})
    batch = to_batch(
        list(crops),
        float(normalisation.get("scale", 1 / 255)),
        normalisation.get("channel_order", "RGB"),
    )
    measured = measure(reader.measure_path, batch, settings.threads)
    new_bytes, new_folded = adapted_bytes(onnx_path.read_bytes(), reader.folded, measured, share)
    candidate_onnx = candidate[".onnx"]
    candidate_onnx.write_bytes(new_bytes)
    if reader.measure_path.parent != candidate_onnx.parent:
        shutil.copyfile(reader.measure_path, candidate[MEASURE_SUFFIX])
    Folded(sha256(candidate_onnx), reader.folded.measure_sha256, new_folded.layers).save(
        candidate[FOLDED_SUFFIX]
    )
    adapted_checkpoint = False
    if reader.checkpoint is not None:
        adapted_checkpoint = _adapt_checkpoint(reader.checkpoint, new_folded, candidate[".pt"])
    facts = {key: value for key, value in common.items() if key != "skipped"} | {
        "tiles": len(crops),
        "started_from": str(onnx_path),
        "checkpoint_adapted": adapted_checkpoint,
    }
    # json_text: photos or a command named in bytes that are not UTF-8 cannot be written raw.
    meta = _adapted_metadata(current_meta, facts) | {"onnx": candidate_onnx.name}
    candidate[".json"].write_text(json_text(meta, indent=2) + "\n", encoding="utf-8")
    return {
        "reader": reader.role,
        "tiles": len(crops),
        "reads_changed": _reads_changed(onnx_path, candidate_onnx, batch, settings.threads),
        "model": str(reader.model.classifier_meta),
        "started_from": str(onnx_path),
        "checkpoint_adapted": adapted_checkpoint,
    }


def _measuring_files(
    onnx_path: Path, imgsz: int, checkpoint: Path | None, work: Path, say: Progress
) -> tuple[Path, Folded]:
    """The measuring graph's path and the folded layers of ``onnx_path``: those beside it when
    they describe it, else made from the checkpoint into ``work`` where torch is."""
    from vision.adaptation import AdaptationError, adaptation_files, load_folded

    try:
        return adaptation_files(onnx_path)[0], load_folded(onnx_path)
    except AdaptationError as missing:
        if checkpoint is None:
            # Torch alone cannot make them: they are made from the model's checkpoint.
            raise AdaptError(
                f"{missing}, and its checkpoint ({onnx_path.stem}.pt) is not there to make them "
                "from: copy them, or the checkpoint, from where the model was trained"
            ) from None
        if not _torch_here():
            raise AdaptError(
                f"{missing}: run this once where the train extra (torch) is installed, "
                "which makes them, and copy the models folder here"
            ) from None
    say(f"0/3 preparing {onnx_path.stem} for adapting (once; torch)")
    return prepare(checkpoint, onnx_path, imgsz, work)


def _adapted_metadata(current: dict[str, Any], facts: dict[str, Any]) -> dict[str, Any]:
    """The classifier's metadata with this adaptation recorded (an earlier one kept inside it),
    and its scores, measured before any adapting, kept under a name that says so."""
    meta = dict(current)
    meta["date"] = facts["date"]
    earlier = current.get("adapted")
    meta["adapted"] = facts | ({"earlier": earlier} if earlier else {})
    if not earlier:
        meta["metrics"] = {"before_adapting": current.get("metrics", {})}
    return meta


def _torch_here() -> bool:
    try:
        import torch  # noqa: F401
    except ImportError:
        return False
    return True


def _checkpoint(current: Any, given: Path | None) -> Path | None:
    """The classifier's checkpoint, if there is one (adapting needs none)."""
    try:
        return find_checkpoint(current, given)
    except FineTuneError:
        if given is not None:
            raise
        return None


def _adapt_checkpoint(checkpoint: Path, folded: Folded, target: Path) -> bool:
    """Where torch is: the checkpoint with the adapted statistics, saved to ``target`` as
    ultralytics saves (half precision), so a fine-tune later starts from them. Elsewhere the
    checkpoint is copied as it is, and the metadata says so."""
    if not _torch_here():
        shutil.copyfile(checkpoint, target)
        return False
    import torch

    network = _network(checkpoint)
    modules = dict(network.named_modules())
    with torch.no_grad():
        for layer in folded.layers:
            modules[layer.name].running_mean.copy_(torch.from_numpy(layer.mean))
            modules[layer.name].running_var.copy_(torch.from_numpy(layer.var))
    saved = dict(torch.load(checkpoint, map_location="cpu", weights_only=False))
    saved.update(model=network.half(), ema=None, optimizer=None, train_results=None)
    torch.save(saved, target)
    return True


def _reads_changed(before: Path, after: Path, batch: np.ndarray, threads: int | None) -> int:
    """On how many crops the adapted classifier's best class differs from the current one's."""
    from vision.models import onnx_session

    best = []
    for path in (before, after):
        session = onnx_session(path, threads)
        name = session.get_inputs()[0].name
        best.append(
            np.concatenate(
                [
                    session.run(None, {name: batch[i : i + BATCH]})[0].argmax(axis=1)
                    for i in range(0, len(batch), BATCH)
                ]
            )
        )
    return int((best[0] != best[1]).sum())


def format_report(report: dict[str, Any]) -> str:
    lines = []
    for reader in report["readers"]:
        what = "tiles" if reader["reader"] == "classifier" else "pieces"
        name = "the classifier" if reader["reader"] == "classifier" else "the piece reader"
        lines += [
            f"adapted {name} to {len(report['photos'])} photos: {reader['tiles']} {what}, "
            f"weighing {report['share']:.0%} against the synthetic tiles",
            f"its best guess changed on {reader['reads_changed']} of those {reader['tiles']} "
            f"{what}",
        ]
    lines += [f"not read: {line}" for line in report["unreadable"]]
    lines += list(report["skipped"])
    installed = ", ".join(reader["model"] for reader in report["readers"])
    lines.append(
        f"installed {installed}; the old files are in {report['previous']}: "
        "tilescore train classifier --rollback puts them back"
    )
    return "\n".join(lines)
