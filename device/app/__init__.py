"""The table app: camera, attached display (Chromium kiosk) and phones, with a scoreboard."""
