"""``tilescore serve``: start the table app on this machine (and, when asked, on the network)."""

from __future__ import annotations

import argparse
from pathlib import Path

from scoring.errors import TilescoreError
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
    parser.add_argument("--models", default="models", help="folder with the model pair")
    parser.add_argument(
        "--data",
        default=str(Path.home() / ".local/share/tilescore"),
        help="where sessions and photos are kept (SQLite + photos)",
    )
    parser.add_argument("--port", type=int, default=DEFAULT_PORT)
    parser.add_argument(
        "--network",
        action="store_true",
        help="also listen on the network; phones need the PIN shown on the display",
    )
    parser.add_argument("--threads", type=int, default=None, help="onnxruntime threads")
    add_back_options(parser)
    parser.add_argument("--json", action="store_true", help="print the address as JSON and serve")


def run(args: argparse.Namespace) -> int:
    from device.app.web import create_app, make_pin

    backs = backs_from_args(args)  # a bad colour stops here, before the data folder is made
    data_dir = Path(args.data).expanduser()
    try:
        data_dir.mkdir(parents=True, exist_ok=True)
    except OSError as error:
        raise TilescoreError(
            f"cannot use data folder {str(data_dir)!r}: {error.strerror}"
        ) from None
    pin = make_pin() if args.network else None
    host = "0.0.0.0" if args.network else "127.0.0.1"
    # Phones need this machine's address on the network, not 0.0.0.0: the display shows it.
    address = f"http://{lan_address() if args.network else 'localhost'}:{args.port}/"
    app = create_app(
        data_dir,
        Path(args.models),
        args.camera,
        pin=pin,
        threads=args.threads,
        backs=backs,
        network_url=address if args.network else None,
        camera_turn=args.camera_turn,
    )
    if args.json:
        import json

        print(
            json.dumps({"url": address, "network": args.network, "data": str(data_dir)}), flush=True
        )
    else:
        print(f"tilescore table app on {address}" + (f"  PIN {pin}" if pin else ""), flush=True)
    from werkzeug.serving import run_simple

    run_simple(host, args.port, app, threaded=True, use_reloader=False)
    return 0


def lan_address() -> str:
    """This machine's address on its network: the one a UDP socket would send from. Connecting
    a UDP socket sends nothing; with no route at all, the host name is the best there is."""
    import socket

    with socket.socket(socket.AF_INET, socket.SOCK_DGRAM) as probe:
        try:
            probe.connect(("10.255.255.255", 1))
            return str(probe.getsockname()[0])
        except OSError:
            return socket.gethostname()
