"""Traditional <-> Simplified Chinese through OpenCC's offline tables (loaded lazily)."""

from __future__ import annotations

from functools import lru_cache

from .fold import pattern


@lru_cache(maxsize=4)
def _converter(config: str):
    import opencc  # heavy-ish: loads dictionaries, so only on first use

    return opencc.OpenCC(config)


def to_simplified(text: str) -> str:
    return _converter("t2s").convert(text)


def to_traditional(text: str) -> str:
    return _converter("s2t").convert(text)


def is_traditional(text: str) -> bool:
    """True when converting to Simplified changes more characters than converting to Traditional."""
    han = pattern("HAN").findall(text)
    if not han:
        return False
    sample = "".join(han[:400])
    changed_by_t2s = sum(a != b for a, b in zip(sample, to_simplified(sample), strict=False))
    changed_by_s2t = sum(a != b for a, b in zip(sample, to_traditional(sample), strict=False))
    return changed_by_t2s > changed_by_s2t
