"""``papers sync`` run as users run it: real processes, a real git repository, the real app.

- the command's lines and exit codes (a missing folder, no folder at all, ``--status``);
- a git repository as the synced folder: two clones, each device commits its own files, pull
  and push through a bare repository, and git merges without a conflict;
- two real processes, the app on one HOME (``App.run_test`` in a subprocess, syncing through
  its ``[sync] folder``) and the CLI on another, 1,000 decisions between them: the same
  library on both afterwards, none lost.
"""

from __future__ import annotations

import json
import shutil
import subprocess
import sys
import textwrap
from collections import Counter
from pathlib import Path

import orjson
import pytest

from tests.cli.test_cli import PAPERS, make_env

TIMEOUT = 120


def papers(
    env: dict[str, str], home: Path, *args: str, check: bool = True
) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        [*PAPERS, "--home", str(home), *args],
        env=env,
        capture_output=True,
        text=True,
        timeout=TIMEOUT,
    )
    if check:
        assert done.returncode == 0, done.stderr
    return done


def statuses(env: dict[str, str], home: Path) -> dict[str, str]:
    listed = json.loads(papers(env, home, "list", "--json").stdout)
    return {p["id"]: p["status"] for p in listed}


def paper_list(path: Path, count: int) -> Path:
    """A JSONL list of ``count`` made-up papers."""
    rows = (
        {"title": f"Method {n}: solving task {n}", "abstract": f"We solve task {n} with care."}
        for n in range(count)
    )
    path.write_bytes(b"\n".join(orjson.dumps(row) for row in rows) + b"\n")
    return path


@pytest.fixture
def env(tmp_path: Path) -> dict[str, str]:
    return make_env(tmp_path)


def test_sync_says_what_it_did_and_status_what_waits(env: dict[str, str], tmp_path: Path) -> None:
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 5)))
    first = sorted(statuses(env, a))[0]
    papers(env, a, "mark", first, "starred")
    done = papers(env, a, "sync", str(folder), "--name", "laptop")
    assert done.stdout.startswith(f"synced with {folder} as laptop (")
    # 5 papers, the star and its place in the reading queue: it said "sent 7, received 0"
    assert "sent 5 papers, 1 decision and 1 queue move; received nothing" in done.stdout
    assert done.stderr == ""
    done = papers(env, b, "sync", str(folder), "--name", "laptop")  # the same name: two devices
    assert "received 5 papers, 1 decision and 1 queue move from 1 other device" in done.stdout
    assert statuses(env, b)[first] == "starred"
    papers(env, b, "mark", first, "read")
    status = papers(env, a, "sync", "--status", str(folder)).stdout.splitlines()
    assert status[2] == "devices seen: 2"
    assert status[3].lstrip().startswith("laptop") and status[3].endswith("(this one)")
    assert status[-1] == "pending: 0 changes to send, 0 to receive"
    papers(env, b, "sync", str(folder))
    status = papers(env, a, "sync", "--status", str(folder)).stdout.splitlines()
    assert status[-1] == "pending: 0 changes to send, 1 to receive"


def test_sync_errors_are_one_line(env: dict[str, str], tmp_path: Path) -> None:
    home = tmp_path / "home"
    helped = papers(env, home, "sync", "--help").stdout
    assert "usage: papers sync" in helped and "--status" in helped and "--name NAME" in helped
    done = papers(env, home, "sync", str(tmp_path / "not-mounted"), check=False)
    assert done.returncode == 1 and done.stdout == ""
    assert done.stderr.count("\n") == 1 and "does not exist" in done.stderr
    done = papers(env, home, "sync", check=False)
    assert done.returncode == 2 and "[sync] folder" in done.stderr
    # --status bare, no folder set: what the library knows by itself, not an error
    status = papers(env, home, "sync", "--status").stdout.splitlines()
    assert status[0].startswith("folder: none set") and "[sync] folder" in status[0]
    assert status[1].startswith("this device: ") and status[2] == "synced before: never"
    folder = tmp_path / "synced"
    folder.mkdir()
    home.mkdir()  # (a command that only reads makes no HOME)
    (home / "config.toml").write_text(f'[sync]\nfolder = "{folder}"\n')
    assert papers(env, home, "sync").stdout.startswith(f"synced with {folder}")
    (home / "config.toml").unlink()
    status = papers(env, home, "sync", "--status").stdout.splitlines()
    assert status[2].startswith(f"synced before with {folder}, last 20"), status
    assert "(its id" not in status[1]  # a device id since the first sync
    # the folder the sync made inside, given for the synced one: refused, the right one named
    # (it started papers-tui/papers-tui, "received nothing from 0 other devices")
    inner = folder / "papers-tui"
    done = papers(env, home, "sync", str(inner), check=False)
    assert done.returncode == 1 and done.stderr.count("\n") == 1
    assert f"give the synced folder itself, {folder}" in done.stderr
    assert not (inner / "papers-tui").exists()


