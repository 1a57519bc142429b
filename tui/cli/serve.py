"""``papers serve [--port N] [--host H]``: the app in a browser, on the same library.

Only this command imports textual-serve and aiohttp (``tui/web_server.py``), and only once it
runs: ``papers`` and every other command start without them.
"""

from __future__ import annotations

import argparse
import sys

from tui.cli.common import PROG, Parser, Subparsers, open_library, warn_missing_links
from tui.cli.output import say

DEFAULT_HOST = "127.0.0.1"
DEFAULT_PORT = 8000

DESCRIPTION = (
    "Serve the app to a browser: each tab runs papers on this library, with the same keys, "
    "screens and files (decisions made in a tab and in a terminal at once never lose each "
    "other's). It listens on 127.0.0.1 unless --host names another address; then the page "
    "wants the secret token printed at start, since whoever opens it controls the library. "
    "ctrl+c (or SIGTERM) stops it, closing every tab with its decisions saved. Needs the web "
    "extra: pip install 'papers-tui[web]'."
)


def add_serve(sub: Subparsers, common: Parser) -> None:
    """``papers serve [--port N] [--host H]``."""
    p = sub.add_parser(
        "serve",
        parents=[common],
        help="the app in a browser (textual-serve)",
        description=DESCRIPTION,
    )
    p.add_argument(
        "--port",
        type=port_number,
        default=DEFAULT_PORT,
        metavar="N",
        help=f"port to listen on (default {DEFAULT_PORT}; 0: any free port)",
    )
    p.add_argument(
        "--host",
        default=DEFAULT_HOST,
        metavar="H",
        help=f"address to listen on (default {DEFAULT_HOST}, this machine only; any other, "
        "such as 0.0.0.0 for every address, requires the printed token)",
    )
    p.set_defaults(run=cmd_serve)


def port_number(text: str) -> int:
    """A TCP port: 0 to 65535."""
    try:
        value = int(text)
    except ValueError:
        raise argparse.ArgumentTypeError(f"not a number: {text!r}") from None
    if not 0 <= value <= 65535:
        raise argparse.ArgumentTypeError("must be from 0 to 65535")
    return value


def cmd_serve(args: argparse.Namespace) -> int:
    # asyncio alone is ~15 ms: everything here is imported once `papers serve` runs
    import asyncio
    import importlib.util
    import secrets

    from storage.errors import LibraryError

    if importlib.util.find_spec("textual_serve") is None:
        raise LibraryError(
            "papers serve needs textual-serve: install the web extra "
            "(pip install 'papers-tui[web]', or pip install -e \".[web]\" in a checkout)"
        )
    from tui.web_addresses import page_addresses
    from tui.web_server import PapersServer, is_loopback, listen

    # a damaged file is reported now, not in each tab; a server is no command that ends
    library = open_library(args, command=False)
    warn_missing_links(library)
    home = library.home.resolve()
    token = None if is_loopback(args.host) else secrets.token_urlsafe(24)
    sock = listen(args.host, args.port)
    server = PapersServer(home, sock, token=token)
    _quiet_logging()

    def started() -> None:
        addresses = page_addresses(sock, token)
        if len(addresses) == 1 and not addresses[0][1]:
            say(f"{PROG} serve: the library in {home} at {addresses[0][0]}")
        else:  # every address: the machine's own, which another device can type
            say(f"{PROG} serve: the library in {home} at")
            width = max(len(url) for url, _ in addresses)
            for url, whom in addresses:
                say(f"  {url:<{width}}  ({whom})")
            if len(addresses) == 1:
                say("No address of this machine on a network was found: only it can open the page.")
        if token is not None:
            say(
                "Whoever opens the page with its token controls the library: share it with "
                "no one. "
                "Without the token every request gets 403."
            )
        say("ctrl+c stops it (every tab's decisions are saved).")
        sys.stdout.flush()

    asyncio.run(server.run(started))
    say(f"{PROG} serve: stopped")
    return 0


def _quiet_logging() -> None:
    """A tab opened or closed, a request refused: one line each on stderr; textual-serve's
    and aiohttp's own logs only when something went wrong. Log lines quote requests (a path,
    a header): shown with every character visible."""
    import logging

    from storage.text.sanitize import printable

    class PrintableFormatter(logging.Formatter):
        def format(self, record: logging.LogRecord) -> str:
            return printable(super().format(record))

    handler = logging.StreamHandler(sys.stderr)
    handler.setFormatter(PrintableFormatter(f"{PROG} serve: %(message)s"))
    root = logging.getLogger()
    root.handlers[:] = [handler]
    root.setLevel(logging.WARNING)
    logging.getLogger("papers-serve").setLevel(logging.INFO)
