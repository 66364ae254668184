"""Kadesh store."""