#: The environment git runs in: a config of its own, a fixed author (set by the test).
GIT_ENV: dict[str, str] = {}


def git(cwd: Path, *args: str) -> subprocess.CompletedProcess[str]:
    done = subprocess.run(
        ["git", *args], cwd=cwd, env=GIT_ENV, capture_output=True, text=True, timeout=TIMEOUT
    )
    assert done.returncode == 0, f"git {' '.join(args)}: {done.stdout}{done.stderr}"
    return done


@pytest.mark.skipif(shutil.which("git") is None, reason="git is not installed")
def test_a_git_repository_as_the_folder_merges_without_conflicts(
    env: dict[str, str], tmp_path: Path
) -> None:
    (tmp_path / "gitconfig").write_text("[pull]\n\trebase = false\n")
    GIT_ENV.clear()
    GIT_ENV.update(env, GIT_CONFIG_GLOBAL=str(tmp_path / "gitconfig"), GIT_CONFIG_NOSYSTEM="1")
    GIT_ENV.update(dict.fromkeys(("GIT_AUTHOR_NAME", "GIT_COMMITTER_NAME"), "t"))
    GIT_ENV.update(dict.fromkeys(("GIT_AUTHOR_EMAIL", "GIT_COMMITTER_EMAIL"), "t@example.invalid"))
    origin = tmp_path / "origin.git"
    git(tmp_path, "init", "--bare", str(origin))
    laptop, desktop = tmp_path / "laptop-clone", tmp_path / "desktop-clone"
    git(tmp_path, "clone", str(origin), str(laptop))
    (laptop / "README").write_text("our papers\n")
    git(laptop, "add", "-A")
    git(laptop, "commit", "-m", "start")
    git(laptop, "push", "origin", "HEAD")
    git(tmp_path, "clone", str(origin), str(desktop))

    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 20)))
    ids = sorted(statuses(env, a))
    papers(env, a, "mark", *ids[:5], "read")
    papers(env, a, "sync", str(laptop))
    git(laptop, "add", "-A")
    git(laptop, "commit", "-m", "laptop")
    git(laptop, "push", "origin", "HEAD")
    git(desktop, "pull")
    papers(env, b, "sync", str(desktop))  # joins: the papers and the decisions
    assert statuses(env, b) == statuses(env, a)

    # Both decide offline, both sync and commit their own files; then they meet.
    papers(env, a, "mark", *ids[5:8], "starred")
    papers(env, a, "note", ids[0], "from the laptop")
    papers(env, b, "mark", *ids[7:12], "skipped")  # ids[7] decided on both: the later wins
    papers(env, b, "undo")
    papers(env, b, "mark", *ids[10:14], "skipped")
    for clone, home, who in ((laptop, a, "laptop"), (desktop, b, "desktop")):
        papers(env, home, "sync", str(clone))
        git(clone, "add", "-A")
        git(clone, "commit", "-m", who)
    git(desktop, "push", "origin", "HEAD")
    merged = git(laptop, "pull", "--no-edit")  # a real merge of two histories
    assert "CONFLICT" not in merged.stdout
    papers(env, a, "sync", str(laptop))
    git(laptop, "add", "-A")
    git(laptop, "commit", "-m", "laptop after the merge")
    git(laptop, "push", "origin", "HEAD")
    git(desktop, "pull", "--no-edit")
    papers(env, b, "sync", str(desktop))
    assert statuses(env, a) == statuses(env, b)
    final = statuses(env, a)
    assert [final[pid] for pid in ids[:5]] == ["read"] * 5
    assert [final[pid] for pid in ids[5:7]] == ["starred"] * 2
    assert [final[pid] for pid in ids[10:14]] == ["skipped"] * 4
    assert final[ids[8]] == "inbox"  # undone on the desktop, everywhere
    assert git(laptop, "status", "--porcelain").stdout == ""  # sync leaves nothing behind


