"""How many WebSockets one server process keeps open: per client address, and in all (issue 60).

A game has no ceiling of its own: a featured game's spectators are served by its one broadcaster
(``kadesh.server.broadcast``), whatever their number. What stops abuse is per client: an address opens at most
``SOCKETS_PER_ADDRESS`` sockets on this server (``KADESH_SOCKETS_PER_ADDRESS``), counted by the same client address
as the rate limits (``kadesh.server.rates.client_key``: the peer, or behind the operator's trusted proxies the
address they were told of), and a socket that floods is closed on its own (``kadesh.server.ws``). What bounds a
server is its memory: at most ``SOCKETS_PER_SERVER`` sockets in all (``KADESH_SOCKETS_PER_SERVER``). Past either,
a new socket gets an error frame ``too_many_sockets`` and close code 4429; the counts are kept on the event loop.
"""

from __future__ import annotations

from collections.abc import Mapping
from dataclasses import dataclass

from kadesh.server.problems import ApiProblem
from kadesh.server.rates import UNLIMITED, BadLimits

SOCKETS_PER_ADDRESS = 32  # a player's tabs and a club's room behind one address, not a crowd of scripts
SOCKETS_PER_SERVER = 20_000  # about 1 GB of sockets (40-50 KiB each, docs/performance.md), and as many files
ADDRESS_SETTING = "KADESH_SOCKETS_PER_ADDRESS"
SERVER_SETTING = "KADESH_SOCKETS_PER_SERVER"


class BadSocketLimit(BadLimits):
    """A setting that does not read as a number of sockets (said at start-up, as the rate limits' settings)."""


@dataclass(frozen=True)
class SocketLimits:
    """Open sockets allowed per client address and per server process (None: no ceiling)."""

    per_address: int | None = SOCKETS_PER_ADDRESS
    per_server: int | None = SOCKETS_PER_SERVER

    @classmethod
    def from_environment(cls, environ: Mapping[str, str]) -> SocketLimits:
        return cls(_ceiling(environ, ADDRESS_SETTING, SOCKETS_PER_ADDRESS),
                   _ceiling(environ, SERVER_SETTING, SOCKETS_PER_SERVER))


def _ceiling(environ: Mapping[str, str], name: str, default: int) -> int | None:
    text = environ.get(name, "").strip().lower()
    if not text:
        return default
    if text in UNLIMITED:
        return None
    if not text.isdigit():
        raise BadSocketLimit(f"{name}={text!r}: a number of sockets (or 'none')")
    return int(text)


def from_address(ceiling: int) -> ApiProblem:
    return ApiProblem(429, "too_many_sockets",
                      f"Trop de connexions ouvertes depuis cette adresse ({ceiling} au plus) : ferme des onglets "
                      "ou réessaie plus tard.",
                      f"Too many open connections from this address ({ceiling} at most): close some tabs or try "
                      "again later.", limit="address")


def on_server(ceiling: int) -> ApiProblem:
    return ApiProblem(429, "too_many_sockets",
                      f"Ce serveur a toutes les connexions qu'il peut tenir ({ceiling}) : réessaie plus tard.",
                      f"This server holds all the connections it can ({ceiling}): try again later.", limit="server")


class OpenSockets:
    """This server's open sockets, per client address and in all."""

    def __init__(self, limits: SocketLimits) -> None:
        self.limits = limits
        self.by_address: dict[str, int] = {}
        self.total = 0

    def take(self, address: str) -> ApiProblem | None:
        """Count one more socket from ``address``, or say why it may not open (nothing counted then)."""
        per_address, per_server = self.limits.per_address, self.limits.per_server
        if per_server is not None and self.total >= per_server:
            return on_server(per_server)
        held = self.by_address.get(address, 0)
        if per_address is not None and held >= per_address:
            return from_address(per_address)
        self.by_address[address] = held + 1
        self.total += 1
        return None

    def give_back(self, address: str) -> None:
        """A socket counted by ``take`` has closed."""
        self.total -= 1
        held = self.by_address.pop(address) - 1
        if held:
            self.by_address[address] = held
