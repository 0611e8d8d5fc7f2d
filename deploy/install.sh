#!/usr/bin/env bash
# Install the tilescore table app on Raspberry Pi OS (Bookworm or Trixie, 64-bit).
#
#   sudo bash deploy/install.sh [--user pi] [--camera pi] [--camera-turn 0|90|180|270] [--network]
#
# picamera2 comes from the system packages (it needs libcamera, which pip cannot install), so the
# virtual environment sees system site packages. The app runs as a systemd service and Chromium
# opens it full-screen on the attached display when the desktop session starts.
set -euo pipefail

APP_USER=${SUDO_USER:-pi}
CAMERA=pi
TURN=0
NETWORK=""
while [ $# -gt 0 ]; do
  case "$1" in
    --user) APP_USER=$2; shift 2 ;;
    --camera) CAMERA=$2; shift 2 ;;
    --camera-turn) TURN=$2; shift 2 ;;
    --network) NETWORK="--network"; shift ;;
    *) echo "error: unknown option $1" >&2; exit 2 ;;
  esac
done

if [ "$(id -u)" -ne 0 ]; then
  echo "error: run with sudo" >&2
  exit 2
fi
. /etc/os-release
case "${VERSION_CODENAME:-}" in
  bookworm|trixie) ;;
  *) echo "warning: tested on Raspberry Pi OS Bookworm and Trixie, this is ${VERSION_CODENAME:-unknown}" >&2 ;;
esac

SRC=$(cd "$(dirname "$0")/.." && pwd)
PREFIX=/opt/tilescore
DATA=/var/lib/tilescore
APP_HOME=$(getent passwd "$APP_USER" | cut -d: -f6)

apt-get update
# Chinese fonts so 台 番 and the tile names render on the display; chromium for the kiosk.
apt-get install -y python3-venv python3-picamera2 python3-opencv fonts-noto-cjk rsync curl \
  chromium unclutter || apt-get install -y python3-venv python3-picamera2 python3-opencv \
  fonts-noto-cjk rsync curl chromium-browser unclutter

install -d -o "$APP_USER" "$PREFIX" "$DATA"
python3 -m venv --system-site-packages "$PREFIX/venv"
"$PREFIX/venv/bin/pip" install --upgrade pip
# onnxruntime 1.21.0 crashes on a Raspberry Pi 4: the project's own pin keeps it away.
"$PREFIX/venv/bin/pip" install "$SRC"
# A reinstall replaces the models: the ones this table fitted or taught are kept in the data
# folder first (keep_models.sh), as nothing a table made may be lost to an upgrade.
bash "$SRC/deploy/keep_models.sh" "$PREFIX/models" "$SRC/models" "$DATA"
rsync -a --delete "$SRC/models/" "$PREFIX/models/"
# The app's own: "Fit to this set" on the scoreboard writes the adapted classifier there.
chown -R "$APP_USER" "$PREFIX/models"

cat > /etc/systemd/system/tilescore.service <<UNIT
[Unit]
Description=tilescore table app
After=network.target

[Service]
User=$APP_USER
WorkingDirectory=$PREFIX
ExecStart=$PREFIX/venv/bin/tilescore serve --camera $CAMERA --camera-turn $TURN --models $PREFIX/models --data $DATA $NETWORK
Restart=on-failure
RestartSec=3

[Install]
WantedBy=multi-user.target
UNIT

# The kiosk (deploy/kiosk.sh) waits for the app and, where it never answers, shows why from the
# service's journal: the app's user reads it as one of systemd-journal.
install -m 755 "$SRC/deploy/kiosk.sh" "$PREFIX/kiosk.sh"
usermod -a -G systemd-journal "$APP_USER"
install -d -o "$APP_USER" "$APP_HOME/.config/autostart"
cat > "$APP_HOME/.config/autostart/tilescore-kiosk.desktop" <<DESKTOP
[Desktop Entry]
Type=Application
Name=tilescore kiosk
Exec=$PREFIX/kiosk.sh
DESKTOP
chown "$APP_USER" "$APP_HOME/.config/autostart/tilescore-kiosk.desktop"

systemctl daemon-reload
systemctl enable tilescore.service
# restart, not start: on a reinstall the running app would keep serving the old code and unit
# (its --camera, say) while pip replaced its files underneath it.
systemctl restart tilescore.service
echo "tilescore installed: the display shows it after the next login; http://localhost:8765/"
