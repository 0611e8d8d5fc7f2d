"""An experiment (session 32, not shipped): fine-tune the classifier on new synthetic crops while
its outputs are held near a teacher's (knowledge distillation), so that what one CPU epoch
teaches (the re-laid 9s) comes without the drift every CPU epoch since session 25 brought.

    PYTHONPATH=. python benchmarks/distil_classifier.py STUDENT.pt TEACHER.pt DATA OUT.pt \
        [--alpha 1] [--temp 2] [--lr 0.0003] [--epochs 1] [--freeze-bn]

DATA is a classify build (``DATA/train/<class>/*.jpg``, datasets.synth.merge). The loss is
cross-entropy on the labels plus ``alpha`` x T² x KL(teacher || student) at temperature T; the
teacher reads the same augmented crop. ``--freeze-bn`` keeps the student's BatchNorm statistics.
OUT.pt is an ultralytics checkpoint like the soup's (``train_settings`` and names kept), for
``vision.training.train.export_onnx``. Results: docs/training.md, session 32.
"""

from __future__ import annotations

import argparse
import copy
import datetime as dt
import sys
import time
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import vision.training.offline  # noqa: E402,F401  (configures ultralytics before it is imported)


def main() -> int:
    import torch
    import torch.nn.functional as F
    from torch.utils.data import DataLoader
    from torchvision.datasets import ImageFolder
    from ultralytics.data.augment import classify_augmentations

    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    for name in ("student", "teacher", "data", "out"):
        parser.add_argument(name)
    parser.add_argument("--alpha", type=float, default=1.0)
    parser.add_argument("--temp", type=float, default=2.0)
    parser.add_argument("--lr", type=float, default=0.0003)
    parser.add_argument("--epochs", type=float, default=1.0)
    parser.add_argument("--freeze-bn", action="store_true")
    parser.add_argument("--batch", type=int, default=64)
    parser.add_argument("--seed", type=int, default=0)
    args = parser.parse_args()
    torch.manual_seed(args.seed)

    def load(path: str) -> tuple[dict[str, Any], Any]:
        checkpoint = torch.load(path, map_location="cpu", weights_only=False)
        return checkpoint, (checkpoint.get("ema") or checkpoint["model"]).float()

    checkpoint, student = load(args.student)
    teacher = load(args.teacher)[1].eval()
    for weight in teacher.parameters():
        weight.requires_grad_(False)
    # As `tilescore train classifier` augments (vision/training/train.py): no flips.
    augment = classify_augmentations(
        size=64, scale=(0.9, 1.0), hflip=0.0, vflip=0.0, erasing=0.0, auto_augment=None,
        hsv_h=0.01, hsv_s=0.4, hsv_v=0.4,
    )  # fmt: skip
    crops = ImageFolder(f"{args.data}/train", transform=augment)
    if [student.names[i] for i in range(len(student.names))] != crops.classes:
        print("the data's classes are not the student's", file=sys.stderr)
        return 2
    batches = DataLoader(crops, batch_size=args.batch, shuffle=True, num_workers=1, drop_last=True)
    for weight in student.parameters():
        weight.requires_grad_(True)
    optimiser = torch.optim.AdamW(student.parameters(), lr=args.lr, weight_decay=0.0005)
    steps = int(len(batches) * args.epochs)
    schedule = torch.optim.lr_scheduler.LambdaLR(
        optimiser, lambda s: min(1.0, (s + 1) / 100) * max(0.0, 1 - s / steps)
    )
    student.train()
    if args.freeze_bn:
        for layer in student.modules():
            if isinstance(layer, torch.nn.BatchNorm2d):
                layer.eval()
    temp, step, started = args.temp, 0, time.time()
    while step < steps:
        for images, labels in batches:
            logits = student(images)  # training mode: the head's logits
            with torch.no_grad():
                read = teacher(images)  # eval mode: probabilities (and logits)
                taught = torch.log((read[0] if isinstance(read, tuple) else read).clamp_min(1e-8))
            hard = F.cross_entropy(logits, labels)
            soft = F.kl_div(
                F.log_softmax(logits / temp, 1), F.log_softmax(taught / temp, 1),
                log_target=True, reduction="batchmean",
            ) * temp * temp  # fmt: skip
            optimiser.zero_grad()
            (hard + args.alpha * soft).backward()
            optimiser.step()
            schedule.step()
            step += 1
            if step % 100 == 0:
                print(f"step {step}/{steps} ce {hard.item():.3f} kd {soft.item():.3f}", flush=True)
            if step >= steps:
                break
    student.eval()
    saved = dict(checkpoint)
    saved.update(
        model=copy.deepcopy(student).half(), ema=None, optimizer=None, train_results=None,
        date=dt.date.today().isoformat(),
    )  # fmt: skip
    torch.save(saved, args.out)
    print(f"saved {args.out} in {time.time() - started:.0f} s")
    return 0


if __name__ == "__main__":
    sys.exit(main())
