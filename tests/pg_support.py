"""A throwaway PostgreSQL server for the tests and benches, from Debian's ``postgresql`` package.

The tests own their server as they own their Chromium: a private cluster in a temporary folder,
on a free loopback port, that they can stop and start again (the fault tests do). PostgreSQL
refuses to run as root, so as root the server runs as the ``postgres`` user the package creates.
"""

from __future__ import annotations

import contextlib
import glob
import os
import secrets
import shutil
import subprocess
import tempfile
import time
from pathlib import Path

import psycopg

from tests.server_support import free_port

INSTALL_HINT = "PostgreSQL's server binaries are missing: apt-get install postgresql (.ci/run does)."


def bin_dir() -> Path:
    """The newest installed server's bin folder (/usr/lib/postgresql/<major>/bin)."""
    found = sorted(glob.glob("/usr/lib/postgresql/*/bin/initdb"), key=lambda p: int(p.split("/")[4]))
    if not found:
        raise RuntimeError(INSTALL_HINT)
    return Path(found[-1]).parent


class PostgresServer:
    """A private cluster: ``start()``, ``stop()``, and one fresh database per ``new_database()``."""

    USER = "kadesh"

    def __init__(self, fast: bool = True) -> None:
        self.bin = bin_dir()
        self.root = Path(tempfile.mkdtemp(prefix="kadesh-pg-"))
        self.data = self.root / "data"
        self.port = free_port()
        self.fast = fast  # fsync off: for tests, where no machine crashes, not for the figures
        self._as_postgres = os.geteuid() == 0
        self._template: str | None = None
        if self._as_postgres:
            shutil.chown(self.root, "postgres", "postgres")
        self._run("initdb", "-D", str(self.data), "-U", self.USER, "--auth=trust", "-E", "UTF8",
                  "--locale=C.UTF-8", "-N")

    def _run(self, program: str, *args: str) -> None:
        command = [str(self.bin / program), *args]
        if self._as_postgres:
            command = ["runuser", "-u", "postgres", "--", *command]
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, cwd=self.root)

    def start(self) -> PostgresServer:
        settings = f"-p {self.port} -k {self.root} -c listen_addresses=127.0.0.1 -c max_connections=400"
        if self.fast:
            settings += " -c fsync=off -c full_page_writes=off"
        self._run("pg_ctl", "-D", str(self.data), "-l", str(self.root / "log"), "-o", settings, "-w", "start")
        return self

    def stop(self, mode: str = "fast") -> None:
        self._run("pg_ctl", "-D", str(self.data), "-m", mode, "-w", "stop")

    def destroy(self) -> None:
        with contextlib.suppress(subprocess.CalledProcessError):  # already stopped
            self.stop("immediate")
        shutil.rmtree(self.root, ignore_errors=True)

    def url(self, database: str = "postgres") -> str:
        return f"postgresql+psycopg://{self.USER}@127.0.0.1:{self.port}/{database}"

    def _admin(self) -> psycopg.Connection:
        return psycopg.connect(host="127.0.0.1", port=self.port, user=self.USER, dbname="postgres",
                               autocommit=True)

    def new_database(self, migrated: bool = False) -> str:
        """The URL of a new database: with no table, or ``migrated`` to Kadesh's newest schema (a copy of a
        database migrated once per server, which costs PostgreSQL a tenth of migrating a new one)."""
        name = "kadesh_" + secrets.token_hex(6)
        template = f' TEMPLATE "{self._migrated_template()}"' if migrated else ""
        with self._admin() as admin:
            admin.execute(f'CREATE DATABASE "{name}"{template}')
        return self.url(name)

    def _migrated_template(self) -> str:
        if self._template is None:
            from kadesh.store import Store

            name = "kadesh_migrated_template"
            with self._admin() as admin:
                admin.execute(f'CREATE DATABASE "{name}"')
            Store(self.url(name)).close()  # no connection left to it: a template must have none
            self._template = name
        return self._template

    def drop_database(self, url: str) -> None:
        name = url.rsplit("/", 1)[1]
        with self._admin() as admin:
            admin.execute(f'DROP DATABASE IF EXISTS "{name}" WITH (FORCE)')

    def wait_until_up(self, timeout: float = 30.0) -> None:
        deadline = time.monotonic() + timeout
        while True:
            try:
                self._admin().close()
                return
            except psycopg.OperationalError:
                if time.monotonic() > deadline:
                    raise
                time.sleep(0.1)
