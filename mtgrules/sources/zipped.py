"""Zip containers (a DOCX is one): their sizes checked from the central directory before
anything is unpacked, by detection (which looks inside) and by the DOCX extractor alike."""

from __future__ import annotations

import zipfile
from io import BytesIO

from ..errors import InputError

# A rules DOCX unpacks to about 5 MB (2026-01-16: 5.1 MB from 0.7 MB, 7:1). These limits are
# far above any real document and far below what would hurt the machine.
MAX_UNPACKED = 256 * 2**20
MAX_MEMBERS = 10_000
MAX_RATIO = 200  # unpacked size / packed size of one member, checked for members over 1 MiB
_RATIO_FLOOR = 2**20


def check_zip_sizes(data: bytes, where: str) -> None:
    """Refuse a zip whose central directory promises too much, before unpacking anything.

    Python's zipfile never returns more bytes for a member than the directory says (it stops
    and reports a CRC error), so these sizes really bound what reading can produce."""
    try:
        with zipfile.ZipFile(BytesIO(data)) as zf:
            infos = zf.infolist()
    except (
        zipfile.BadZipFile,
        zipfile.LargeZipFile,
        NotImplementedError,  # "zip file version 18.5": a damaged header
        OSError,
        EOFError,
        ValueError,
    ) as exc:
        raise InputError(f"{where}: a damaged Word document ({exc}); save it again.") from None
    if len(infos) > MAX_MEMBERS:
        raise InputError(
            f"{where}: the zip holds {len(infos):,} files; a Word document holds a few dozen. "
            "Refused without unpacking it."
        )
    total = sum(i.file_size for i in infos)
    if total > MAX_UNPACKED:
        raise InputError(
            f"{where}: its zip directory says it unpacks to {total / 1e6:,.0f} MB from "
            f"{len(data) / 1e6:,.1f} MB (a zip bomb?); a Word document of the rules unpacks to "
            "a few MB. Refused without unpacking it."
        )
    for info in infos:
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise InputError(
                f"{where}: {info.filename} would unpack {info.file_size / max(info.compress_size, 1):,.0f} "
                f"times larger ({info.file_size / 1e6:,.0f} MB; a zip bomb?); real documents "
                "compress about 10 to 1. Refused without unpacking it."
            )
