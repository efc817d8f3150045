"""Learner-controlled text made safe to show next to the grader's own words.

A learner's exception message, a value's repr or a printed line can carry control characters, NULs,
right-to-left overrides or zero-width characters that reorder or hide what a reader sees. ``neutral``
shows each of them as a visible ``\\uXXXX`` escape; line breaks and tabs stay.
"""

from __future__ import annotations

import unicodedata

KEEP = {"\n", "\t"}


def neutral(text: str) -> str:
    """``text`` with control (Cc), format (Cf: bidi overrides, zero-width), separator (Zl, Zp), surrogate
    and private-use characters written as ``\\uXXXX``."""
    if text.replace("\n", "").replace("\t", "").isprintable():  # no Cc, Cf, Z*, Cs, Co or Cn character (but " ")
        return text
    out = []
    for ch in text:
        if ch not in KEEP and unicodedata.category(ch) in ("Cc", "Cf", "Zl", "Zp", "Cs", "Co", "Cn"):
            out.append(f"\\u{ord(ch):04x}" if ord(ch) <= 0xFFFF else f"\\U{ord(ch):08x}")
        else:
            out.append(ch)
    return "".join(out)
