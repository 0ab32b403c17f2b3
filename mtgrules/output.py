"""Output files: where a command may write, and writing so that a failure loses nothing.

Every file a command writes (a report's ``-o``, a TMX, an XLIFF job) goes through here:

- ``check_outputs`` refuses, before any work is done, an output path that is the store (or
  its ``-wal``/``-shm``/``-journal`` companion), one of the command's inputs, or another
  output of the same command. Paths are compared as the files they are (symlinks resolved,
  hard links by device and inode), not as the strings typed.
- ``write_file`` writes the bytes to a temporary file in the destination's folder, flushes
  it to disk and renames it over the destination. A full disk, a file-size limit or a kill
  half-way leaves the previous file whole, and no reader ever sees half a file.
"""

from __future__ import annotations

import os
import tempfile
from collections.abc import Iterable, Sequence
from pathlib import Path

from .errors import InputError

# The files SQLite keeps beside a store: writing over them corrupts it as surely as
# writing over the store itself.
STORE_COMPANIONS = ("", "-wal", "-shm", "-journal")


def real_path(path: Path) -> Path:
    """The file a path names: symlinks resolved (a missing file's folder too), ~ expanded."""
    return Path(os.path.realpath(path.expanduser()))


def _identity(path: Path) -> tuple[Path, tuple[int, int] | None]:
    real = real_path(path)
    try:
        st = real.stat()
    except OSError:
        return real, None
    return real, (st.st_dev, st.st_ino)


def _same_file(a: tuple[Path, tuple[int, int] | None], b: tuple[Path, tuple[int, int] | None]):
    return a[0] == b[0] or (a[1] is not None and a[1] == b[1])


def check_outputs(
    outputs: Sequence[tuple[str, Path | None]],
    *,
    store: Path | None = None,
    inputs: Iterable[Path] = (),
) -> None:
    """Refuse outputs that would overwrite the store, an input, or each other.

    ``outputs`` are (option, path) pairs such as ("-o", Path("job.xlf")); None entries (an
    option not given) are ignored. ``store`` is the SQLite file of the store, if it is one.
    """
    given = [(opt, p) for opt, p in outputs if p is not None]
    guarded: list[tuple[str, tuple[Path, tuple[int, int] | None]]] = []
    if store is not None:
        for suffix in STORE_COMPANIONS:
            what = f"the store's {suffix} file" if suffix else "the store"
            guarded.append((what, _identity(Path(f"{store}{suffix}"))))
    for path in inputs:
        guarded.append((f"the input {path}", _identity(path)))
    seen: list[tuple[str, Path, tuple[Path, tuple[int, int] | None]]] = []
    for opt, path in given:
        me = _identity(path)
        for what, other in guarded:
            if _same_file(me, other):
                raise InputError(
                    f"{opt} {path} is {what}; writing there would destroy it. "
                    f"Give {opt} another file name."
                )
        for other_opt, other_path, other in seen:
            if _same_file(me, other):
                raise InputError(
                    f"{other_opt} {other_path} and {opt} {path} are the same file; "
                    "one would overwrite the other. Give them different names."
                )
        seen.append((opt, path, me))
        _check_folder(opt, path)


def _check_folder(opt: str, path: Path) -> None:
    """The output's folder exists and is a folder: found before the work, not after it
    (a typo in -o's folder once cost a whole report's run, then blamed the disk)."""
    folder = real_path(path).parent
    if not folder.exists():
        raise InputError(
            f"{opt} {path}: the folder {folder} does not exist; create it first or give "
            f"{opt} a file in an existing folder."
        )
    if not folder.is_dir():
        raise InputError(f"{opt} {path}: {folder} is not a folder; give {opt} another path.")


def write_file(path: Path, data: str | bytes) -> None:
    """Write ``data`` (text as UTF-8) to ``path`` atomically (see ``write_files``)."""
    write_files([(path, data)])


def write_files(files: Sequence[tuple[Path, str | bytes]]) -> None:
    """Write each file atomically, and the set of them as one: every file goes to a
    temporary file in its destination's folder and is flushed to disk; only when all are
    written are they renamed into place. On a failure (a full disk, a file-size limit) the
    temporary files are removed, every previous file is left as it was, and an InputError
    says why: an XLIFF job never ends up beside the translation memory of another run."""
    staged: list[tuple[Path, Path, Path]] = []  # (as given, real destination, temporary)
    current: Path | None = None  # the file being written, for the message
    try:
        for current, data in files:
            raw = data.encode("utf-8") if isinstance(data, str) else data
            # Through a symlink: the file it points to is replaced; the link stays a link.
            target = real_path(current)
            staged.append((current, target, _write_aside(target, raw)))
        for given, target, tmp in staged:
            current = given
            os.replace(tmp, target)
    except OSError as exc:
        kept = " (the previous file is unchanged)" if current and current.exists() else ""
        raise InputError(
            f"cannot write {current}: {exc.strerror or exc}{kept}; {_what_to_do(exc)}"
        ) from None
    finally:
        for _path, _target, tmp in staged:
            tmp.unlink(missing_ok=True)  # already renamed on success: nothing to remove


def _what_to_do(exc: OSError) -> str:
    """The next step for a failed write, by its cause: space only when space ran out."""
    import errno

    if exc.errno in (errno.ENOSPC, errno.EDQUOT, errno.EFBIG):
        return "free some space or choose another output path"
    if exc.errno == errno.ENOENT:
        return "create its folder first or choose another output path"
    return "choose another output path"


def _write_aside(target: Path, raw: bytes) -> Path:
    """The bytes in a new temporary file beside ``target``, flushed, with the permissions
    the destination will need."""
    fd, name = tempfile.mkstemp(prefix=f".{target.name}.", suffix=".tmp", dir=target.parent)
    tmp = Path(name)
    try:
        with os.fdopen(fd, "wb") as f:
            f.write(raw)
            f.flush()
            os.fsync(f.fileno())
        os.chmod(tmp, _mode_for(target))
    except BaseException:
        tmp.unlink(missing_ok=True)
        raise
    return tmp


def _mode_for(target: Path) -> int:
    """The permissions of the file being replaced, else what a plain open() would give
    (mkstemp's 0600 would surprise a user sharing a report)."""
    try:
        return target.stat().st_mode & 0o7777
    except OSError:
        umask = os.umask(0)
        os.umask(umask)
        return 0o666 & ~umask
