"""Textual's private names: used by one module only, each as the pinned Textual has it."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import textwrap
from importlib.metadata import version
from pathlib import Path

from tui import keys

ROOT = Path(__file__).resolve().parents[2]
#: A private Textual module, a private name imported from Textual, or the Textual internals
#: the app once reached into (the screen's timer, the styles cache, Timer._run).
PRIVATE = re.compile(
    r"textual(\.[a-z_]+)*\._[a-z]|from textual[a-z_.]* import [^#]*\b_[a-z]"
    r"|\b_update_timer\b|\b_styles_cache\b|Timer\._run|\b_border_(sub)?title\b"
)


def test_the_private_textual_code_used_is_what_it_was() -> None:
    """An upgrade of Textual that changes what tui/keys.py relies on must be looked at."""
    for dotted, (expected, upstream) in keys.UPSTREAM.items():
        module_name, name = dotted.rsplit(".", 1)
        source = textwrap.dedent(
            inspect.getsource(getattr(importlib.import_module(module_name), name))
        )
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        assert digest == expected, f"Textual {version('textual')} changed {dotted}: see {upstream}"


def test_one_module_uses_private_textual_names() -> None:
    users = sorted(
        str(path.relative_to(ROOT))
        for package in ("storage", "tui")
        for path in (ROOT / package).rglob("*.py")
        if PRIVATE.search(path.read_text(encoding="utf-8"))
    )
    assert users == ["tui/keys.py"]


def test_textual_is_pinned_to_the_version_the_digests_are_of() -> None:
    pin = re.search(r'"textual==([\d.]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pin is not None and pin.group(1) == version("textual")
