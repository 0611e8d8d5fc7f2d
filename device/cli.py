"""The ``tilescore`` command: one dispatcher, each subcommand in the module that owns its work.

A subcommand module exposes ``configure(parser)`` to add its arguments and ``run(args) -> int``.
Modules are imported only when their command runs, so ``tilescore score`` never loads onnxruntime
and ``tilescore train`` is the only one that loads torch.
"""

from __future__ import annotations

import argparse
import contextlib
import importlib
import io
import os
import sys
from collections.abc import Sequence
from typing import NoReturn

from scoring.errors import TilescoreError

# command name -> (module, one-line help). The order is the order ``--help`` shows.
COMMANDS: dict[str, tuple[str, str]] = {
    "score": ("device.score_cli", "score a hand typed as text, a JSON file, or a photo"),
    "settle": ("scoring.settle_cli", "end-of-game settlement (明將麻雀)"),
    "detect": ("vision.cli", "find and read every tile in photos"),
    "reconstruct": ("vision.reconstruct_cli", "turn detections into a hand and melds"),
    "train": ("vision.training.cli", "train the detector or the classifier"),
    "evaluate": ("vision.evaluate_cli", "measure models on a labelled folder"),
    "serve": ("device.app.cli", "the table app: camera, display, phones"),
    "label": ("device.label_cli", "label tile photos for training"),
}


class OneLineParser(argparse.ArgumentParser):
    """argparse prints its usage text before an error; at a table one line says enough."""

    def error(self, message: str) -> NoReturn:
        self.exit(2, f"error: {self.prog}: {message} (see {self.prog} --help)\n")


def build_parser(only: str | None = None) -> argparse.ArgumentParser:
    parser = OneLineParser(prog="tilescore", description="Camera scoring assistant for mahjong.")
    subparsers = parser.add_subparsers(dest="command", metavar="COMMAND")
    for name, (module_name, help_text) in COMMANDS.items():
        sub = subparsers.add_parser(name, help=help_text, description=help_text)
        if only is None or only == name:
            module = _load(module_name)
            if module is not None:
                module.configure(sub)
    return parser


def _load(module_name: str):  # type: ignore[no-untyped-def]
    try:
        return importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        # A command whose module is not part of this install (or whose optional dependency is
        # missing) is reported when it is asked for, not when another command runs.
        if error.name and (module_name.startswith(error.name) or error.name in _OPTIONAL):
            return None
        raise


_OPTIONAL = {"torch", "ultralytics", "onnxruntime", "cv2", "picamera2"}


def main(argv: Sequence[str] | None = None) -> int:
    argv = list(sys.argv[1:] if argv is None else argv)
    command = next((a for a in argv if not a.startswith("-")), None)
    only = command if command in COMMANDS else None
    parser = build_parser(only)
    args = parser.parse_args(argv)
    if args.command is None:
        parser.print_help()
        return 2
    module_name = COMMANDS[args.command][0]
    try:
        module = importlib.import_module(module_name)
    except ModuleNotFoundError as error:
        print(
            f"error: command {args.command!r} needs {error.name!r}, which is not installed",
            file=sys.stderr,
        )
        return 2
    if sys.stdout is None and not _serves(args):
        # Started with stdout closed (>&-): print() writes nowhere and the run would end 0
        # with its result lost.
        print("error: standard output is closed: nothing could be written", file=sys.stderr)
        return 2
    _escape_what_utf8_cannot_carry()
    try:
        status = int(module.run(args))
        if sys.stdout is not None:
            sys.stdout.flush()  # a full disk is found here, not in Python's flush at exit
        return status
    except TilescoreError as error:
        print(f"error: {error}", file=sys.stderr)
        return 2
    except KeyboardInterrupt:
        print("error: interrupted", file=sys.stderr)
        return 130
    except BrokenPipeError:
        # The reader stopped early (`tilescore evaluate ... | head`): nothing left to say, and
        # nobody to say it to. stdout goes to devnull so Python's flush at exit stays quiet too.
        _quiet_stdout()
        return 1
    except OSError as error:
        # Most often the output could not be written (`> /dev/full`); any other the commands
        # did not say in their own words is one line too, never a traceback.
        where = f": {error.filename}" if error.filename else ""
        print(f"error: {error.strerror or error}{where}", file=sys.stderr)
        _quiet_stdout()
        return 1


def _serves(args: argparse.Namespace) -> bool:
    """Whether the command's work is a server, not its output (it may run with stdout closed):
    ``serve``, and ``label`` but for its report, export and import."""
    if args.command == "label":
        return not (args.export or args.import_file or args.report)
    return bool(args.command == "serve")


def _escape_what_utf8_cannot_carry() -> None:
    """A file name whose bytes are not UTF-8 reaches Python as lone surrogates ("\\udcff"); a
    strict stdout (a UTF-8 locale other than C.UTF-8, PYTHONIOENCODING=utf-8) cannot encode them
    and the command ended in a traceback after its work was done (``detect`` and ``score PHOTO``
    print the photo's name). They are written escaped, as Python's stderr already writes them.
    A stdout that escapes them its own way (surrogateescape: the name's own bytes) is left so;
    JSON never depends on this (scoring.cli.write_json escapes them itself)."""
    if isinstance(sys.stdout, io.TextIOWrapper) and sys.stdout.errors == "strict":
        sys.stdout.reconfigure(errors="backslashreplace")


def _quiet_stdout() -> None:
    """Send what is left in stdout's buffer to devnull, so Python's flush at exit says nothing
    more (a traceback of its own)."""
    if sys.stdout is not None:
        with contextlib.suppress(OSError, ValueError):
            os.dup2(os.open(os.devnull, os.O_WRONLY), sys.stdout.fileno())


if __name__ == "__main__":
    sys.exit(main())
