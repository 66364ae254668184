"""Kadesh envs."""
