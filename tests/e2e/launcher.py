"""Run a discord.py bot module in this process, pointed at a loopback fake of Discord.

Usage::

    python tests/e2e/launcher.py --api http://127.0.0.1:PORT/api/v10 \\
        --gateway ws://127.0.0.1:PORT/gateway/ [--control http://127.0.0.1:PORT] [--module bot]

The launcher

1. points discord.py at the fake (``discord.http.Route.BASE``,
   ``discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY`` and ``discord.Asset.BASE``);
2. installs a guard that makes every DNS lookup or socket connection to anything but loopback
   fail with :class:`NonLoopbackError` and reports the attempt to the fake (``POST
   /_fake/violation``), so the test that caused it fails;
3. shortens discord.py's ``guild_ready_timeout`` (the pause before ``on_ready``) to 0.1 s;
4. reports ``on_ready`` to the fake (``POST /_fake/client-ready``);
5. turns SIGTERM into SIGINT so ``asyncio.run``/``Client.run`` shut down gracefully (unless the
   bot installs its own SIGTERM handler);
6. runs the module like ``python -m MODULE`` (``runpy.run_module(..., run_name="__main__")``).

The guard helpers (:func:`install_guard`, :func:`is_loopback`) are importable on their own and
are also used by the test process itself (see ``conftest.py``).
"""

from __future__ import annotations

import argparse
import http.client
import ipaddress
import json
import os
import signal
import socket
import sys
import urllib.parse
from collections.abc import Callable
from pathlib import Path

REPO_ROOT = Path(__file__).resolve().parents[2]

#: ``guild_ready_timeout`` forced on every discord.py ConnectionState (seconds).
GUILD_READY_TIMEOUT = 0.1


class NonLoopbackError(ConnectionRefusedError):
    """Raised by the guard for any attempt to reach a host that is not loopback."""


def is_loopback(host: object) -> bool:
    """True for ``localhost``, 127.0.0.0/8, ``::1`` (and ``None``, meaning a local bind)."""
    if host is None:
        return True
    if isinstance(host, bytes):
        host = host.decode("ascii", "replace")
    host = str(host).strip("[]")
    if host.lower() in ("localhost", "localhost.", ""):
        return True
    try:
        return ipaddress.ip_address(host.split("%", 1)[0]).is_loopback
    except ValueError:
        return False


def install_guard(report: Callable[[str], None]) -> Callable[[], None]:
    """Make non-loopback DNS lookups and socket connections fail; return an uninstaller.

    ``report(description)`` is called (before raising) for every blocked attempt.
    Unix sockets and loopback addresses pass through untouched.
    """
    original_connect = socket.socket.connect
    original_connect_ex = socket.socket.connect_ex
    original_getaddrinfo = socket.getaddrinfo

    def blocked(what: str) -> NonLoopbackError:
        message = f"fakediscord guard: blocked non-loopback {what}"
        try:
            report(message)
        finally:
            print(message, file=sys.stderr, flush=True)
        return NonLoopbackError(message)

    def check_address(sock: socket.socket, address: object) -> None:
        inet = sock.family in (socket.AF_INET, socket.AF_INET6) and isinstance(address, tuple)
        if inet and not is_loopback(address[0]):
            raise blocked(f"connection to {address[0]}:{address[1]}")

    def guarded_connect(self: socket.socket, address: object) -> None:
        check_address(self, address)
        return original_connect(self, address)

    def guarded_connect_ex(self: socket.socket, address: object) -> int:
        check_address(self, address)
        return original_connect_ex(self, address)

    def guarded_getaddrinfo(host: object, *args: object, **kwargs: object) -> list:
        if not is_loopback(host):
            raise blocked(f"DNS lookup of {host!r}")
        return original_getaddrinfo(host, *args, **kwargs)

    socket.socket.connect = guarded_connect  # type: ignore[method-assign]
    socket.socket.connect_ex = guarded_connect_ex  # type: ignore[method-assign]
    socket.getaddrinfo = guarded_getaddrinfo

    def uninstall() -> None:
        socket.socket.connect = original_connect  # type: ignore[method-assign]
        socket.socket.connect_ex = original_connect_ex  # type: ignore[method-assign]
        socket.getaddrinfo = original_getaddrinfo

    return uninstall


