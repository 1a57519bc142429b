"""The command table: every key is one command, runs an action that exists, and is documented."""

from __future__ import annotations

import importlib
import pkgutil
import re
from pathlib import Path

from textual.app import App
from textual.binding import Binding
from textual.dom import DOMNode

import tui
from tui.commands import BY_ID, COMMANDS, SCOPES, key_table

README = Path(__file__).resolve().parents[2] / "README.md"


def classes_with_bindings() -> list[type[DOMNode]]:
    """Every screen and app class of tui/ that declares key bindings."""
    for module in pkgutil.walk_packages(tui.__path__, prefix="tui."):
        if not module.name.endswith("__main__"):  # that one runs the command
            importlib.import_module(module.name)
    found: list[type[DOMNode]] = []
    todo: list[type[DOMNode]] = [DOMNode]
    while todo:
        cls = todo.pop()
        todo.extend(cls.__subclasses__())
        if cls.__module__.startswith("tui.") and "BINDINGS" in cls.__dict__ and cls not in found:
            found.append(cls)  # (a class with several bases is reached once per base)
    return found


def test_every_binding_is_a_command_whose_action_exists() -> None:
    seen: dict[str, str] = {}
    for cls in classes_with_bindings():
        for binding in cls.__dict__["BINDINGS"]:
            assert isinstance(binding, Binding), cls
            assert binding.id in BY_ID, f"{cls.__name__}: binding {binding.id!r} not a command"
            command = BY_ID[binding.id]
            name = command.action.split("(")[0]
            assert hasattr(cls, f"action_{name}"), f"{cls.__name__} has no action_{name}"
            assert binding.id not in seen, f"{binding.id} bound in {seen[binding.id]} too"
            seen[binding.id] = cls.__name__
    assert set(seen) == {c.id for c in COMMANDS}, "commands bound nowhere"


def test_the_app_class_is_among_them() -> None:
    assert any(issubclass(cls, App) for cls in classes_with_bindings())


def test_command_ids_are_unique_and_scopes_known() -> None:
    assert len(BY_ID) == len(COMMANDS)
    assert {c.scope for c in COMMANDS} <= set(SCOPES)
    for command in COMMANDS:
        assert re.fullmatch(r"[a-z_]+", command.id), command.id


def test_the_readme_key_table_is_the_command_table() -> None:
    text = README.read_text(encoding="utf-8")
    found = re.search(r"<!-- keys -->\n(.*?)<!-- /keys -->", text, re.S)
    assert found, "README.md lacks the <!-- keys --> … <!-- /keys --> table"
    assert found.group(1) == key_table(), (
        "README's key table drifted from tui/commands.py: paste key_table()'s output"
    )
