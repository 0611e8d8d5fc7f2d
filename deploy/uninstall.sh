#!/usr/bin/env bash
# Remove the tilescore service, kiosk start-up and program. Sessions in /var/lib/tilescore, and the
# installed models (which a table may have fitted to its set), are kept there unless --purge is
# given: nothing the players saved is lost by an uninstall.
set -euo pipefail
if [ "$(id -u)" -ne 0 ]; then echo "error: run with sudo" >&2; exit 2; fi
APP_USER=${SUDO_USER:-pi}
APP_HOME=$(getent passwd "$APP_USER" | cut -d: -f6)
systemctl disable --now tilescore.service 2>/dev/null || true
rm -f /etc/systemd/system/tilescore.service "$APP_HOME/.config/autostart/tilescore-kiosk.desktop"
systemctl daemon-reload
if [ "${1:-}" = "--purge" ]; then
  rm -rf /opt/tilescore /var/lib/tilescore
else
  # The models a table fitted or taught live with the program; they are kept with the sessions.
  bash "$(dirname "$0")/keep_models.sh" /opt/tilescore/models - /var/lib/tilescore
  rm -rf /opt/tilescore
fi
echo "tilescore removed"
