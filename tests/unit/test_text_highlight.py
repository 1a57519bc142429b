"""The one highlighter (storage/text/highlight.py) and the app's Rich text built on it."""

from __future__ import annotations

from rich.text import Text

from storage.text.highlight import highlight_spans
from tui.text import highlighted


def marked(text: str, terms: set[str], slack: int = 0) -> list[str]:
    return [text[a:b] for a, b in highlight_spans(text, terms, prefix_slack=slack)]


def test_words_are_found_folded() -> None:
    assert marked("Lévy flights of the Lévy kind", {"levy"}) == ["Lévy", "Lévy"]
    assert marked("ﬁne-grained ﬁnes", {"fine"}) == ["ﬁne"]
    assert marked("Diffusion Sampler", {"DIFFUSION"}) == ["Diffusion"]


def test_compounds_are_marked_whole_and_camel_case_parts_alone() -> None:
    assert marked("we propose ORW-CFM-W2 here", {"orwcfmw2"}) == ["ORW-CFM-W2"]
    assert marked("a non-linear map", {"linear"}) == ["linear"]
    assert highlight_spans("ParaSolver rocks", {"solver"}) == [(4, 10)]
    assert marked("ParaSolver rocks", {"parasolver", "solver"}) == ["ParaSolver"]


def test_prefix_slack_marks_near_words_only_when_asked() -> None:
    text = "a model of models for modelling"
    assert marked(text, {"model"}) == ["model"]
    assert marked(text, {"model"}, slack=1) == ["model", "models"]
    assert marked(text, {"model"}, slack=3) == ["model", "models"]
    assert marked("GANs and gander", {"ga"}, slack=3) == []  # a term under 3 characters


def test_nothing_to_mark() -> None:
    assert highlight_spans("nothing here", set()) == []
    assert highlight_spans("", {"word"}) == []


def test_the_app_marks_what_the_search_matched_with_its_slack() -> None:
    shown = highlighted("Graph curvature\x1b[31m and curvatures", {"curvature"}, "bold")
    assert isinstance(shown, Text)
    assert "\x1b" not in shown.plain and "␛" in shown.plain
    assert [shown.plain[s.start : s.end] for s in shown.spans] == ["curvature", "curvatures"]
    assert highlighted("plain", (), "bold").spans == []
