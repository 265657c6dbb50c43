"""Names other players see: normalised, free of invisible characters, and never a look-alike of
another account's username.

- NFKC first, so full-width, ligature and other compatibility forms become their plain letters
  ("Ａｄｍｉｎ" is "Admin").
- Refused: control characters (BEL ...), format characters (the bidi overrides such as U+202E,
  zero-width spaces and joiners), line/paragraph separators, private-use, unassigned code
  points — anything that shows nothing or reorders what others read.
- `skeleton` follows Unicode TR39: each character maps to the one it is confused with, from
  the whole of Unicode's confusables data (confusables.txt, as the confusable-homoglyphs package
  ships it), then case is folded, since usernames are unique regardless of case. Two usernames
  with one skeleton are refused (accounts.User.username_skeleton is unique).
"""

import functools
import hashlib
import unicodedata

from confusable_homoglyphs import confusables

# The user-visible characters that render as nothing or reorder text: Unicode categories
# Cc, Cf, Cs, Co, Cn (every "C"), Zl and Zp.
_INVISIBLE_CATEGORIES = {"Zl", "Zp"}
# The package wraps right-to-left characters in LEFT-TO-RIGHT MARKs, for display.
_DISPLAY_MARK = "\u200e"


@functools.cache
def _prototypes() -> dict[int, str]:
    """Each confusable character -> the prototype of its class, for str.translate.

    The package keeps confusables.txt as a symmetric graph (source <-> prototype). A prototype
    is never a source, so each class is a star around its prototype: the member linked to all
    the others, and the one of several characters when a source maps to a sequence ("m" ->
    "rn"). In a class of two single characters either serves; the smaller is taken.
    """
    links = {
        key.replace(_DISPLAY_MARK, ""): {entry["c"].replace(_DISPLAY_MARK, "") for entry in entries}
        for key, entries in confusables.confusables_data.items()
    }
    table: dict[int, str] = {}
    for member, linked in links.items():
        if len(member) != 1:
            continue  # a sequence is only ever a prototype
        if len(linked) == 1:
            (other,) = linked
            if len(links.get(other, ())) > 1 or len(other) > 1 or other < member:
                table[ord(member)] = other  # its prototype (or the pair's smaller member)
    return table


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
    """What the username looks like, as a fixed-length digest (for the unique index: a
    prototype may be several characters): equal skeletons are names a reader cannot tell
    apart."""
    mapped = unicodedata.normalize("NFD", unicodedata.normalize("NFKC", username)).translate(
        _prototypes()
    )
    folded = unicodedata.normalize("NFD", mapped).casefold()
    return hashlib.sha256(folded.encode()).hexdigest()
