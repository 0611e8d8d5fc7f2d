#!/usr/bin/env bash
# How the shipped models are trained on a lent GPU machine (docs/training.md, "Training runs").
#
#   bash scripts/train_gpu.sh start   # build the synthetic sets, start the three trainings
#   bash scripts/train_gpu.sh wait N  # wait up to N seconds, printing progress
#   bash scripts/train_gpu.sh collect DIR  # copy the finished models and logs to DIR
#
# The GPU machine has torch but no internet: ultralytics travels as wheels in .whl/, the shared
# tile data in .carry/data and a CJK font subset in .carry/fonts (fonts-noto-cjk is not there).
# Each training gets a time budget so that all three fit one 30-minute lease.
set -uo pipefail
cd "$(dirname "$0")/.."
WORK=${TILESCORE_GPU_WORK:-/tmp/tilescore-gpu}
SCENES=${SCENES:-6000}
HOURS=${HOURS:-0.27}
export YOLO_OFFLINE=1 YOLO_AUTOINSTALL=0 PYTHONUNBUFFERED=1
export TILESCORE_SHARED_DATA=${TILESCORE_SHARED_DATA:-$PWD/.carry/data}
export TILESCORE_CJK_FONTS=${TILESCORE_CJK_FONTS:-$PWD/.carry/fonts}
export PYTHONPATH=$PWD:/tmp/site
PY=${PYTHON:-python3}

install_wheels() {
  [ -d /tmp/site/ultralytics ] && return
  "$PY" -m pip install -q --no-index --no-deps --no-compile --no-cache-dir --upgrade \
    --target /tmp/site .whl/*.whl || exit 1
  # polars (54 MB) is only used for plots and to read results.csv back into the checkpoint,
  # which ultralytics does inside a try: a stand-in that fails keeps the wheel off the lease.
  mkdir -p /tmp/site/polars
  cat >/tmp/site/polars/__init__.py <<'EOF'
"""Stand-in: ultralytics reads results.csv with polars inside a try; plots are off."""


def read_csv(*args, **kwargs):
    raise RuntimeError("polars stand-in")


def DataFrame(*args, **kwargs):  # noqa: N802
    raise RuntimeError("polars stand-in")
EOF
}

train() {  # name, then train arguments; MODELS picks which of the three to train
  local name=$1
  shift
  [[ " ${MODELS:-detector classifier baseline} " == *" $name "* ]] || return 0
  setsid nohup "$PY" -m device.cli train "$@" --device "${DEVICE:-0}" --hours "$HOURS" --cache \
    --out "$WORK/models" >"$WORK/$name.log" 2>&1 &
}

case ${1:-} in
  start)
    install_wheels
    mkdir -p "$WORK"
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
    "$PY" -m datasets.synth --out "$WORK/synth" --scenes "$SCENES" --seed 7 --jobs "$(nproc)" \
      2>"$WORK/synth.log" || { tail -20 "$WORK/synth.log"; exit 1; }
    train detector detector --data "$WORK/synth/detect/data.yaml" --imgsz 640 --batch 64 --workers 7
    train classifier classifier --data "$WORK/synth/classify" --imgsz 96 --batch 256 --workers 4
    train baseline baseline --data "$WORK/synth/detect-codes/data.yaml" --imgsz 640 --batch 64 \
      --workers 4
    sleep 30
    ;;
  wait)
    end=$((SECONDS + ${2:-540}))
    while [ $SECONDS -lt $end ] && pgrep -f "device.cli train" >/dev/null; do
      sleep 30
    done
    for log in "$WORK"/{detector,classifier,baseline}.log; do
      echo "== $log"
      tr '\r' '\n' <"$log" | grep -E "^ +[0-9]+/[0-9]+|all |top1|shipped|Error|error" | tail -4
    done
    pgrep -f "device.cli train" >/dev/null && echo "still training" || echo "all done"
    ;;
  collect)
    mkdir -p "$2"
    cp "$WORK"/models/*.onnx "$WORK"/models/*.json "$WORK"/models/tile-detector.pt "$2"/ 2>/dev/null
    tar czf "$2/logs.tgz" -C "$WORK" detector.log classifier.log baseline.log synth.log
    ls -la "$2"
    ;;
  *)
    echo "usage: $0 start|wait SECONDS|collect DIR" >&2
    exit 2
    ;;
esac
