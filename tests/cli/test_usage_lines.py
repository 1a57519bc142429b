"""Usage lines say what a command accepts: what may be left out is in brackets.

``papers note ID`` clears the note, ``papers tag ID`` the tags, ``papers queue`` lists the
queue and ``papers`` opens the app: their usage showed TEXT, TAG, ACTION and COMMAND as
required (argparse's own usage of a ``*`` positional in errors, and of subcommands).
"""

from __future__ import annotations

import argparse
from pathlib import Path

import pytest

from tests.cli.test_bad_input import make_env, one_line_error, run
from tui.cli.main import build_parser


@pytest.mark.parametrize(
    ("args", "usage"),
    [
        (["note"], "usage: papers note [-h] [--home DIR] [-a] ID [TEXT ...]"),
        (["tag"], "usage: papers tag [-h] [--home DIR] ID [TAG ...]"),
        (["queue"], "usage: papers queue [-h] [--home DIR] [--json] [ACTION ...]"),
        (["queue", "move"], "usage: papers queue move [-h] [--home DIR] --to N|top|bottom ID"),
        ([], "usage: papers [-h] [--home DIR] [--version] [COMMAND ...]"),
    ],
    ids=lambda v: " ".join(v) if isinstance(v, list) else "",
)
def test_help_usage(args: list[str], usage: str, tmp_path: Path) -> None:
    done = run(*args, "--help", env=make_env(tmp_path))
    assert done.returncode == 0, done.stderr
    assert done.stdout.splitlines()[0] == usage


@pytest.mark.parametrize("command", ["note", "tag"])
def test_a_missing_id_names_the_id_alone(command: str, tmp_path: Path) -> None:
    done = run(command, env=make_env(tmp_path))
    assert done.returncode == 2
    assert done.stderr == (
        f"papers: error: the following arguments are required: ID (see `papers {command} --help`)\n"
    )


def _parsers(parser: argparse.ArgumentParser) -> list[argparse.ArgumentParser]:
    found = [parser]
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for sub in dict.fromkeys(action.choices.values()):
                found += _parsers(sub)
    return found


def test_hand_written_usages_name_every_option() -> None:
    """A usage written by hand (where argparse's would mislead) keeps up with the options."""
    for parser in _parsers(build_parser()):
        if parser.usage is None:
            continue
        usage = parser.format_usage()
        for action in parser._actions:
            if action.option_strings and action.help is not argparse.SUPPRESS:
                assert any(o in usage for o in action.option_strings), (parser.prog, action)


def _commands(parser: argparse.ArgumentParser) -> list[tuple[str, argparse.ArgumentParser]]:
    found = []
    for action in parser._actions:
        if isinstance(action, argparse._SubParsersAction):
            for name, command in action.choices.items():
                found.append(
                    (f"{parser.prog.removeprefix('papers').strip()} {name}".strip(), command)
                )
                found += _commands(command)
    return found


def test_every_commands_help_says_what_it_does() -> None:
    """``papers undo --help``, ``stats`` and ``next`` said nothing of what they do; ``papers
    tag --help`` gave ``papers next | papers note - …`` as its example."""
    commands = _commands(build_parser())
    assert {"undo", "stats", "next", "queue move"} <= {name for name, _ in commands}
    for name, command in commands:
        assert command.description, name
        for action in command._actions:
            if "standard input (`papers next | papers" in (action.help or ""):
                assert f"papers {name} -" in str(action.help), name


@pytest.mark.parametrize("width", [80, 60])
def test_search_help_is_wrapped_to_the_terminal_and_gives_every_example_alike(
    width: int, tmp_path: Path
) -> None:
    """``papers search --help``: its description was one long line whatever the terminal, and
    the qualifiers' list stayed 78 wide; an example that did not fit its entry's last line
    went on its own line without the ``;`` the others have (``e.g. abstract:benchmark``)."""
    done = run("search", "--help", env=make_env(tmp_path, COLUMNS=str(width)))
    assert done.returncode == 0, done.stderr
    lines = done.stdout.splitlines()
    # the usage too: argparse keeps an option group whole (86 wide), cut after a ``|`` here
    assert all(len(line) <= width for line in lines), [line for line in lines if len(line) > width]
    assert "--delete-saved NAME]" in done.stdout
    assert "Search the library as the app does" in done.stdout
    body = lines[lines.index("") :]  # after the usage
    text = " ".join(line.strip() for line in body)
    examples = text.count("e.g. ")
    assert examples >= 10
    assert text.count("; e.g. ") == examples, [ln for ln in body if ln.strip().startswith("e.g.")]


