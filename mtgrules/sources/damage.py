"""Damage left by scraping, flagged on a clause and never repaired."""

from __future__ import annotations

import re

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


# Cheap substring tests first: the regex runs on a few hundred of ~70,000 clauses.
_LOST_SYMBOL_HINTS = (
    "an or",
    "an in",
    "any in",
    "of is",
    "un ou",
    "un dans",
    "tout dans",
    "de est",
    "un o",
    "un en",
    " .",
    " ,",
)


def find_damage(text: str) -> list[str]:
    flags = []
    lower = text.lower()
    if any(h in lower for h in _LOST_SYMBOL_HINTS) and _LOST_SYMBOL.search(text):
        flags.append("lost-symbol")
    if ";" in text and _HTML_ENTITY.search(text):
        flags.append("html-entity")
    if "protected" in lower and _OBFUSCATED_EMAIL.search(text):
        flags.append("obfuscated-email")
    if "\ufffd" in text:
        flags.append("replacement-char")
    return flags
