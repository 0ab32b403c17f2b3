"""Every command against a real PostgreSQL server, given as --db postgresql://... (marker
`postgres`; needs MTGRULES_TEST_PG, see tests/conftest.py). The rest of the suite runs on
PostgreSQL too when MTGRULES_TEST_PG is set; these tests check what only a server shows."""

from __future__ import annotations

import json
import subprocess
import sys

import pytest
from sqlalchemy.engine import make_url

from mtgrules.store import open_store
from mtgrules.store.migrate import schema_differences

from .conftest import EXTRA, PG_URL, SEEDS, pg_create_database, pg_drop_database, run_cli

pytestmark = pytest.mark.postgres


@pytest.fixture
def pg_db():
    url = pg_create_database()
    yield url
    pg_drop_database(url)


def test_every_command_with_a_postgresql_url(pg_db: str) -> None:
    db = ["--db", pg_db]
    en_old, en_new = EXTRA / "cr-en-2019-10-04.txt", EXTRA / "cr-en-2026-01-16.txt"
    zh = EXTRA / "cr-zh-2026-01-16.txt"
    ingest = run_cli(*db, "ingest", "--json", str(SEEDS), str(en_old), str(en_new), str(zh))
    assert ingest.returncode == 0, ingest.stderr
    assert json.loads(ingest.stdout)["revision"] == 1
    commands = [
        ["editions", "--json"],
        ["show", "107.3", "--json"],
        ["history", "--json"],
        ["search", "--json", "mana"],
        ["search", "107.3g"],
        ["align", "107.3", "--json"],
        ["align", "--editions", "en-2019-10-04", "en-2026-01-16"],
        ["trace", "107.3g", "--format", "json"],
        ["drift", "107.3", "--format", "html"],
        ["diff", "en-2019-10-04", "en-2026-01-16", "--rule", "107.3", "--format", "md"],
        ["export", "tmx", "--target-lang", "zh", "--rule", "107.3"],
        ["show", "107.3", "--as-of", "1"],
    ]
    for args in commands:
        result = run_cli(*db, *args)
        assert result.returncode == 0, (args, result.stderr)
        assert result.stdout.strip(), args
    again = run_cli(*db, "ingest", "--json", str(SEEDS))
    assert json.loads(again.stdout)["revision"] is None


def test_postgres_scheme_alias_and_env_var(pg_db: str) -> None:
    # postgres:// (Heroku style) is accepted as well as postgresql://, via MTGRULES_DB too.
    alias = "postgres://" + pg_db.split("://", 1)[1]
    result = run_cli("ingest", str(SEEDS), db=alias)
    assert result.returncode == 0, result.stderr
    assert run_cli("history", db=pg_db).returncode == 0


def test_models_and_migrations_agree_on_postgresql(pg_db: str) -> None:
    engine = open_store(pg_db)
    try:
        assert schema_differences(engine) == []
    finally:
        engine.dispose()


def test_unreachable_server_is_one_clean_line_without_the_password() -> None:
    assert PG_URL is not None
    url = make_url(PG_URL).set(port=1, database="nope", password="s3cret-pw")
    result = run_cli("--db", url.render_as_string(hide_password=False), "editions")
    assert result.returncode == 4, result.stderr
    assert len(result.stderr.strip().splitlines()) == 1
    assert "Traceback" not in result.stderr
    assert "s3cret-pw" not in result.stderr  # the password never reaches a terminal or a log


def test_killed_client_releases_the_write_lock(pg_db: str) -> None:
    """A writer killed mid-ingest: the server rolls its transaction back and drops the
    advisory write lock with the connection, so the next ingest runs at once."""
    import os
    import signal
    import time

    env = {**os.environ, "MTGRULES_DB": pg_db}
    proc = subprocess.Popen(
        [sys.executable, "-m", "mtgrules.cli", "ingest", str(EXTRA / "cr-en-2026-01-16.txt")],
        env=env,
        stdout=subprocess.DEVNULL,
        stderr=subprocess.DEVNULL,
    )
    time.sleep(1.5)
    proc.send_signal(signal.SIGKILL)
    proc.wait()
    t0 = time.monotonic()
    done = run_cli("ingest", str(SEEDS), db=pg_db, timeout=120)
    assert done.returncode == 0, done.stderr
    assert time.monotonic() - t0 < 60
