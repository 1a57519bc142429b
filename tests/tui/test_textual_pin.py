"""Textual's private names: named by no module; the code relied on as the pinned Textual has it."""

from __future__ import annotations

import hashlib
import importlib
import inspect
import re
import textwrap
from importlib.metadata import version
from pathlib import Path

from tui.upstream import UPSTREAM

ROOT = Path(__file__).resolve().parents[2]
#: A private Textual module, a private name imported from Textual, or the Textual internals
#: the app once reached into (the screen's timer, the styles cache, Timer._run).
PRIVATE = re.compile(
    r"textual(\.[a-z_]+)*\._[a-z]|from textual[a-z_.]* import [^#\n]*\b_[a-z]"
    r"|\b_update_timer\b|\b_styles_cache\b|Timer\._run|\b_border_(sub)?title\b|\._driver\b"
)


def test_the_textual_code_relied_on_is_what_it_was() -> None:
    """An upgrade of Textual that changes what tui/upstream.py lists must be looked at."""
    for dotted, reliance in UPSTREAM.items():
        module_name, _, name = dotted.rpartition(".")
        try:
            found: object = getattr(importlib.import_module(module_name), name)
        except ModuleNotFoundError:  # a class's member: module.Class.member
            module_name, cls_name = module_name.rsplit(".", 1)
            owner = getattr(importlib.import_module(module_name), cls_name)
            found = inspect.getattr_static(owner, name)
        source = textwrap.dedent(inspect.getsource(found))  # type: ignore[arg-type]
        digest = hashlib.sha256(source.encode()).hexdigest()[:16]
        assert digest == reliance.digest, (
            f"Textual {version('textual')} changed {dotted}: {reliance.user} (upstream: "
            f"{reliance.upstream})"
        )


def test_every_reliance_says_who_relies_and_what_upstream_would_change() -> None:
    for dotted, reliance in UPSTREAM.items():
        user = reliance.user.split()[0].rstrip("'s")
        assert (ROOT / user).is_file(), (dotted, user)
        assert "upstream.py" in (ROOT / user).read_text(encoding="utf-8"), user
        assert len(reliance.upstream) > 40, dotted


def test_no_module_uses_private_textual_names() -> None:
    users = sorted(
        str(path.relative_to(ROOT))
        for package in ("storage", "tui")
        for path in (ROOT / package).rglob("*.py")
        if PRIVATE.search(path.read_text(encoding="utf-8"))
    )
    assert users == []  # a key's name is tui/keys.py's own (checked against Textual's)


def test_textual_is_pinned_to_the_version_the_digests_are_of() -> None:
    pin = re.search(r'"textual==([\d.]+)"', (ROOT / "pyproject.toml").read_text(encoding="utf-8"))
    assert pin is not None and pin.group(1) == version("textual")
