"""Kadesh server: the HTTP API, the WebSocket and the home page."""

from kadesh.server.app import create_app

__all__ = ["create_app"]
