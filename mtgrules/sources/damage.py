"""Damage left by scraping, flagged on a clause and never repaired."""

from __future__ import annotations

import re
from functools import lru_cache

# Mana symbols such as {X} were images on the scraped pages and vanished, leaving
# grammar that no edition ever printed: "with an or an X", "un ou un X", "any in its".
_LOST_SYMBOL = re.compile(
    "|".join(
        f"(?:{p})"
        for p in (
            r"\ban (?:or|in)\b",
            r"\bany in its\b",
            r"\bof is\b",
            r"\bun (?:ou|dans)\b",
            r"\btout dans\b",
            r"\bde est\b",
            r"\bun (?:o|en)\b",
            r"\bincluant ,",
            # "costs ." / "costs ," where a symbol stood; not the ". . ." of quoted templates
            r"\w \.(?! \.)(?:\s|$)",
            r"\w ,",
        )
    ),
    re.I,
)
_HTML_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#\d+);|(?<![&\w])(?:amp|quot|nbsp);")
_OBFUSCATED_EMAIL = re.compile(r"\[email\W{0,3}protected\]", re.I)


# A cheap pre-test first (one regex pass, no word boundaries): the full pattern then runs on
# a few hundred of ~70,000 clauses.
# (On lower-cased text: re.I makes the scan several times slower.)
_LOST_SYMBOL_HINT = re.compile(r"an (?:or|in)|any in|of is|un (?:o|dans|en)|tout dans|de est| [.,]")


def find_damage(text: str) -> list[str]:
    """The damage flags of ``text`` (a new list: callers extend it)."""
    return list(_damage(text))


# Cached for the same reason as text.normalize.normalize_text: texts repeat across editions.
@lru_cache(maxsize=65536)
def _damage(text: str) -> tuple[str, ...]:
    flags: list[str] = []
    if _LOST_SYMBOL_HINT.search(text.lower()) and _LOST_SYMBOL.search(text):
        flags.append("lost-symbol")
    if ";" in text and _HTML_ENTITY.search(text):
        flags.append("html-entity")
    if "[" in text and _OBFUSCATED_EMAIL.search(text):
        flags.append("obfuscated-email")
    if "\ufffd" in text:
        flags.append("replacement-char")
    return tuple(flags)
