"""Output files never destroy data: an output naming the store, an input or another output
of the same command is refused before any work, and every file is written aside and renamed
into place, so a full disk or a file-size limit leaves the previous good file whole.

Each refused command is run as a user runs it (a real process on a real store holding the
bundled corpus), and the store's bytes and table counts are compared before and after.
"""

from __future__ import annotations

import hashlib
import os
import stat
import subprocess
import sys
from pathlib import Path

import pytest

from mtgrules.errors import InputError
from mtgrules.output import check_outputs, write_file, write_files

from .conftest import run_cli, table_counts


def sha(path: Path) -> str:
    return hashlib.sha256(path.read_bytes()).hexdigest()


# Every command that writes a file, with {out} where its output path goes.
WRITERS = [
    ["drift", "107.3", "--format", "html", "-o", "{out}"],
    ["update", "zh-Hans-2022-06-10", "-o", "{out}"],
    ["diff", "en-2009-05-01", "en-2009-07-11", "-o", "{out}"],
    ["trace", "107.3", "--format", "json", "-o", "{out}"],
    ["export", "tmx", "--target-lang", "fr", "-o", "{out}"],
    ["export", "xliff", "zh-Hans-2022-06-10", "-o", "{out}"],
    ["export", "xliff", "zh-Hans-2022-06-10", "-o", "job.xlf", "--tmx", "{out}"],
]

# Ways of naming the store's file as an output: (how, the path given, the --db given).
STORE_NAMES = [
    ("the same path", lambda st: st, lambda st: str(st)),
    ("its -wal file", lambda st: Path(f"{st}-wal"), lambda st: str(st)),
    ("a relative path with ..", lambda st: Path("sub/../store.sqlite"), lambda st: str(st)),
    ("a symlink to it", lambda st: st.parent / "link.html", lambda st: str(st)),
    ("a hard link to it", lambda st: st.parent / "hard.html", lambda st: str(st)),
    ("the store named by URL", lambda st: st, lambda st: f"sqlite:///{st}"),
]


@pytest.mark.sqlite_only  # a store that is a file, which an output could overwrite
@pytest.mark.parametrize("how, out_of, db_of", STORE_NAMES, ids=[s[0] for s in STORE_NAMES])
@pytest.mark.parametrize("command", WRITERS, ids=[" ".join(c[:2]) for c in WRITERS])
def test_an_output_naming_the_store_is_refused_and_the_store_kept(
    store_copy: Path, command: list[str], how: str, out_of, db_of
) -> None:
    folder = store_copy.parent
    (folder / "sub").mkdir()
    (folder / "link.html").symlink_to(store_copy)
    os.link(store_copy, folder / "hard.html")
    before_bytes, before_counts = sha(store_copy), table_counts(store_copy)
    out = out_of(store_copy)
    args = [a.replace("{out}", str(out)) for a in command]
    proc = run_cli("--db", db_of(store_copy), *args, cwd=folder, timeout=120)
    assert proc.returncode == 2, (how, proc.stderr)
    line = proc.stderr.strip()
    assert "\n" not in line and "the store" in line and "destroy" in line, line
    assert sha(store_copy) == before_bytes
    assert table_counts(store_copy) == before_counts
    assert (folder / "link.html").is_symlink()


# An output whose folder is missing or is a file: refused before the work is done. Before,
# the report was computed, then "No such file or directory; free some space".
BAD_FOLDERS = [
    ("a missing folder", "no-such-folder/deeper/out.html", "does not exist"),
    ("a file as its folder", "store.sqlite/out.html", "is not a folder"),
]


@pytest.mark.sqlite_only  # the store's file stands in for "a file as its folder"
@pytest.mark.parametrize("how, out, message", BAD_FOLDERS, ids=[b[0] for b in BAD_FOLDERS])
@pytest.mark.parametrize("command", WRITERS, ids=[" ".join(c[:2]) for c in WRITERS])
def test_an_output_in_no_folder_is_refused_first(
    store_copy: Path, command: list[str], how: str, out: str, message: str
) -> None:
    folder = store_copy.parent
    before = sorted(p.name for p in folder.iterdir())
    args = [a.replace("{out}", out) for a in command]
    proc = run_cli("--db", str(store_copy), *args, cwd=folder, timeout=120)
    assert proc.returncode == 2, (how, proc.stderr)
    line = proc.stderr.strip()
    assert "\n" not in line and message in line and "space" not in line, line
    assert sorted(p.name for p in folder.iterdir()) == before


# export xliff writes two files: each must not be the other.
SELF_OVERWRITES = [
    ("-o names the TMX that goes beside it", ["-o", "job.tmx"]),
    ("-o and --tmx the same file", ["-o", "k.xlf", "--tmx", "k.xlf"]),
    ("-o and --tmx the same file by two paths", ["-o", "k.xlf", "--tmx", "sub/../k.xlf"]),
]


