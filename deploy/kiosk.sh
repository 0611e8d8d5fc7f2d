#!/bin/sh
# The table's display: Chromium full-screen on the app, started with the desktop session.
#
#   kiosk.sh [URL]        (install.sh copies it to /opt/tilescore and starts it at login)
#
# It waits for the app (up to KIOSK_WAIT_S seconds, 60 by default) instead of a fixed sleep: a
# Pi 4 loading the models takes longer than a few seconds. An app that does not answer by then
# (a data folder it cannot use, a models folder broken) stopped with its reason in the journal
# only, and the display showed Chromium's "can't reach" page: a page of ours says why instead,
# with the service's last lines, and goes on to the app by itself once the app answers (the
# service is restarted on failure, and a table may mend the cause meanwhile).
URL=${1:-http://localhost:8765/}
case "$URL" in */) ;; *) URL="$URL/" ;; esac  # the status is asked at ${URL}api/status
WAIT=${KIOSK_WAIT_S:-60}
# The user's own runtime folder, never a name in the shared /tmp another user could hold.
PAGE_DIR=${XDG_RUNTIME_DIR:-$HOME/.cache}
mkdir -p "$PAGE_DIR"
PAGE=${KIOSK_PAGE:-$PAGE_DIR/tilescore-down.html}
BROWSER=${KIOSK_BROWSER:-$(command -v chromium || command -v chromium-browser)}

up() {
  # An app that takes the connection and never answers counts as down.
  curl -fs --max-time 5 -o /dev/null "${URL}api/status"
}

last_words() {
  if command -v journalctl > /dev/null; then
    journalctl -u tilescore.service -n 15 --no-pager -o cat 2>/dev/null
  else
    echo "(the service's log cannot be read here: journalctl -u tilescore.service)"
  fi
}

# The page Chromium shows while the app is down: it reloads itself, and once the app answers
# the loop below rewrites it to send the display on to the app.
down_page() {
  {
    echo '<!doctype html><html><head><meta charset="utf-8">'
    echo '<meta http-equiv="refresh" content="5">'
    echo '<title>tilescore is not running</title>'
    echo '<style>body{background:#0f3d2e;color:#f4f1e8;font:20px sans-serif;margin:40px}'
    echo 'pre{white-space:pre-wrap;font-size:15px}</style></head><body>'
    echo '<h1>The table app is not running</h1>'
    echo '<p>Its last words are below; it is tried again by itself, and this page goes on to'
    echo 'the app as soon as it answers.</p><pre>'
    last_words | sed -e 's/&/\&amp;/g' -e 's/</\&lt;/g' -e 's/>/\&gt;/g'
    echo '</pre></body></html>'
  } > "$PAGE.new" && mv "$PAGE.new" "$PAGE"
}

go_on_page() {
  printf '<!doctype html><meta http-equiv="refresh" content="0;url=%s">\n' "$URL" > "$PAGE.new" \
    && mv "$PAGE.new" "$PAGE"
}

START=$URL
i=0
until up; do
  i=$((i + 1))
  if [ "$i" -ge "$WAIT" ]; then
    down_page
    START=file://$PAGE
    # Watch for the app in the background: the page's reload then takes the display to it.
    (
      until up; do
        sleep 5
        down_page
      done
      go_on_page
    ) &
    break
  fi
  sleep 1
done
command -v unclutter > /dev/null && unclutter -idle 1 &
exec "$BROWSER" --kiosk --noerrdialogs --disable-infobars --no-first-run \
  --check-for-update-interval=31536000 "$START"
