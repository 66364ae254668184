"""Alembic migrations of the store, applied at start-up by ``kadesh.store.db.migrate``."""
