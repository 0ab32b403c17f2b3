"""Zip containers (a DOCX is one): their sizes checked from the central directory before
anything is unpacked, by detection (which looks inside) and by the DOCX extractor alike;
then unpacked by a streaming reader that counts the bytes it has really inflated and stops
at the limits, whatever the directory said."""

from __future__ import annotations

import zipfile
import zlib
from io import BytesIO

from ..errors import InputError

# A rules DOCX unpacks to about 5 MB (2026-01-16: 5.1 MB from 0.7 MB, 7:1). These limits are
# far above any real document and far below what would hurt the machine.
MAX_UNPACKED = 256 * 2**20
# One part: the Korean 2018 translation's word/document.xml, the largest real one, is 12 MB.
MAX_MEMBER = 64 * 2**20
MAX_MEMBERS = 10_000
# Unpacked size / packed size of one member, checked for members over 1 MiB: real DOCX
# parts compress 6:1 to 33:1 (the archive's and the Korean DOCX files).
MAX_RATIO = 100
_RATIO_FLOOR = 2**20
_CHUNK = 2**20


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
        if info.file_size > MAX_MEMBER:
            raise InputError(
                f"{where}: its zip directory says {info.filename} unpacks to "
                f"{info.file_size / 1e6:,.0f} MB (a zip bomb?); the largest part of a real rules "
                "document is about 12 MB. Refused without unpacking it."
            )
        if info.file_size > _RATIO_FLOOR and info.file_size > MAX_RATIO * max(
            info.compress_size, 1
        ):
            raise InputError(
                f"{where}: {info.filename} would unpack {info.file_size / max(info.compress_size, 1):,.0f} "
                f"times larger ({info.file_size / 1e6:,.0f} MB; a zip bomb?); real documents "
                "compress about 10 to 1. Refused without unpacking it."
            )


def unpack_members(data: bytes, where: str, wanted) -> dict[str, bytes]:
    """The members of the zip whose names ``wanted(name)`` accepts, unpacked.

    Each is read in chunks and the bytes really inflated are counted: past MAX_MEMBER for
    one member, MAX_UNPACKED for all, or MAX_RATIO times a member's packed size, reading
    stops and the file is refused. The central directory's sizes are checked first
    (check_zip_sizes), but a directory may lie; what is counted here cannot."""
    out: dict[str, bytes] = {}
    total = 0
    try:
        with zipfile.ZipFile(BytesIO(data)) as zf:
            for info in zf.infolist():
                if info.is_dir() or not wanted(info.filename):
                    continue
                chunks: list[bytes] = []
                size = 0
                with zf.open(info) as member:
                    while chunk := member.read(_CHUNK):
                        size += len(chunk)
                        total += len(chunk)
                        _check_inflated(info, size, total, len(data), where)
                        chunks.append(chunk)
                out[info.filename] = b"".join(chunks)
    except InputError:
        raise
    except EOFError:
        raise InputError(
            f"{where}: a damaged Word document (the file ends before its zip directory says "
            "it does); save it again."
        ) from None
    except (
        zipfile.BadZipFile,  # a CRC error: the bytes are not what the directory says
        zipfile.LargeZipFile,
        NotImplementedError,
        OSError,
        ValueError,
        zlib.error,
    ) as exc:
        raise InputError(f"{where}: a damaged Word document ({exc}); save it again.") from None
    return out


def _check_inflated(info: zipfile.ZipInfo, size: int, total: int, packed: int, where: str) -> None:
    if size > MAX_MEMBER:
        raise InputError(
            f"{where}: {info.filename} unpacks to more than {MAX_MEMBER // 2**20} MiB (a zip "
            "bomb?); the largest part of a real rules document is about 12 MB. Refused; "
            "unpacking stopped there."
        )
    if total > MAX_UNPACKED:
        raise InputError(
            f"{where}: unpacks to more than {MAX_UNPACKED // 2**20} MiB (a zip bomb?); a Word "
            "document of the rules unpacks to a few MB. Refused; unpacking stopped there."
        )
    # Against the member's packed size as the directory says it, and against the file's
    # own size, which no directory can misstate.
    member_ratio = size > _RATIO_FLOOR and size > MAX_RATIO * max(info.compress_size, 1)
    file_ratio = total > _RATIO_FLOOR and total > MAX_RATIO * max(packed, 1)
    if member_ratio or file_ratio:
        raise InputError(
            f"{where}: {info.filename} unpacks more than {MAX_RATIO} times larger than it is "
            f"packed ({total / 1e6:,.0f} MB so far; a zip bomb?); real documents compress "
            "about 10 to 1. Refused; unpacking stopped there."
        )
