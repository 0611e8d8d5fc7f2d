#!/usr/bin/env bash
# How the shipped models are trained on a lent GPU machine (docs/training.md, "Training runs").
#
#   bash scripts/train_gpu.sh prepare # here: fetch the wheels, copy the data, cut the fonts
#   bash scripts/train_gpu.sh travel-light   # here, before the call: leave the models the run
#       does not read out of the working tree that travels (it must stay under 64 MiB)
#   bash scripts/train_gpu.sh travel-restore # here, right after the call: put them back
#
# A 15-minute lease (one call of at most 10 minutes): the detector alone, in one call.
#   bash scripts/train_gpu.sh lease SECONDS DIR  # there: scenes, the detector trained on from
#       models/tile-detector.pt until SECONDS have passed, its checkpoints and logs packed in DIR
#
# Or the classifier alone, in one call (session 24): scenes and keyboard keys drawn there, a
# share of the crops made grey (merge --grey-share), trained on from models/tile-classifier.pt
# or RESUME (session 24's run: models/candidates/tile-classifier-cls37.pt; session 34's soup of
# its run on: models/candidates/tile-classifier-cls43soup.pt; KEEP_MODEL the same for travel-light).
#   bash scripts/train_gpu.sh lease-classifier SECONDS DIR
# The lease's time left after that call (about 4 minutes) is one more call on the still warm
# machine, which must come within its 30 s idle wait: the run trained on from its last weights
# on the same crops at RATE (default 0.0001), its snapshots packed (session 34).
#   bash scripts/train_gpu.sh lease-classifier-more SECONDS DIR
# Each lease keeps every epoch in DIR/early*.tar as it is saved (scripts/gpu_snapshots.py), so a
# call killed at its limit before packing still returns them (session 35).
#
# A 30-minute lease: all three models side by side, over several calls.
#   bash scripts/train_gpu.sh start   # there: build the synthetic sets, start the trainings
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
  # Where ultralytics is already installed (here, for a rehearsal on the CPU) nothing travels.
  [ -d /tmp/site/ultralytics ] && return
  "$PY" -c "import ultralytics" 2>/dev/null && return
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

