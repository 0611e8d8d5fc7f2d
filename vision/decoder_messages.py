"""What libjpeg and libpng say while OpenCV decodes a photo, caught instead of printed.

Both libraries write their complaints about a damaged file straight to the process's standard
error ("Corrupt JPEG data: premature end of data segment", "libpng error: bad adaptive filter
value") and OpenCV may still return an image: a JPEG damaged inside comes back with its lower part
smeared, which reads as missed and wrong tiles. Caught here, such a photo is refused in the one
line that names it. None of the 2,190 photos and faces in ``shared/data`` makes either library
say anything.

Only in a process of one thread (the commands): the standard error is the process's, and in the
table app another thread's decoder (a USB camera's frames) could speak during a photo's decode
and have a whole photo refused. There the decoders speak for themselves, as before.
"""

from __future__ import annotations

import contextlib
import os
import re
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
_PADDED = re.compile(r"Corrupt JPEG data: (\d+) extraneous bytes before marker 0xd9$")
_END = b"\xff\xd9"


def padded_end(line: str, data: bytes) -> bool:
    """Whether ``line`` says only that bytes of padding lie before the JPEG's end marker: some
    cameras and editors write them, and the photo decodes byte for byte as without them. The
    same line follows damage (the scan's data cut short, the rest left over), so the bytes it
    counts must be padding: all zero, or all 0xff."""
    said = _PADDED.match(line)
    end = data.rfind(_END)
    if said is None or end < 0:
        return False
    extra = data[max(0, end - int(said.group(1))) : end]
    return len(set(extra)) == 1 and extra[:1] in (b"\x00", b"\xff")


@contextlib.contextmanager
def caught(complaints: list[str]) -> Iterator[None]:
    """Run the block with the standard error caught; the decoders' lines of damage go into
    ``complaints``, every other line is written on to the standard error. Where the process
    runs other threads, or has no standard error open, nothing is caught."""
    if threading.active_count() > 1:
        yield
        return
    try:
        saved = os.dup(_STDERR)
    except OSError:  # no standard error (2>&-): nothing would be printed anyway
        yield
        return
    with tempfile.TemporaryFile() as catch:
        if sys.stderr is not None:
            sys.stderr.flush()
        os.dup2(catch.fileno(), _STDERR)
        try:
            yield
        finally:
            if sys.stderr is not None:
                sys.stderr.flush()
            os.dup2(saved, _STDERR)
            os.close(saved)
            catch.seek(0)
            text = catch.read().decode("utf-8", "replace")
    others: list[str] = []
    for line in text.splitlines():
        if line.startswith(HARMLESS_MARKS):
            continue
        (complaints if line.startswith(DAMAGE_MARKS) else others).append(line)
    if others:
        os.write(_STDERR, ("\n".join(others) + "\n").encode())
