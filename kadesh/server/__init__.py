"""Kadesh server: the HTTP API, the WebSocket and the home page (``kadesh.server.app.create_app``), and the
worker processes (``kadesh.server.worker``).

The package itself imports nothing: a worker process starts without loading the web application."""
