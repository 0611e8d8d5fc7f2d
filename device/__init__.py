"""What a table uses: the command line, the camera, the display and the web app."""
