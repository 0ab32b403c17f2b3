"""The one terminal sanitiser: what rule text (or a file name, or an edition name) may put
on a terminal.

A rules file is someone else's text. Printed raw, an ESC sequence in it can set the window
title (OSC 0), write the clipboard (OSC 52), move the cursor or hide text (CSI), and a bidi
override can make "107.3" read as "3.701". Every text written to a terminal goes through
``visible`` (cli.py does it for every line it prints; the text renderers do it to the data
before they add their own colour): each control character becomes a visible escape such as
``\\x1b`` or ``\\u202e``, so the rest of a sequence (``]0;title``) prints as plain text.
JSON output needs none of this: json.dumps escapes controls itself, and a JSON reader wants
the text as it is.
"""

from __future__ import annotations

import re
from collections.abc import Callable
from typing import Any

# C0 controls but newline and tab (the renderers' own layout), DEL, C1 controls; the bidi
# embeddings, overrides and isolates, the marks (LRM, RLM, ALM); the line and paragraph
# separators (a terminal may break a line there, so they would fake a layout); the
# interlinear annotation characters.
UNSAFE_CLASS = (
    "\x00-\x08\x0b-\x1f\x7f-\x9f"
    "\u061c\u200e\u200f\u202a-\u202e\u2066-\u2069"
    "\u2028\u2029\ufff9-\ufffb"
)
UNSAFE = re.compile(f"[{UNSAFE_CLASS}]")
# Characters that print as nothing, which a copy from a web page or a chat brings along:
# zero-width space, non-joiner and joiner, word joiner, invisible operators, byte-order mark,
# soft hyphen. Harmless in rules text (none of the corpus's texts holds one past a file's
# first byte), but in an error message that quotes what the user typed they hide why
# '107.3' was not found: there they are shown as escapes (``visible_input``).
INVISIBLE_CLASS = "\u00ad\u200b-\u200d\u2060-\u2064\ufeff"
INVISIBLE = re.compile(f"[{INVISIBLE_CLASS}]")


def _escape(match: re.Match[str]) -> str:
    code = ord(match.group())
    return f"\\x{code:02x}" if code < 0x100 else f"\\u{code:04x}"


def visible(text: str) -> str:
    """``text`` with every control, ESC and bidi character shown as a visible escape."""
    if not UNSAFE.search(text):
        return text
    return UNSAFE.sub(_escape, text)


def visible_input(text: str) -> str:
    """``visible``, and the invisible characters escaped too: for a message quoting what a
    user typed ("no edition 'en-2026\\u200b-01-16'")."""
    return INVISIBLE.sub(_escape, visible(text))


def has_unsafe(text: str) -> bool:
    return UNSAFE.search(text) is not None


def visible_tree(data: Any, clean: Callable[[str], str] = visible) -> Any:
    """The same JSON-like structure (dicts, lists, strings...) with every string made
    visible: what a text renderer receives, so it can add its own colour codes after."""
    if isinstance(data, str):
        return clean(data)
    if isinstance(data, dict):
        return {k: visible_tree(v, clean) for k, v in data.items()}
    if isinstance(data, list | tuple):
        return [visible_tree(v, clean) for v in data]
    return data
