"""What libjpeg and libpng say while OpenCV decodes a photo, caught instead of printed.

Both libraries write their complaints about a damaged file straight to the process's standard
error ("Corrupt JPEG data: 111 extraneous bytes before marker 0xd9", "libpng error: bad adaptive
filter value") and OpenCV still returns an image: a JPEG damaged inside comes back with its lower
part smeared, which reads as missed and wrong tiles. Caught here, such a photo is refused in the
one line that names it. None of the 2,190 photos and faces in ``shared/data`` makes either
library say anything.
"""

from __future__ import annotations

import contextlib
import os
import sys
import tempfile
import threading
from collections.abc import Iterator

DAMAGE_MARKS = (
    "Corrupt JPEG data",
    "Premature end of JPEG file",
    "Invalid SOS parameters",
    "Inconsistent progression sequence",
    "libpng error",
)
"""The beginnings of the lines the decoders write for a damaged file (libjpeg's jerror.h,
libpng's png_error)."""

HARMLESS_MARKS = ("libpng warning",)
"""Decoder lines about a file whose pixels are whole ("libpng warning: iCCP: known incorrect
sRGB profile", common in exported PNGs): dropped, neither refused nor printed. Any other line
caught is someone else's and is passed on."""

_STDERR = 2
_one_at_a_time = threading.Lock()  # the standard error is the process's: one catch at a time


@contextlib.contextmanager
def caught(complaints: list[str]) -> Iterator[None]:
    """Run the block with the standard error caught; the decoders' lines go into ``complaints``,
    every other line (another thread's, in that moment) is written on to the standard error."""
    with _one_at_a_time, tempfile.TemporaryFile() as catch:
        sys.stderr.flush()
        saved = os.dup(_STDERR)
        os.dup2(catch.fileno(), _STDERR)
        try:
            yield
        finally:
            sys.stderr.flush()
            os.dup2(saved, _STDERR)
            os.close(saved)
            catch.seek(0)
            text = catch.read().decode("utf-8", "replace")
    others = []
    for line in text.splitlines():
        if line.startswith(DAMAGE_MARKS):
            complaints.append(line)
        elif not line.startswith(HARMLESS_MARKS):
            others.append(line)
    if others:
        os.write(_STDERR, ("\n".join(others) + "\n").encode())