def post_json(base_url: str | None, path: str, body: dict) -> None:
    """POST ``body`` to the fake's control endpoint (blocking, best effort, loopback only)."""
    if not base_url:
        return
    url = urllib.parse.urlsplit(base_url)
    if not is_loopback(url.hostname):
        return
    try:
        conn = http.client.HTTPConnection(url.hostname or "127.0.0.1", url.port or 80, timeout=5)
        conn.request(
            "POST", path, body=json.dumps(body), headers={"Content-Type": "application/json"}
        )
        conn.getresponse().read()
        conn.close()
    except OSError as exc:  # the fake may already be gone; never mask the real error
        print(f"fakediscord launcher: could not reach {base_url}{path}: {exc}", file=sys.stderr)


def configure_discord(api: str, gateway: str, control: str | None) -> None:
    """Point discord.py at the fake and hook ``on_ready`` reporting and the ready delay."""
    import asyncio

    import discord
    import discord.gateway
    import discord.http
    import discord.state
    import yarl

    discord.http.Route.BASE = api
    discord.gateway.DiscordWebSocket.DEFAULT_GATEWAY = yarl.URL(gateway)
    if control:
        discord.Asset.BASE = control.rstrip("/") + "/cdn"

    original_state_init = discord.state.ConnectionState.__init__

    def state_init(self, *args, **kwargs):  # type: ignore[no-untyped-def]
        original_state_init(self, *args, **kwargs)
        self.guild_ready_timeout = min(self.guild_ready_timeout, GUILD_READY_TIMEOUT)

    discord.state.ConnectionState.__init__ = state_init  # type: ignore[method-assign]

    original_handle_ready = discord.Client._handle_ready

    def handle_ready(self):  # type: ignore[no-untyped-def]
        original_handle_ready(self)
        body = {"pid": os.getpid(), "user_id": str(self.user.id) if self.user else None}
        asyncio.get_running_loop().run_in_executor(
            None, post_json, control, "/_fake/client-ready", body
        )

    discord.Client._handle_ready = handle_ready  # type: ignore[method-assign]


def _sigterm(signum: int, frame: object) -> None:
    """Treat SIGTERM like Ctrl-C.

    Under ``asyncio.run`` the first SIGINT cancels the main task (so ``Client.run`` closes the
    client and returns); raising KeyboardInterrupt here instead could surface at any await point
    and escape the cleanup.
    """
    signal.raise_signal(signal.SIGINT)


def main(argv: list[str] | None = None) -> None:
    """Parse arguments, install the guard, configure discord.py and run the bot module."""
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument(
        "--api", required=True, help="REST base, e.g. http://127.0.0.1:1234/api/v10"
    )
    parser.add_argument("--gateway", required=True, help="gateway URL, e.g. ws://127.0.0.1:1234/")
    parser.add_argument("--control", default=None, help="fake's base URL for reports")
    parser.add_argument("--module", default="bot", help="module to run as __main__")
    args, rest = parser.parse_known_args(argv)

    for url in (args.api, args.gateway, args.control):
        if url and not is_loopback(urllib.parse.urlsplit(url).hostname):
            parser.error(f"refusing non-loopback URL {url}")

    # Behave like `python -m MODULE` run from the repository root.
    here = str(Path(__file__).resolve().parent)
    sys.path[:] = [p for p in sys.path if os.path.abspath(p or ".") != here]
    sys.path.insert(0, str(REPO_ROOT))

    control = args.control
    install_guard(lambda message: post_json(control, "/_fake/violation", {"message": message}))
    configure_discord(args.api, args.gateway, control)
    # A shell starts background jobs with SIGINT ignored, and Python then leaves it ignored, so
    # asyncio.run would not turn it into a cancellation: restore Ctrl-C's default handler, or
    # the suite run in the background (nohup, some CI runners) waits out every stop's timeout.
    signal.signal(signal.SIGINT, signal.default_int_handler)
    signal.signal(signal.SIGTERM, _sigterm)

    import runpy

    sys.argv = [args.module, *rest]
    runpy.run_module(args.module, run_name="__main__", alter_sys=True)


if __name__ == "__main__":
    main()
