"""Export from the app: the papers of the current list, written where the user says."""

from __future__ import annotations

from collections.abc import Sequence
from pathlib import Path

from textual.app import App

from storage.errors import LibraryError
from storage.export import SUFFIXES, export, write_export
from storage.models import Paper
from storage.triage import TriageSnapshot
from tui.screens.dialogs import TextPrompt, typed_path


def ask_export(
    app: App[object], papers: Sequence[Paper], triage: TriageSnapshot, heading: str, name: str
) -> None:
    """Ask where to write ``papers`` as Markdown (``name``: the default file's stem), then
    write them there and say so."""
    if not papers:
        app.notify("Nothing to export: this list is empty.", severity="warning", markup=False)
        return
    default = Path.cwd() / f"{name}{SUFFIXES['markdown']}"

    def write(path_text: str | None) -> None:
        if not path_text:
            return
        text = export(papers, triage, "markdown", heading=heading)
        try:
            target = write_export(typed_path(path_text), text, default.name)
        except LibraryError as exc:
            app.notify(f"Not written: {exc}", severity="error", markup=False)
            return
        app.notify(
            f"Wrote {len(papers)} papers to {target}", title="Exported", timeout=6, markup=False
        )

    prompt = TextPrompt(
        "Export to Markdown", f"Write the {len(papers)} papers of this list to:", str(default)
    )
    app.push_screen(prompt, write)
