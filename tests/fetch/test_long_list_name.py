"""A fetch into a list named in 100,000 characters (``--list``): its report and the warning of
the papers that left the accepted list name the list cut, as the app's toast does; ``list
--json`` keeps the whole name the library keeps (its first 499 characters and "…"). Each of
those lines was 100,000 characters long."""

from __future__ import annotations

import json

from tests.fetch import shapes
from tests.fetch.conftest import papers
from tests.fetch.services import Services

ICLR26 = "ICLR.cc/2026/Conference"
LONG = "L" + "ong name " * 11_111  # 100,000 characters


def test_a_fetch_into_a_long_named_list_says_it_cut(
    services: tuple[Services, str], env: dict[str, str]
) -> None:
    found, _ = services
    made = shapes.made_up(8, seed=64, fate="")
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", "--list", LONG)
    assert done.returncode == 0, done.stderr
    out = done.stdout + done.stderr
    assert max(map(len, out.splitlines())) < 200, max(map(len, out.splitlines()))
    assert f"Imported {LONG[:30]}" in done.stdout and "…: 8 added" in done.stdout
    made[3].fate = "Withdrawn_Submission"
    found.v2[ICLR26] = shapes.v2_venue(made, ICLR26)
    done = papers(env, "fetch", "iclr2026", "--refresh", "--list", LONG)
    assert done.returncode == 0, done.stderr
    out = done.stdout + done.stderr
    assert max(map(len, out.splitlines())) < 300, max(map(len, out.splitlines()))
    [line] = [line for line in out.splitlines() if "no longer among its accepted" in line]
    assert f"warning: 1 paper of {LONG[:30]}" in line and "… is no longer" in line, line
    listed = json.loads(papers(env, "list", "--json").stdout)
    assert {p["list"] for p in listed} == {LONG[:499] + "…"}  # as kept (``caps.list_named``)
