"""Kadesh ai."""
