"""``papers search`` of a rare real word a slip away from a common one (``casual``, ``lava``),
and of a real misspelling (``difusion``), in a library imported by a real process."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_cli import make_env, ok, run


def record(title: str, abstract: str) -> dict[str, object]:
    return {"title": title, "abstract": abstract, "authors": ["Ana Diaz"]}


def about(word: str, name: str) -> list[dict[str, object]]:
    """40 papers whose titles and abstracts say ``name`` (``word`` folded)."""
    return [
        record(f"{name} Models for {name} Task {n}", f"We study {word} models for task {n}.")
        for n in range(40)
    ]


CASUAL = record(
    "Casual Conversation Agents",
    "We build agents for casual conversation with people, chatting about their day.",
)
LAVA = record(
    "Surrogates for Volcanic Eruptions",
    "We learn a surrogate of lava flows from the simulations of eruptions.",
)
COED = record(
    "Learning on Graphs with Directed Edges",
    "We propose Continuous Edge Direction (CoED) GNN, for learning on graphs.",
)
DIFUSION = record(
    "Denoising MRI Volumes Without Clean Targets",
    "We learn a denoiser for difusion MRI from noisy scans alone.",
)


def test_a_real_word_finds_its_paper_first_and_a_misspelling_the_word_meant(
    tmp_path: Path,
) -> None:
    """In a library of 40 papers about causal models, 40 about LLaVA, 40 about code and 40
    about diffusion, ``casual`` listed the causal papers before the one about casual
    conversation, ``lava`` the LLaVA papers before the one about lava flows, and ``coed`` the
    papers about code before the one proposing CoED: all read as slips, as ``difusion`` is.
    Now the word's own paper comes first (the look-alike's papers after it), while
    ``difusion`` still lists the papers about diffusion first, its paper among them."""
    source = tmp_path / "papers.jsonl"
    rows = [CASUAL, LAVA, COED, DIFUSION, *about("causal", "Causal"), *about("llava", "LLaVA")]
    rows += about("diffusion", "Diffusion") + about("code", "Code")
    source.write_text("".join(json.dumps(r) + "\n" for r in rows), encoding="utf-8")
    env, home = make_env(tmp_path), tmp_path / "home"
    assert "164 added" in ok(run("--home", home, "import", source, env=env))

    def titles(word: str) -> list[str]:
        out = ok(run("--home", home, "search", "--limit", "50", word, env=env))
        return [line.split(maxsplit=2)[2] for line in out.splitlines()]

    casual = titles("casual")
    assert casual[0] == CASUAL["title"] and casual[1].startswith("Causal Models")
    lava = titles("lava")
    assert lava[0] == LAVA["title"] and lava[1].startswith("LLaVA Models")
    coed = titles("coed")
    assert coed[0] == COED["title"] and coed[1].startswith("Code Models")
    difusion = titles("difusion")
    assert difusion[0].startswith("Diffusion Models") and DIFUSION["title"] in difusion
