"""A throwaway PostgreSQL server for the tests and benches: Debian's postgresql binaries
(`/usr/lib/postgresql/*/bin`, installed by `make test` and `.ci/run`), a cluster in a
temporary directory, listening on 127.0.0.1 and a free port only. initdb and the server refuse
to run as root: as root they run as the user `nobody`."""

from __future__ import annotations

import glob
import os
import shutil
import socket
import subprocess
import tempfile
import time
from pathlib import Path

BIN_GLOB = "/usr/lib/postgresql/*/bin"
USER = "postgres"  # the cluster's superuser (a role name, not the system user)


class PostgresNotInstalled(RuntimeError):
    """No PostgreSQL binaries: `make test` installs them (apt-get install postgresql)."""


def find_bin() -> Path:
    """The newest PostgreSQL binary directory."""
    found = sorted(glob.glob(BIN_GLOB), key=lambda p: int(Path(p).parent.name.split(".")[0]))
    if not found or not Path(found[-1], "initdb").exists():
        raise PostgresNotInstalled(
            "PostgreSQL is not installed: run `make test` as root (it installs Debian's"
            " postgresql) or `apt-get install postgresql`."
        )
    return Path(found[-1])


def _free_port() -> int:
    with socket.socket() as s:
        s.bind(("127.0.0.1", 0))
        return s.getsockname()[1]


class PostgresServer:
    """`start()` a cluster, `url(database)` to reach it, `stop()` to remove it all."""

    def __init__(self) -> None:
        self.bin = find_bin()
        self.dir = Path(tempfile.mkdtemp(prefix="ps-pg-"))
        self.data = self.dir / "data"
        self.port = _free_port()
        self._as_root = os.geteuid() == 0
        #: The database every migration was applied to (`fresh_database(migrated=True)`).
        self.migrated: str | None = None

    def _run(self, *args: str) -> subprocess.CompletedProcess[str]:
        cmd = [str(a) for a in args]
        if self._as_root:
            cmd = ["runuser", "-u", "nobody", "--", *cmd]
        return subprocess.run(cmd, check=True, capture_output=True, text=True, cwd=self.dir)

    def start(self) -> PostgresServer:
        if self._as_root:
            shutil.chown(self.dir, "nobody")
        self._run(
            self.bin / "initdb", "-D", self.data, "-U", USER, "--auth=trust", "--no-sync", "-E",
            "UTF8", "--locale=C",
        )  # fmt: skip
        options = (
            f"-c listen_addresses=127.0.0.1 -c port={self.port} -c unix_socket_directories={self.dir}"
            " -c fsync=off -c synchronous_commit=off -c full_page_writes=off"
            " -c max_connections=300 -c shared_buffers=32MB"
        )
        self._run(
            self.bin / "pg_ctl", "-D", self.data, "-o", options, "-l", self.dir / "log", "-w",
            "-t", "60", "start",
        )  # fmt: skip
        return self

    def url(self, database: str = "postgres") -> str:
        return f"postgresql://{USER}@127.0.0.1:{self.port}/{database}"

    def stop(self) -> None:
        try:
            self._run(self.bin / "pg_ctl", "-D", self.data, "-m", "immediate", "-w", "stop")
        finally:
            shutil.rmtree(self.dir, ignore_errors=True)


_counter = iter(range(1, 1_000_000))


async def fresh_database(server: PostgresServer, *, migrated: bool = False) -> str:
    """Create an empty database on `server` and return its URL; `migrated`: a copy of one
    database the bot's storage has migrated to the current schema (made on the first call by
    `PostgresStorage.open`), which a test's own `open` then finds up to date: the same database
    as a migrated empty one, without running every migration again for each test."""
    import asyncpg

    template = "template0"
    if migrated:
        if server.migrated is None:
            from bot.storage.postgres import PostgresStorage

            url = await fresh_database(server)
            await (await PostgresStorage.open(url)).close()
            server.migrated = url.rsplit("/", 1)[1]
        template = server.migrated
    name = f"t{os.getpid()}_{next(_counter)}_{int(time.time() * 1000) % 100000}"
    conn = await asyncpg.connect(server.url())
    try:
        await conn.execute(f'CREATE DATABASE "{name}" TEMPLATE "{template}"')
    finally:
        await conn.close()
    return server.url(name)
