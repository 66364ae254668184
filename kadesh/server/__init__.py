"""Kadesh server."""