@pytest.mark.parametrize("why, options", SELF_OVERWRITES, ids=[s[0] for s in SELF_OVERWRITES])
def test_export_xliff_never_writes_its_memory_over_its_job(
    corpus_db: Path, tmp_path: Path, why: str, options: list[str]
) -> None:
    (tmp_path / "sub").mkdir()
    before = table_counts(corpus_db)
    proc = run_cli(
        "--db", str(corpus_db), "export", "xliff", "zh-Hans-2022-06-10", *options, cwd=tmp_path
    )
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip()
    assert "\n" not in line and "same file" in line, line
    assert sorted(p.name for p in tmp_path.iterdir()) == ["sub"]  # nothing written
    assert table_counts(corpus_db) == before


def test_an_output_naming_an_input_is_refused(tmp_path: Path) -> None:
    source = tmp_path / "rules.txt"
    source.write_text("100.1. These Magic rules apply to any Magic game.\n", encoding="utf-8")
    with pytest.raises(InputError, match="the input"):
        check_outputs([("-o", tmp_path / "." / "rules.txt")], inputs=[source])
    check_outputs([("-o", tmp_path / "report.html")], inputs=[source])  # another file: fine


# --- atomic writes: the previous good file survives any failure ---------------------------

_FSIZE_LIMITED = """
import resource, subprocess, sys
limit = int(sys.argv[1])
def cap():
    resource.setrlimit(resource.RLIMIT_FSIZE, (limit, limit))
sys.exit(subprocess.run([sys.executable, "-m", "mtgrules.cli", *sys.argv[2:]],
                        preexec_fn=cap).returncode)
"""


@pytest.mark.sqlite_only  # the limit would also stop SQLite's writes, not a server's
def test_a_file_size_limit_mid_write_leaves_the_previous_job_whole(
    store_copy: Path, tmp_path: Path
) -> None:
    """The failure issue 17 found: EFBIG half-way through `export xliff -o` left a truncated,
    ill-formed file in place of the previous good one. The XLIFF and its TMX are written as
    a pair: both previous files stay, and no temporary file is left behind."""
    out = tmp_path / "out"
    out.mkdir()
    args = ["--db", str(store_copy), "export", "xliff", "zh-Hans-2022-06-10"]
    first = run_cli(*args, "-o", str(out / "job.xlf"))
    assert first.returncode == 0, first.stderr
    good = {p.name: sha(p) for p in out.iterdir()}
    assert set(good) == {"job.xlf", "job.tmx"}
    size = (out / "job.xlf").stat().st_size
    counts = table_counts(store_copy)
    # Room for the store's own small files (-shm is 32 KiB), not for the job.
    limit = 256 * 1024
    assert size > limit
    proc = subprocess.run(
        # The same job again: only its timestamps differ, and nothing needs storing.
        [sys.executable, "-c", _FSIZE_LIMITED, str(limit), *args, "-o", str(out / "job.xlf")],
        capture_output=True,
        text=True,
        env={**os.environ, "NO_COLOR": "1"},
        timeout=300,
    )
    assert proc.returncode == 2, proc.stderr
    line = proc.stderr.strip().splitlines()[-1]
    assert "File too large" in line and "previous file is unchanged" in line, line
    assert {p.name: sha(p) for p in out.iterdir()} == good
    assert table_counts(store_copy) == counts


def test_write_replaces_through_a_symlink_and_keeps_permissions(tmp_path: Path) -> None:
    real = tmp_path / "reports" / "drift.html"
    real.parent.mkdir()
    real.write_text("old", encoding="utf-8")
    real.chmod(0o640)
    link = tmp_path / "latest.html"
    link.symlink_to(real)
    write_file(link, "new ✓")
    assert link.is_symlink() and real.read_text(encoding="utf-8") == "new ✓"
    assert stat.S_IMODE(real.stat().st_mode) == 0o640
    fresh = tmp_path / "fresh.html"
    write_file(fresh, b"x")
    umask = os.umask(0)
    os.umask(umask)
    assert stat.S_IMODE(fresh.stat().st_mode) == 0o666 & ~umask  # not mkstemp's 0600
    assert sorted(p.name for p in tmp_path.iterdir()) == ["fresh.html", "latest.html", "reports"]


def test_a_pair_of_files_is_written_both_or_neither(tmp_path: Path) -> None:
    """The second file cannot be written (its folder is gone): the first keeps its old
    bytes, and no temporary file stays behind."""
    first = tmp_path / "job.xlf"
    first.write_text("previous job", encoding="utf-8")
    with pytest.raises(InputError, match="cannot write"):
        write_files([(first, "new job"), (tmp_path / "missing" / "job.tmx", "new memory")])
    assert first.read_text(encoding="utf-8") == "previous job"
    assert sorted(p.name for p in tmp_path.iterdir()) == ["job.xlf"]


@pytest.mark.skipif(os.geteuid() == 0, reason="root may write to any folder")
def test_an_unwritable_folder_is_one_line(tmp_path: Path) -> None:
    folder = tmp_path / "ro"
    folder.mkdir()
    folder.chmod(0o500)
    try:
        with pytest.raises(InputError, match="Permission denied"):
            write_file(folder / "x.html", "x")
    finally:
        folder.chmod(0o700)
