"""Alembic migrations, shipped inside the wheel as ``mtgrules.migrations``."""