prepare() {  # on the machine with internet and the shared data; .whl and .carry are git-ignored
  local shared=${SHARED:-../shared/data} venv=${TILESCORE_VENV:-.venv}
  grep -qx "/.whl/" .git/info/exclude 2>/dev/null || printf "/.whl/\n/.carry/\n" >>.git/info/exclude
  python3 -m pip download -q --no-deps --only-binary=:all: --python-version 3.12 \
    --implementation cp --platform manylinux2014_x86_64 -d .whl \
    "ultralytics==$("$venv/bin/python" -c 'import ultralytics; print(ultralytics.__version__)')" \
    ultralytics-thop ultralytics-platform
  mkdir -p .carry/data/camerash-tiles .carry/data/fluffystuff-riichi-tiles .carry/fonts
  cp -r "$shared/camerash-tiles/tiles-resized" "$shared/camerash-tiles/tiles-data" \
    "$shared/camerash-tiles/untagged-tiles" .carry/data/camerash-tiles/
  cp -r "$shared/fluffystuff-riichi-tiles/Export" .carry/data/fluffystuff-riichi-tiles/
  cp -r "$shared/xiangqi-pieces" .carry/data/
  # Only the characters the face renderer draws: 460 KB instead of 100 MB of fonts.
  local chars
  chars=$(cat datasets/synth/*.py scoring/tiles*.py | python3 -c \
    "import sys; print(''.join(sorted({c for c in sys.stdin.read() if ord(c) > 0x2e80})))")
  for font in /usr/share/fonts/opentype/noto/Noto{Sans,Serif}CJK-{Regular,Bold}.ttc; do
    for n in 0 1 2; do
      "$venv/bin/pyftsubset" "$font" --font-number=$n --output-file=".carry/fonts/$(basename "$font" .ttc)-$n.otf" \
        --text="${chars}0123456789ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz"
    done
  done
  # The brush fonts (fonts-arphic-*, fonts-cwtex-kai, fonts-wqy-zenhei): "kai", "ming" or "hei"
  # in a file's name marks it as one for faces.cjk_fonts(brush=True).
  for font in /usr/share/fonts/truetype/arphic/u{kai,ming}.ttc /usr/share/fonts/truetype/cwtex/cwkai.ttf \
      /usr/share/fonts/truetype/wqy/wqy-zenhei.ttc; do
    [ -f "$font" ] || continue
    local name
    name=$(basename "${font%.*}")
    "$venv/bin/pyftsubset" "$font" --font-number=0 --output-file=".carry/fonts/$name-0.ttf" \
      --text="$chars"
  done
  du -sh .whl .carry
}

build_scenes() {
  # SYNTH_OPTIONS: the scenes' mix, e.g. "--roll-share 0.35 --real-share 0.7" (docs/training.md).
  # SYNTH_SECONDS stops the drawing early (the scenes drawn by then train; data.yaml is written
  # first): the pool's workers share the command line, so pkill stops them all.
  # shellcheck disable=SC2086
  "$PY" -m datasets.synth --out "$WORK/synth" --scenes "$SCENES" --seed "${SEED:-7}" \
    --jobs "$(nproc)" ${SYNTH_OPTIONS:-} 2>"$WORK/synth.log" &
  local drawing=$!
  (sleep "${SYNTH_SECONDS:-86400}" && pkill -f "datasets.synth --out $WORK/synth" && echo "scenes stopped by the clock") &
  local clock=$!
  wait "$drawing"
  local status=$?
  # The clock's sleep too: left running, it holds the call's output open until it ends.
  pkill -P "$clock" 2>/dev/null
  kill "$clock" 2>/dev/null
  echo "scenes: $(find "$WORK/synth/detect/images" -name '*.jpg' | wc -l) images"
  [ "$status" -eq 0 ] || [ -n "${SYNTH_SECONDS:-}" ] || { tail -20 "$WORK/synth.log"; return 1; }
}

followed() {  # log, out, weights folder, then the training command
  # Each epoch the run saves is stripped into out/early*.tar as it comes (gpu_snapshots.py
  # follow): a call killed at its limit before pack runs still returns them (session 35).
  local log=$1 out=$2 weights=$3
  shift 3
  "$@" >"$log" 2>&1 &
  local trainer=$!
  "$PY" scripts/gpu_snapshots.py follow "$weights" "$out" "${SNAPSHOTS:-9}" "$trainer" &
  local follower=$!
  wait "$trainer"
  local status=$?
  wait "$follower"
  return "$status"
}

setup_seconds() {  # crops folder: what loading them into the cache and the validations take
  # ultralytics' --hours budget counts from its first epoch: 225,000 crops took 98 s before it
  # on the H200 (session 35), and the call ran past its limit. About 2,000 crops a second.
  echo $(( $(find "$1" -type f | wc -l) / ${CROPS_PER_SECOND:-2000} ))
}

lease() {  # seconds, folder: everything in one call that must end within those seconds
  local budget=$1 out=$2 started=$SECONDS
  mkdir -p "$WORK" "$out"
  install_wheels
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  build_scenes || return 1
  echo "scenes drawn in $((SECONDS - started)) s"
  # The rest of the budget trains, less what the last validation, the export and the packing take.
  local left=$((budget - (SECONDS - started) - ${TAIL_SECONDS:-70}))
  [ "$left" -gt 60 ] || { echo "no time left to train"; return 1; }
  # TRAIN_OPTIONS: more train arguments, e.g. "--lr0 0.0002". No int8 copy there: the lease's
  # seconds train, and the detector that ships is made here (--soup, or quantize) with its own.
  # shellcheck disable=SC2086
  followed "$WORK/detector.log" "$out" "$WORK/models/runs/tile-detector/weights" \
    "$PY" -m device.cli train detector --data "$WORK/synth/detect/data.yaml" \
    --resume-from models/tile-detector.pt --device "${DEVICE:-0}" --cache --batch 64 \
    --workers "$(( $(nproc) > 2 ? $(nproc) - 2 : 0 ))" --save-period "${SAVE_PERIOD:-2}" --no-int8 ${TRAIN_OPTIONS:-} \
    --hours "$("$PY" -c "print(round($left / 3600, 4))")" --out "$WORK/models"
  echo "training ended (status $?) at $((SECONDS - started)) s"
  tr '\r' '\n' <"$WORK/detector.log" | grep -E "^ +all |Error|error" | tail -6
  pack "$out"
  echo "packed at $((SECONDS - started)) s"
}

lease_classifier() {  # seconds, folder: the classifier's run in one call (session 24)
  local budget=$1 out=$2 started=$SECONDS
  mkdir -p "$WORK" "$out"
  install_wheels
  nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
  # The keyboard keys ("not a tile", keys19's recipe) draw beside the scenes in KEY_JOBS
  # processes (one process drew 6,000 in 224 s beside the scenes in session 24, outlasting them).
  local jobs=${KEY_JOBS:-4} keys=() n
  for ((n = 0; n < jobs; n++)); do
    "$PY" -m datasets.synth.key_crops --out "$WORK/keys$n" --count "$((${KEYS:-10000} / jobs))" \
      --seed "$((19 + n))" >"$WORK/keys$n.log" 2>&1 &
    keys+=("$WORK/keys$n")
  done
  build_scenes || return 1
  wait || true
  echo "scenes and keys drawn in $((SECONDS - started)) s"
  "$PY" -m datasets.synth.merge --out "$WORK/merged" --grey-share "${GREY_SHARE:-0.7}" \
    "$WORK/synth" "${keys[@]}" || return 1
  echo "merged at $((SECONDS - started)) s"
  local left=$((budget - (SECONDS - started) - ${TAIL_SECONDS:-60} - $(setup_seconds "$WORK/merged/classify")))
  [ "$left" -gt 60 ] || { echo "no time left to train"; return 1; }
  # shellcheck disable=SC2086
  followed "$WORK/classifier.log" "$out" "$WORK/models/runs/tile-classifier/weights" \
    "$PY" -m device.cli train classifier --data "$WORK/merged/classify" \
    --resume-from "${RESUME:-models/tile-classifier.pt}" --imgsz 64 --device "${DEVICE:-0}" --cache \
    --batch "${BATCH:-64}" --workers "$(( $(nproc) > 2 ? $(nproc) - 2 : 0 ))" --save-period 1 --lr0 0.0005 \
    ${TRAIN_OPTIONS:-} --hours "$("$PY" -c "print(round($left / 3600, 4))")" --out "$WORK/models"
  echo "training ended (status $?) at $((SECONDS - started)) s"
  tr '\r' '\n' <"$WORK/classifier.log" | grep -E "top1_acc|all |Error|error" | tail -4
  SNAPSHOTS=${SNAPSHOTS:-14} pack "$out" tile-classifier classifier.log
  echo "packed at $((SECONDS - started)) s"
}

lease_classifier_more() {  # seconds, folder: lease_classifier's run trained on, its crops again
  local budget=$1 out=$2 started=$SECONDS
  local last=$WORK/models/runs/tile-classifier/weights/last.pt
  mkdir -p "$out"
  [ -f "$last" ] && [ -d "$WORK/merged/classify" ] || { echo "no lease-classifier run in $WORK"; return 1; }
  install_wheels
  local left=$((budget - ${TAIL_SECONDS:-40} - $(setup_seconds "$WORK/merged/classify")))
  [ "$left" -gt 30 ] || { echo "no time left to train"; return 1; }
  # shellcheck disable=SC2086
  followed "$WORK/classifier-more.log" "$out" "$WORK/more/runs/tile-classifier/weights" \
    "$PY" -m device.cli train classifier --data "$WORK/merged/classify" --resume-from "$last" \
    --imgsz 64 --device "${DEVICE:-0}" --cache --batch "${BATCH:-64}" \
    --workers "$(( $(nproc) > 2 ? $(nproc) - 2 : 0 ))" --save-period 1 --lr0 "${RATE:-0.0001}" \
    ${TRAIN_OPTIONS:-} --hours "$("$PY" -c "print(round($left / 3600, 4))")" --out "$WORK/more"
  echo "training ended (status $?) at $((SECONDS - started)) s"
  tr '\r' '\n' <"$WORK/classifier-more.log" | grep -E "top1_acc|all |Error|error" | tail -4
  SNAPSHOTS=${SNAPSHOTS:-8} MODELS_DIR=more pack "$out" tile-classifier classifier-more.log
  echo "packed at $((SECONDS - started)) s"
}

pack() {  # folder [model name] [log]: at most 8 files come back, each at most 16 MiB
  local out=$1 name=${2:-tile-detector} log=${3:-detector.log} models=${MODELS_DIR:-models}
  local weights=$WORK/$models/runs/$name/weights
  cp "$WORK/$models/$name.json" "$WORK/$models/$name.pt" "$out"/ 2>/dev/null
  tar czf "$out/logs.tgz" -C "$WORK" synth.log "$log" \
    "$models/runs/$name/results.csv" "$models/runs/$name/args.yaml" 2>/dev/null
  # The snapshots without optimizer state, as many to a tar as stay under 16 MiB (up to
  # SNAPSHOTS, spread evenly over the run, the last one always among them); follow's early tars go.
  "$PY" scripts/gpu_snapshots.py pack "$weights" "$out" "${SNAPSHOTS:-9}"
  ls -la "$out"
}

# The tracked models are more than the 64 MiB that may travel, and a detector run reads only
# models/tile-detector.pt: the others leave git's index (not the disk) for the call, listed in
# .git/info/exclude between these markers so they do not travel as untracked files either.
TRAVEL_MARK="# train_gpu.sh travel-light"

travel_light() {
  local stay=${KEEP_MODEL:-models/tile-detector.pt} left=()
  grep -qx "$TRAVEL_MARK" .git/info/exclude 2>/dev/null && { echo "already light"; travel_size; return; }
  while IFS= read -r path; do
    [ "$path" = "$stay" ] || left+=("$path")
  done < <(git ls-files models)
  git rm -q --cached -- "${left[@]}" || return 1
  { echo "$TRAVEL_MARK"; printf '/%s\n' "${left[@]}"; echo "$TRAVEL_MARK end"; } >>.git/info/exclude
  echo "left out of the index until travel-restore: ${#left[@]} model files (do not commit meanwhile)"
  travel_size
}

travel_restore() {
  git reset -q -- models
  sed -i "/^$TRAVEL_MARK\$/,/^$TRAVEL_MARK end\$/d" .git/info/exclude
  git status --short -- models
}

travel_size() {  # what would travel: tracked and untracked files git does not ignore, and .whl, .carry
  { git ls-files -z; git ls-files -z --others --exclude-standard; } |
    du -cb --files0-from=- 2>/dev/null | tail -1 | awk -v extra="$(du -cb .whl .carry 2>/dev/null | tail -1 | cut -f1)" \
    '{ printf "would travel: %.1f MiB of 64 (with .whl and .carry)\n", ($1 + extra) / 1048576 }'
}

case ${1:-} in
  prepare)
    prepare
    travel_size
    ;;
  travel-light)
    travel_light
    ;;
  travel-restore)
    travel_restore
    ;;
  lease)
    lease "${2:?seconds}" "${3:?folder}"
    ;;
  lease-classifier)
    lease_classifier "${2:?seconds}" "${3:?folder}"
    ;;
  lease-classifier-more)
    lease_classifier_more "${2:?seconds}" "${3:?folder}"
    ;;
  start)
    install_wheels
    mkdir -p "$WORK"
    nvidia-smi --query-gpu=name,memory.total --format=csv,noheader
    build_scenes || exit 1
    train detector detector --data "$WORK/synth/detect/data.yaml" --imgsz 640 --batch 64 --workers 7 \
      --no-int8
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
    # At most 8 files come back from the GPU machine: the pair's six, the baseline's ONNX, and
    # the logs with the baseline's metadata in one archive.
    cp "$WORK"/models/tile-*.onnx "$WORK"/models/tile-*.json "$WORK"/models/tile-*.pt \
      "$WORK"/models/baseline-single-stage.onnx "$2"/ 2>/dev/null
    tar czf "$2/logs.tgz" -C "$WORK" detector.log classifier.log baseline.log synth.log \
      models/baseline-single-stage.json
    ls -la "$2"
    ;;
  *)
    echo "usage: $0 prepare|travel-light|travel-restore|lease SECONDS DIR|lease-classifier SECONDS DIR|lease-classifier-more SECONDS DIR|start|wait SECONDS|collect DIR" >&2
    exit 2
    ;;
esac
