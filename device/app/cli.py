"""``tilescore serve``: start the table app on this machine (and, when asked, on the network)."""

from __future__ import annotations

import argparse
import socket
from pathlib import Path
from typing import Any

from scoring.errors import TilescoreError
from vision.models import SHIPPED_MODELS, thread_count
from vision.tile_sets import add_back_options, backs_from_args

DEFAULT_PORT = 8765


def configure(parser: argparse.ArgumentParser) -> None:
    parser.add_argument(
        "--camera", default="dir:examples/photos", help="pi, usb:N or dir:PATH (a folder of photos)"
    )
    parser.add_argument(
        "--camera-turn",
        type=int,
        default=0,
        choices=(0, 90, 180, 270),
        metavar="DEGREES",
        help="turn the camera's frames this many degrees clockwise (0, 90, 180, 270), for a "
        "camera mounted rolled: the far side of the table belongs at the top of the preview",
    )
    parser.add_argument("--models", default=str(SHIPPED_MODELS), help="folder with the model pair")
    parser.add_argument(
        "--data",
        default=str(Path.home() / ".local/share/tilescore"),
        help="where sessions and photos are kept (SQLite + photos)",
    )
    parser.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        help=f"the port to listen on, 1 to 65535 (default {DEFAULT_PORT}; 0: any free port)",
    )
    parser.add_argument(
        "--network",
        action="store_true",
        help="also listen on the network; phones need the PIN shown on the display",
    )
    parser.add_argument("--threads", type=thread_count, default=None, help="onnxruntime threads")
    add_back_options(parser)
    parser.add_argument("--json", action="store_true", help="print the address as JSON and serve")


def port_number(text: str) -> int:
    """``--port``: a TCP port, or 0 for any free one (the address printed is the one taken)."""
    try:
        port = int(text)
    except ValueError:
        port = -1
    if not 0 <= port <= 65535:
        raise argparse.ArgumentTypeError(f"port {text!r} is not a number from 0 to 65535")
    return port


def check_models_dir(models: Path) -> None:
    """A models folder that is not there at all is a wrong path, found at the start. One that
    lacks its files is not: the app starts and the display says what is missing
    (``service.Reader.check``), as it does when a file goes missing later."""
    if not models.is_dir():
        why = "is not a folder" if models.exists() else "does not exist"
        raise TilescoreError(f"models folder {str(models)!r} {why} (give --models FOLDER)")


def check_data_dir(data: Path) -> None:
    """A data folder that is a file, or lies under one, is said as such: ``mkdir`` says only
    "File exists" or "Not a directory", naming no file."""
    for place in (data, *data.parents):
        if place.exists():
            if not place.is_dir():
                where = "is a file" if place == data else f"lies under {str(place)!r}, a file"
                raise TilescoreError(
                    f"data folder {str(data)!r} {where}, not a folder (give --data FOLDER)"
                )
            return


def run(args: argparse.Namespace) -> int:
    from device.app.web import create_app, make_pin
    from device.camera import check_camera_spec

    backs = backs_from_args(args)  # a bad colour stops here, before the data folder is made
    # Settings that can never work stop here too, in one line; a camera that is only unplugged
    # or busy, or a models folder still missing a file, is said on the display instead.
    check_camera_spec(args.camera)
    check_models_dir(Path(args.models))
    data_dir = Path(args.data).expanduser()
    check_data_dir(data_dir)
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TilescoreError(
            f"cannot use data folder {str(data_dir)!r}: {error.strerror}"
        ) from None
    pin = make_pin() if args.network else None
    host = "0.0.0.0" if args.network else "127.0.0.1"
    app = create_app(
        data_dir,
        Path(args.models),
        args.camera,
        pin=pin,
        threads=args.threads,
        backs=backs,
        camera_turn=args.camera_turn,
    )  # the data folder checked first: a read-only one is said as such
    held = hold_data_dir(data_dir)  # noqa: F841  (held while the process serves)
    server = listening_server(host, args.port, app)
    # The port taken (--port 0 takes any free one). Phones need this machine's address on the
    # network, not 0.0.0.0: the display shows it.
    address = f"http://{lan_address() if args.network else 'localhost'}:{server.port}/"
    if args.network:
        app.config["STATE"].network_url = address
    if args.json:
        import json

        print(
            json.dumps({"url": address, "network": args.network, "data": str(data_dir)}), flush=True
        )
    else:
        print(f"tilescore table app on {address}" + (f"  PIN {pin}" if pin else ""), flush=True)
    server.serve_forever()  # until Ctrl-C (or the service stops it)
    return 0


def hold_data_dir(data_dir: Path) -> Any:
    """The data folder held for this process (a lock on a file in it, let go when the process
    ends, however it ends): a second app on it is refused. Two apps' table settings written at
    the same moment lost one of them, 54 times in 60 (the app orders its writes in one process)."""
    import fcntl

    try:
        handle = open(data_dir / LOCK_FILE, "a+")  # noqa: SIM115  (held open: the lock)
        fcntl.flock(handle, fcntl.LOCK_EX | fcntl.LOCK_NB)
    except BlockingIOError:
        raise TilescoreError(
            f"another tilescore serve is using the data folder {data_dir}: stop it, or give "
            "--data FOLDER"
        ) from None
    except OSError as error:
        raise TilescoreError(
            f"cannot use data folder {str(data_dir)!r}: {error.strerror}"
        ) from None
    return handle


LOCK_FILE = ".serve.lock"
"""In the data folder, locked while an app serves from it."""


def listening_server(host: str, port: int, app: Any) -> Any:
    """A threaded werkzeug server for ``app`` on ``host``:``port`` (``serve`` and the labelling
    page): a port in use is one line (werkzeug's own bind prints several and exits), and
    ``.port`` is the port taken (``--port 0`` takes any free one)."""
    from werkzeug.serving import make_server

    listening = listen(host, port)
    try:
        return make_server(host, port, app, threaded=True, fd=listening.fileno())
    finally:
        listening.close()  # the server listens on its own copy


def listen(host: str, port: int) -> socket.socket:
    """A socket listening on ``host``:``port``, or a one-line error: werkzeug's own bind prints
    several lines and exits when the port is taken."""
    listening = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
    listening.setsockopt(socket.SOL_SOCKET, socket.SO_REUSEADDR, 1)  # as the server's own would
    try:
        listening.bind((host, port))
        listening.listen(128)
    except OSError as error:  # in use, or a port below 1024 without the right to it
        listening.close()
        raise TilescoreError(f"cannot listen on port {port}: {error.strerror}") from None
    return listening


def lan_address() -> str:
    """This machine's address on its network: the one a UDP socket would send from. Connecting
    a UDP socket sends nothing; with no route at all, the host name is the best there is."""
    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()
