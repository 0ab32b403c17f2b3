"""Damage left by scraping, flagged on a clause and never repaired."""

from __future__ import annotations

import re

# Mana symbols such as {X} were images on the scraped pages and vanished, leaving
# grammar that no edition ever printed: "with an or an X", "un ou un X", "any in its".
_LOST_SYMBOL = [
    re.compile(p, re.I)
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
]
_HTML_ENTITY = re.compile(r"&(?:amp|lt|gt|quot|apos|nbsp|#\d+);|(?<![&\w])(?:amp|quot|nbsp);")
_OBFUSCATED_EMAIL = re.compile(r"\[email\W{0,3}protected\]", re.I)


def find_damage(text: str) -> list[str]:
    flags = []
    if any(p.search(text) for p in _LOST_SYMBOL):
        flags.append("lost-symbol")
    if _HTML_ENTITY.search(text):
        flags.append("html-entity")
    if _OBFUSCATED_EMAIL.search(text):
        flags.append("obfuscated-email")
    if "\ufffd" in text:
        flags.append("replacement-char")
    return flags