APP_DRIVER = textwrap.dedent(
    """
    import asyncio, sys, time
    from storage import Library
    from tui.app import PapersApp

    KEYS = "rxs"
    #: How long the background sync may take to send every decision: ~5 s after the last one
    #: (the files still for 3 s, a look every 2 s), 30 s at most while decisions go on; a
    #: loaded machine stretches every step.
    BOUND = 120.0

    def sent(app):
        \"\"\"The whole lines in the app's own triage log in the synced folder.\"\"\"
        report = app.syncing.report
        if report is None:
            return 0
        log = app.syncing.folder / "papers-tui" / report.device.id / "triage.jsonl"
        try:
            return log.read_bytes().count(b"\\n")
        except FileNotFoundError:
            return 0

    async def main(home, count):
        app = PapersApp(Library(home), import_sample=False)
        async with app.run_test(size=(120, 36)) as pilot:
            await pilot.pause()
            for n in range(count):
                await pilot.press(KEYS[n % 3])
                if n % 20 == 19:
                    await pilot.pause(0.2)  # the CLI's syncs arrive meanwhile
            # Every decision sent by the sync off the UI thread, before quitting: a status for
            # each key and a place in the reading queue for each star (s). Not "some sync
            # sent count lines": one the CLI's syncs started while the last keys' decisions
            # were being written sent only those before them, with their queue places.
            every = count + count // 3
            began = time.monotonic()
            while sent(app) < every and time.monotonic() - began < BOUND:
                await pilot.pause(0.1)
            print("sent by the background sync before quitting:", sent(app))
            print(f"waited {time.monotonic() - began:.1f} s for it", file=sys.stderr)
            await pilot.press("q")
        print("decided", count)

    asyncio.run(main(sys.argv[1], int(sys.argv[2])))
    """
)


def sent_logs(folder: Path) -> str:
    """What each device's triage log in ``folder`` holds, by kind of record (a failure's
    message: what reached the disk)."""
    said = []
    for card in sorted((folder / "papers-tui").glob("*/device.json")):
        log = card.parent / "triage.jsonl"
        lines = log.read_bytes().splitlines(keepends=True) if log.exists() else []
        kinds = Counter(orjson.loads(line)[0] for line in lines if line.endswith(b"\n"))
        said.append(f"{json.loads(card.read_bytes())['name']}: {dict(kinds)}")
    return "; ".join(said)


@pytest.mark.slow(50)
def test_the_app_and_the_cli_on_two_homes_lose_no_decision(
    env: dict[str, str], tmp_path: Path
) -> None:
    """400 decisions: 200 by keys in the app (home A, syncing through its [sync] folder on
    its own), 200 by ``papers mark`` on home B with ``papers sync`` after each of ten batches,
    at the same time. Afterwards both libraries are the same and hold every decision."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    listing = paper_list(tmp_path / "list.jsonl", 500)
    papers(env, a, "import", str(listing))
    papers(env, b, "import", str(listing))
    ids = [p["id"] for p in json.loads(papers(env, a, "list", "--json").stdout)]
    (a / "config.toml").write_text(f'[sync]\nfolder = "{folder}"\nname = "app"\n')
    script = tmp_path / "drive_app.py"
    script.write_text(APP_DRIVER)
    app = subprocess.Popen(
        [sys.executable, str(script), str(a), "200"],
        env=env,
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    )
    wanted: dict[str, str] = {}
    for n, pid in enumerate(ids[:200]):
        wanted[pid] = ("read", "skipped", "starred")[n % 3]  # r, x, s from the top of the Inbox
    cli_ids = ids[-200:]
    for start in range(0, 200, 20):
        status = ("read", "skipped", "starred")[start // 20 % 3]
        batch = cli_ids[start : start + 20]
        papers(env, b, "mark", *batch, status)
        papers(env, b, "sync", str(folder), "--name", "cli")
        wanted.update(dict.fromkeys(batch, status))
    out, err = app.communicate(timeout=TIMEOUT * 3)  # (its wait for the sync: 120 s at most)
    assert app.returncode == 0, err
    # 200 statuses, and the places in the reading queue of the 66 papers starred
    assert out.splitlines() == [
        "sent by the background sync before quitting: 266",
        "decided 200",
    ], f"{err}in the folder after quitting (its last sync's included): {sent_logs(folder)}"
    papers(env, b, "sync", str(folder))  # the app's decisions, all in its log, reach the CLI's home
    papers(env, a, "sync", str(folder))  # and the CLI's last batch reaches the app's home
    on_a, on_b = statuses(env, a), statuses(env, b)
    assert on_a == on_b
    lost = {pid: s for pid, s in wanted.items() if on_a[pid] != s}
    assert not lost, f"{len(lost)} decisions lost"
    assert sum(1 for s in on_a.values() if s != "inbox") == 400


def triage_of(env: dict[str, str], home: Path) -> dict[str, tuple[str, str, list[str]]]:
    """Every paper's status, note and tags, by id, as the JSON export gives them."""
    done = papers(env, home, "export", "--status", "all", "--format", "json")
    return {p["id"]: (p["status"], p["note"], p["tags"]) for p in json.loads(done.stdout)}


