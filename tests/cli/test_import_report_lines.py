"""The lines ``papers import`` prints of each record merged: a long title shortened whole."""

from __future__ import annotations

import json
from pathlib import Path

from tests.cli.test_bad_input import make_env, run

ABSTRACT = (
    "We introduce a pipeline that makes instruction data from skills extracted by a strong "
    "model, and show that fine-tuning on four thousand of its examples beats larger sets."
)


def test_the_paper_a_record_joined_is_shortened_at_a_word_with_an_ellipsis(
    tmp_path: Path,
) -> None:
    """``(Instruct-SkillMix: A Powerful Pipeline for LLM Instruction T)``: cut mid-word, and
    nothing said it was cut."""
    title = "Instruct-SkillMix: A Powerful Pipeline for LLM Instruction Tuning and More Besides"
    rows = [
        {"title": title, "abstract": ABSTRACT},
        {"title": title.lower(), "abstract": ABSTRACT},  # the same paper, its title in lower case
    ]
    listed = tmp_path / "twice.jsonl"
    listed.write_text("\n".join(json.dumps(row) for row in rows) + "\n", encoding="utf-8")
    done = run("--home", tmp_path / "home", "import", listed, env=make_env(tmp_path))
    assert done.returncode == 0, done.stderr
    [merged] = [line for line in done.stdout.splitlines() if line.startswith("  merged: ")]
    assert "(Instruct-SkillMix: A Powerful Pipeline for LLM Instruction…)" in merged, merged
