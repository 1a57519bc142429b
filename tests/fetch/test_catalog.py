"""A fetched venue as the catalog of a title-less list, ``papers enrich``, and the seed lists
met by a fetch of the real ICLR 2025 list (served by the local stand-in)."""

from __future__ import annotations

import json
from pathlib import Path

import pytest

from tests.fetch import shapes
from tests.fetch.conftest import REAL_LIST, SAMPLE, papers
from tests.fetch.services import Services

ICLR25 = "ICLR.cc/2025/Conference"
needs_data = pytest.mark.skipif(not REAL_LIST.is_file(), reason=f"real data not found: {REAL_LIST}")
SEEDS = [str(p) for p in sorted(SAMPLE.glob("*.txt"))]


def _real_venue(found: Services) -> list[dict]:
    rows = [json.loads(line) for line in REAL_LIST.read_text(encoding="utf-8").splitlines()]
    found.v2[ICLR25] = shapes.v2_venue(shapes.from_rows(rows), ICLR25)
    return rows


def _listed(env: dict[str, str]) -> list[dict]:
    return json.loads(papers(env, "list", "--json").stdout)


def _real_ones(listed: list[dict], rows: list[dict]) -> list[dict]:
    by_title = {r["title"]: r for r in rows}
    return [p for p in listed if not p["title_derived"] and p["title"] in by_title]


@pytest.mark.slow(15)
@needs_data
def test_seeds_then_fetch_iclr2025_give_3703_papers_the_38_with_real_titles(services, env) -> None:
    found, _ = services
    rows = _real_venue(found)
    assert papers(env, "import", *SEEDS).returncode == 0
    done = papers(env, "fetch", "iclr2025")
    assert done.returncode == 0, done.stderr
    # each record counted once: the seed whose abstract the list writes differently is "merged"
    assert "3,665 added, 37 updated, 0 skipped (unchanged), 1 merged" in done.stdout
    listed = _listed(env)
    assert len(listed) == 3703
    seeds = [p for p in listed if p["list"] != "ICLR 2025 (OpenReview)"]
    assert len(seeds) == 38 and len(_real_ones(seeds, rows)) == 38
    by_title = {r["title"]: r for r in rows}
    assert all(p["authors"] == by_title[p["title"]]["authors"] for p in seeds)
    assert all(p["url"] == by_title[p["title"]]["url"] for p in seeds)


@needs_data
def test_a_fetched_venue_as_catalog_fills_the_seed_lists_and_adds_nothing_else(
    services, env
) -> None:
    found, _ = services
    rows = _real_venue(found)
    done = papers(env, "import", *SEEDS, "--catalog", "iclr2025")
    assert done.returncode == 0, done.stderr
    listed = _listed(env)
    assert len(listed) == 38 and len(_real_ones(listed, rows)) == 38
    by_title = {r["title"]: r for r in rows}
    assert all(p["url"] == by_title[p["title"]]["url"] for p in listed)
    assert all(p["authors"] == by_title[p["title"]]["authors"] for p in listed)
    assert all(p["venue_status"] == by_title[p["title"]]["status"] for p in listed)


@needs_data
def test_enrich_fills_the_papers_already_here(services, env) -> None:
    found, _ = services
    rows = _real_venue(found)
    assert papers(env, "import", *SEEDS).returncode == 0
    assert not _real_ones(_listed(env), rows)
    done = papers(env, "enrich")  # the seeds say ICLR 2025: iclr2025
    assert done.returncode == 0, done.stderr
    assert "Found 38 of 38 papers in iclr2025" in done.stderr
    listed = _listed(env)
    assert len(listed) == 38 and len(_real_ones(listed, rows)) == 38


def test_catalog_by_name_without_the_real_list(services, env, tmp_path: Path) -> None:
    found, _ = services
    made = shapes.made_up(6, fate="")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    text = tmp_path / "mine.txt"
    text.write_text("My ICLR picks\n\n" + "\n\n".join(m.abstract for m in made[:2]) + "\n")
    done = papers(env, "import", str(text), "--catalog", "openreview:ICLR.cc/2025/Conference")
    assert done.returncode == 0, done.stderr
    listed = _listed(env)
    assert sorted(p["title"] for p in listed) == sorted(m.title for m in made[:2])
    assert {p["list"] for p in listed} == {"My ICLR picks"}
    done = papers(env, "enrich", "--from", "nosuchvenue")
    assert done.returncode == 1 and "nosuchvenue" in done.stderr


def test_a_folder_with_xml_of_other_kinds_takes_a_fetched_catalog(
    services, env, tmp_path: Path
) -> None:
    """The folder's pom.xml failed the whole import, which a folder without the catalog
    passes over; a broken list of it failed it too, where it is a file not read."""
    found, _ = services
    made = shapes.made_up(3, fate="")
    found.v2[ICLR25] = shapes.v2_venue(made, ICLR25)
    folder = tmp_path / "picks"
    folder.mkdir()
    (folder / "mine.txt").write_text("My ICLR picks\n\n" + made[0].abstract + "\n")
    (folder / "pom.xml").write_text('<project xmlns="http://maven.apache.org/POM/4.0.0"/>')
    (folder / "broken.json").write_text('{"papers": [')
    done = papers(env, "import", str(folder), "--catalog", "openreview:ICLR.cc/2025/Conference")
    assert done.returncode == 1 and "Traceback" not in done.stderr
    assert "1 file not read, 1 XML file of other kinds passed over" in done.stdout
    assert "  passed over (XML of other kinds): pom.xml" in done.stdout
    assert f"  file not read: {folder / 'broken.json'}" in done.stderr
    assert [p["title"] for p in _listed(env)] == [made[0].title]


def test_a_catalog_file_named_like_a_venue_is_a_file(services, env, tmp_path: Path) -> None:
    found, _ = services
    text = tmp_path / "mine.txt"
    made = shapes.made_up(1, fate="")
    text.write_text("Picks\n\n" + made[0].abstract + "\n")
    catalog = tmp_path / "iclr2025"
    catalog.write_text(json.dumps([{"title": "From the file", "abstract": made[0].abstract}]))
    done = papers(env, "import", str(text), "--catalog", str(catalog))
    assert done.returncode == 0, done.stderr
    assert _listed(env)[0]["title"] == "From the file" and not found.log