def test_files_put_back_or_lost_are_filled_in_and_take_nothing_away(
    env: dict[str, str], tmp_path: Path
) -> None:
    """The recoveries our own messages suggest, as users run them: a damaged triage.json moved
    aside, papers.json.bak copied over papers.json, papers.json lost. Each once cost every
    device newer decisions, notes or papers; now the library is filled in from the folder."""
    folder = tmp_path / "synced"
    folder.mkdir()
    a, b = tmp_path / "a", tmp_path / "b"
    papers(env, a, "import", str(paper_list(tmp_path / "list.jsonl", 6)))
    papers(env, a, "sync", str(folder)), papers(env, b, "sync", str(folder))
    ids = sorted(statuses(env, a))
    papers(env, a, "mark", ids[0], "starred")
    papers(env, a, "note", ids[1], "first thoughts")
    papers(env, a, "sync", str(folder)), papers(env, b, "sync", str(folder))
    papers(env, b, "mark", ids[0], "read")
    papers(env, b, "note", ids[1], "second thoughts")
    papers(env, b, "sync", str(folder)), papers(env, a, "sync", str(folder))
    kept = triage_of(env, b)

    (a / "triage.json").rename(a / "triage.json.damaged")
    done = papers(env, a, "sync", str(folder))
    assert "sent nothing;" in done.stdout
    assert "here: 1 decision, 1 note and 1 queue move" in done.stdout
    papers(env, b, "sync", str(folder))
    assert triage_of(env, a) == triage_of(env, b) == kept

    more = tmp_path / "more.jsonl"
    rows = [{"title": f"Quokka {n}", "abstract": f"We count quokkas on isle {n}."} for n in "xyz"]
    more.write_bytes(b"\n".join(orjson.dumps(row) for row in rows))
    papers(env, b, "import", str(more))
    papers(env, b, "sync", str(folder)), papers(env, a, "sync", str(folder))
    shutil.copyfile(a / "papers.json.bak", a / "papers.json")
    assert len(statuses(env, a)) == 6
    done = papers(env, a, "sync", str(folder))
    assert "sent nothing;" in done.stdout and "changed here: 3 papers" in done.stdout
    papers(env, b, "sync", str(folder))
    assert len(statuses(env, b)) == 9 and triage_of(env, a) == triage_of(env, b)

    (a / "papers.json").unlink()
    assert "changed here: 9 papers" in papers(env, a, "sync", str(folder)).stdout
    assert triage_of(env, a) == triage_of(env, b)


def test_the_config_names_the_device_the_command_line_syncs(
    env: dict[str, str], tmp_path: Path
) -> None:
    folder = tmp_path / "synced dir"
    folder.mkdir()
    home = tmp_path / "a"
    home.mkdir()
    (home / "config.toml").write_text(f'[sync]\nfolder = "{folder}"\nname = "office desk"\n')
    assert " as office desk (" in papers(env, home, "sync").stdout
    assert " as office desk (" in papers(env, home, "sync", str(folder)).stdout
    # --name still wins, and is kept
    assert " as laptop (" in papers(env, home, "sync", "--name", "laptop").stdout