def test_a_misspelt_option_before_the_command_is_named(tmp_path: Path) -> None:
    """``papers --hme DIR list``: the error named DIR as an invalid command (argparse took it
    for the COMMAND), not the option misspelt; one cut short (``--hom``) is still ``--home``."""
    env = make_env(tmp_path)
    home = tmp_path / "home"
    done = run("--hme", home, "list", env=env)
    assert done.returncode == 2 and done.stdout == ""
    assert done.stderr == (
        "papers: error: unrecognized option --hme (did you mean --home?) (see `papers --help`)\n"
    )
    assert not home.exists()
    short = run("--hom", home, "list", env=env)
    assert short.returncode == 0 and "the library is empty" in short.stderr


@pytest.mark.parametrize("equals", [True, False], ids=["--hme=DIR", "--hme DIR"])
def test_a_misspelt_option_with_its_value_after_equals_is_named(
    equals: bool, tmp_path: Path
) -> None:
    """``papers --hme=/tmp list`` got argparse's "unrecognized arguments: --hme=/tmp (see
    `papers list --help`)" (``list`` was named); the space form, which named no command, got
    the option and its likely meaning. Both alike now; no HOME made."""
    home = tmp_path / "home"
    words = [f"--hme={home}"] if equals else ["--hme", str(home)]
    line = one_line_error(run(*words, "list", env=make_env(tmp_path)), 2)
    assert line == (
        "papers: error: unrecognized option --hme (did you mean --home?) (see `papers --help`)"
    )
    assert not home.exists()
    cut = run(f"--hom={home}", "list", env=make_env(tmp_path))  # cut short: --home, as before
    assert cut.returncode == 0 and "the library is empty" in cut.stderr


@pytest.mark.parametrize(
    ("words", "command"),
    [
        (["list", "--hme={home}"], "list"),
        (["list", "--hme", "{home}"], "list"),
        (["search", "--hme={home}", "diffusion"], "search"),
        (["note", "abcd", "--hme={home}", "more", "words"], "note"),
    ],
    ids=["list --hme=DIR", "list --hme DIR", "search", "note"],
)
def test_a_misspelt_option_after_the_command_is_named_as_before_it(
    words: list[str], command: str, tmp_path: Path
) -> None:
    """``papers list --hme=/tmp/x`` got argparse's "unrecognized arguments: --hme=/tmp/x"
    while ``papers --hme=/tmp/x list`` named the option and what it likely meant: after the
    command it is said alike, with the command's own help to see; no HOME made."""
    home = tmp_path / "home"
    line = one_line_error(run(*[w.format(home=home) for w in words], env=make_env(tmp_path)), 2)
    assert line == (
        "papers: error: unrecognized option --hme (did you mean --home?) "
        f"(see `papers {command} --help`)"
    )
    assert not home.exists()


def test_a_misspelt_option_of_the_command_is_named_and_a_word_after_dashes_is_not(
    tmp_path: Path,
) -> None:
    """The command's own options are what a misspelt one likely meant (``--stauts``); a word
    after ``--`` is no option, and a word left over no option either: argparse's line, as
    before."""
    env = make_env(tmp_path)
    status = one_line_error(run("list", "--stauts", "read", env=env), 2)
    assert status.startswith("papers: error: unrecognized option --stauts (did you mean --status?)")
    dashes = one_line_error(run("list", "--", "--x", env=env), 2)
    assert dashes.startswith("papers: error: unrecognized arguments: -- --x"), dashes
    extra = one_line_error(run("list", "extra", env=env), 2)
    assert extra.startswith("papers: error: unrecognized arguments: extra"), extra


def test_a_short_option_or_a_dash_before_the_command_is_argparses_to_name(tmp_path: Path) -> None:
    """``papers -`` and ``papers -hv`` were said to be "unrecognized option - (did you mean
    -h?)" by the check of long options (a review): argparse names them, as before."""
    env = make_env(tmp_path)
    dash = run("-", env=env)
    assert dash.returncode == 2 and "invalid choice: '-'" in dash.stderr, dash.stderr
    both = run("-hv", env=env)
    assert both.returncode == 2 and "unrecognized option" not in both.stderr, both.stderr
