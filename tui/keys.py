"""Key names as Textual reads them: which names are keys, and which bindings clash.

A key is ``[modifier+]…name``: the modifiers ``ctrl``, ``shift``, ``alt``, ``meta``, ``super``,
``hyper``, and a name Textual gives a key event: one character a keyboard types (``f``, ``G``,
``é``, ``?``), or a named key (``escape``, ``pagedown``, ``f5``, ``question_mark``). Textual
accepts any string as a binding, so a misspelt name (``"notakey"``, ``"ctrl+"``, an emoji) would
bind nothing: a dead key. ``normalise_key`` says so before the app starts.
"""

from __future__ import annotations

import string
import unicodedata
from collections.abc import Iterable, Mapping

from textual.keys import ASCII_KEY_NAMES, KEY_NAME_REPLACEMENTS, Keys, key_to_character

MODIFIERS = ("ctrl", "shift", "alt", "meta", "super", "hyper")


def character_key(character: str) -> str:
    """The name Textual gives the key event of a typed character: itself for a letter or a
    digit, else its Unicode name (``?`` → ``question_mark``, ``€`` → ``euro_sign``), as
    Textual's public ``ASCII_KEY_NAMES`` and ``KEY_NAME_REPLACEMENTS`` make it. (Textual's
    own function for it is private; ``tests/tui/test_config.py`` checks this one gives what
    it gives, for every character a keyboard types.)"""
    if character.isalnum():
        key = character
    else:
        try:
            key = unicodedata.name(character).lower().replace("-", "_").replace(" ", "_")
        except ValueError:  # a character without a name (a control)
            key = ASCII_KEY_NAMES.get(character, character)
    return KEY_NAME_REPLACEMENTS.get(key, key)


#: Keys with a name rather than a character: ``escape``, ``f5``, ``pagedown``, ``question_mark``.
NAMED_KEYS = frozenset(
    {
        name
        for key in Keys
        if not key.value.startswith("<")
        for name in (key.value.rsplit("+", 1)[-1],)
        if len(name) > 1 and "-" not in name
    }
    | {character_key(ch) for ch in string.punctuation}
)


def _typable(ch: str) -> bool:
    """True for a character a keyboard types as one key: a letter, digit, mark or symbol."""
    category = unicodedata.category(ch)
    if category[0] not in "LNPS":  # controls, formats, separators, combining marks, unassigned
        return False
    # Pictographs and emoji (U+2000 on): no keyboard has them as a key.
    return not (category == "So" and ord(ch) >= 0x2000)


def normalise_key(key: str) -> str | None:
    """``key`` as Textual names its key event (``ctrl+F`` → ``ctrl+f``, ``?`` →
    ``question_mark``), or None when no key press is ever named so."""
    *modifiers, name = key.strip().split("+")
    modifiers = [m.lower() for m in modifiers]
    if any(m not in MODIFIERS for m in modifiers) or len(set(modifiers)) < len(modifiers):
        return None
    if len(name) == 1:
        if not _typable(name):
            return None
        name = character_key(name)
        if modifiers and name.isalpha():  # ctrl+F is ctrl+f: terminals send no case with ctrl
            name = name.lower()
    elif name.lower() in NAMED_KEYS:
        name = name.lower()
    else:  # a character by its name, as Textual names keys beyond ASCII ("euro_sign")
        character = key_to_character(name)
        if not character or not _typable(character) or character_key(character) != name:
            return None
    return "+".join([*modifiers, name])


def clashes(keys_by_command: Mapping[str, Iterable[str]]) -> dict[str, list[str]]:
    """The keys bound to more than one of these commands: key → the commands, in order."""
    owners: dict[str, list[str]] = {}
    for command, keys in keys_by_command.items():
        for key in dict.fromkeys(keys):
            owners.setdefault(key, []).append(command)
    return {key: names for key, names in owners.items() if len(names) > 1}


#: Named keys whose press a text field takes as a character it types (``question_mark``).
_TYPED_NAMES = frozenset({character_key(ch) for ch in string.punctuation} | {"space"})


def typed_in_field(key: str) -> bool:
    """Whether a text field (the search box) takes ``key`` as a character it types, so that
    no binding but a priority one sees it there: ``x``, ``G``, ``?``, ``space``, ``é``, not
    ``ctrl+x``, ``escape`` or ``f5``."""
    *modifiers, name = (normalise_key(key) or key).split("+")
    if any(modifier != "shift" for modifier in modifiers):
        return False
    if len(name) == 1 or name in _TYPED_NAMES:
        return True
    character = key_to_character(name)
    return character is not None and len(character) == 1 and _typable(character)
