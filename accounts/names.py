"""Names other players see: normalised, free of invisible characters, and never a look-alike of
another account's username.

- NFKC first, so full-width, ligature and other compatibility forms become their plain letters
  ("Ａｄｍｉｎ" is "Admin").
- Refused: control characters (BEL ...), format characters (the bidi overrides such as U+202E,
  zero-width spaces and joiners), line/paragraph separators, private-use, unassigned code
  points — anything that shows nothing or reorders what others read.
- `skeleton` follows Unicode TR39: each character maps to the one it is confused with (a small
  map of the Cyrillic and Greek letters that look Latin, and 0/1/I), then case is folded, since
  usernames are unique regardless of case. Two usernames with one skeleton are refused
  (accounts.User.username_skeleton is unique).
"""

import unicodedata

# The user-visible characters that render as nothing or reorder text: Unicode categories
# Cc, Cf, Cs, Co, Cn (every "C"), Zl and Zp.
_INVISIBLE_CATEGORIES = {"Zl", "Zp"}

# Look-alikes of Latin letters (TR39 confusables.txt, the Cyrillic, Greek and digit entries
# whose prototype is a Latin letter), applied before case folding.
_CONFUSABLES = str.maketrans(
    {
        # Cyrillic capitals and small letters
        "А": "A", "В": "B", "Е": "E", "К": "K", "М": "M", "Н": "H", "О": "O", "Р": "P",
        "С": "C", "Т": "T", "Х": "X", "У": "Y", "І": "l", "Ј": "J", "Ѕ": "S", "Ԛ": "Q",
        "Ԝ": "W", "Ү": "Y", "Һ": "h", "Ӏ": "l",
        "а": "a", "е": "e", "о": "o", "р": "p", "с": "c", "у": "y", "х": "x", "і": "i",
        "ј": "j", "ѕ": "s", "ԁ": "d", "ԛ": "q", "ԝ": "w", "һ": "h", "ӏ": "l", "ү": "y",
        "ь": "b", "ɡ": "g",
        # Greek capitals and small letters
        "Α": "A", "Β": "B", "Ε": "E", "Ζ": "Z", "Η": "H", "Ι": "l", "Κ": "K", "Μ": "M",
        "Ν": "N", "Ο": "O", "Ρ": "P", "Τ": "T", "Υ": "Y", "Χ": "X",
        "α": "a", "ο": "o", "ν": "v", "ρ": "p", "ι": "i", "κ": "k", "χ": "x", "υ": "u",
        "γ": "y",
        # Digits and the Latin capital I, which read as letters
        "0": "O", "1": "l", "I": "l",
    }
)  # fmt: skip


class NameRefused(ValueError):
    """The name holds a character others could not see as it is meant."""


def normalised(name: str) -> str:
    """NFKC with outer whitespace stripped; NameRefused for an invisible or reordering
    character."""
    name = unicodedata.normalize("NFKC", name).strip()
    for character in name:
        category = unicodedata.category(character)
        if category.startswith("C") or category in _INVISIBLE_CATEGORIES:
            raise NameRefused(f"U+{ord(character):04X}")
    return name


def skeleton(username: str) -> str:
    """What the username looks like: equal skeletons are names a reader cannot tell apart."""
    mapped = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", username)).translate(
        _CONFUSABLES
    )
    return unicodedata.normalize("NFD", mapped).casefold()
