#!/usr/bin/env bash
# Remove the tilescore service, kiosk start-up and program. Sessions in /var/lib/tilescore are kept
# unless --purge is given: nothing the players saved is lost by an uninstall.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then echo "error: run with sudo" >&2; exit 2; fi
APP_USER=${SUDO_USER:-pi}
APP_HOME=$(getent passwd "$APP_USER" | cut -d: -f6)
systemctl disable --now tilescore.service 2>/dev/null || true
rm -f /etc/systemd/system/tilescore.service "$APP_HOME/.config/autostart/tilescore-kiosk.desktop"
systemctl daemon-reload
rm -rf /opt/tilescore
if [ "${1:-}" = "--purge" ]; then rm -rf /var/lib/tilescore; fi
echo "tilescore removed"
