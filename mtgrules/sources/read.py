"""Step 1 of intake: a file's bytes, read once and bounded (refused from its size first)."""

from __future__ import annotations

import stat
from pathlib import Path

from ..errors import InputError
from .formats import MAX_BYTES


def _too_big(where: str, size: int) -> InputError:
    return InputError(
        f"{where}: {size / 1e6:.0f} MB is over the {MAX_BYTES // 2**20} MiB limit for one "
        "source file; split it into editions."
    )


def read_bytes(path: Path) -> bytes:
    """The bytes of the file at ``path``, bounded: refused from its size before it is read."""
    where = str(path)
    try:
        st = path.stat()
        if stat.S_ISDIR(st.st_mode):
            raise IsADirectoryError
        # A device, FIFO or /proc file has no honest size and may never end.
        if not stat.S_ISREG(st.st_mode):
            raise InputError(f"{where}: not a regular file; give a file of rules text.")
        size = st.st_size
        if size > MAX_BYTES:
            raise _too_big(where, size)
        with path.open("rb") as fh:
            # Bounded even if the file grows while it is read.
            data = fh.read(MAX_BYTES + 1)
        if len(data) > MAX_BYTES:
            raise _too_big(where, len(data))
    except FileNotFoundError:
        raise InputError(f"{where}: no such file.") from None
    except IsADirectoryError:
        raise InputError(f"{where}: is a folder, not a file.") from None
    except PermissionError:
        raise InputError(f"{where}: permission denied; check the file's permissions.") from None
    except OSError as exc:
        raise InputError(f"{where}: cannot be read ({exc.strerror}).") from None
    return data
