"""A library made of hostile list files, once per session; every test gets its own copy."""

from __future__ import annotations

import shutil
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from storage import Library, Status
from tests.hostile.formats import registered_formats
from tests.hostile.hostile import HOSTILE, sound_paper

# Enough examples to find what the fixed cases miss, few enough to keep the folder under a
# minute; derandomised so that a run in CI is the run on a laptop.
settings.register_profile(
    "hostile",
    max_examples=100,
    deadline=None,
    derandomize=True,
    database=None,
    suppress_health_check=[HealthCheck.too_slow],
)


def hostile_papers(first: int, list_name: str = "List") -> list[dict[str, str]]:
    """One paper per hostile text, each field carrying it (the abstract keeps enough words)."""
    papers = []
    for i, text in enumerate(HOSTILE.values(), start=first):
        paper = sound_paper(i)
        papers.append(
            {
                "title": f"Title {i} {text}",
                "abstract": f"{paper['abstract']} {text}",
                "authors": f"Ann {text} Lee; Bob Ray",
                "url": f"https://example.org/{i}/{text}" if i % 2 else paper["url"],
                "github": f"https://github.com/owner/repo{i} {text}",
                "venue_status": text,
                "keywords": f"kw{i}, {text}",
                "list": f"{list_name} {text}",
            }
        )
    return papers


def write_hostile_lists(folder: Path) -> list[Path]:
    """A hostile file of every format, its name hostile too (the list's name for some)."""
    files = []
    for n, (name, fmt) in enumerate(registered_formats().items()):
        hostile_name = f"{n} {name.replace('/', ' ')} \x1b]0;owned\x07 \u202e"
        path = folder / hostile_name / fmt.file_name.format(stem=hostile_name)
        path.parent.mkdir(parents=True, exist_ok=True)
        # A raw NUL makes a text file binary (refused whole; tests/hostile/test_refusals.py).
        text = fmt.write(hostile_papers(100 * n, f"List {n}")).replace("\x00", "")
        path.write_text(text, encoding="utf-8")
        files.append(path)
    return files


@pytest.fixture(scope="session")
def _hostile_template(tmp_path_factory: pytest.TempPathFactory) -> Path:
    root = tmp_path_factory.mktemp("hostile")
    home = root / "home"
    library = Library(home)
    library.import_files(write_hostile_lists(root / "lists"))
    papers = library.papers()
    texts = list(HOSTILE.values())
    for i, paper in enumerate(papers[:12]):
        library.set_status(paper.id, [Status.STARRED, Status.READ, Status.SKIPPED][i % 3])
        library.set_note(paper.id, f"note {texts[i % len(texts)]}\nsecond line {texts[-1 - i]}")
        library.set_tags(paper.id, [f"tag{texts[i % len(texts)]}", "plain"])
    return home


@pytest.fixture
def hostile_home(tmp_path: Path, _hostile_template: Path) -> Path:
    """A library whose every paper carries hostile text in every field, some decided, noted,
    tagged (a copy of the session's template)."""
    home = tmp_path / "home"
    shutil.copytree(_hostile_template, home)
    return home
