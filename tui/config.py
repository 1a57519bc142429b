"""The user's configuration: key remapping from ``config.toml``.

```toml
[keys]
star = "f"          # a command id (see the help screen) = one key or several, comma-separated
skip = "x,minus"
```
Read from the platform's config folder, then HOME (HOME wins). A file that does not parse is
reported and ignored: the app opens with the default keys. So is each setting that would leave
a key dead: an empty value, a name that is no key (``"notakey"``, ``"ctrl+"``, an emoji), or a
key that another command of the same screen already has (``star = "f"`` and ``skip = "f"``).
Each gets a one-line warning at start naming the setting, and its command keeps its default
keys, which the footer and the help screen then show.
A setting that repeats default keys a command had before (``Command.former``) is read as
its defaults now, without a word, where a key of it is another command's default now.

```toml
[sync]
folder = "~/Sync/papers"   # the app syncs with it on start, after decisions and on quit
name = "laptop"            # this device's name there (default: the host name)

[queue]
new = "top"                # a paper starred joins the reading queue at its head ("end": last)

[pdf]
folder = "~/Papers"        # where PDFs are downloaded (default: HOME/pdfs)
timeout = 60               # seconds a server may stay silent (P and papers pdf; 0.1 to 3600)
```

```toml
[venues]                   # short names for `papers fetch` and the import dialog
aaai-ws = "ICML.cc/2025/Workshop/FMSD"      # an OpenReview venue id
cvpr25 = "paperlists:cvpr2025"              # or any source: paperlists:…, arxiv:…
```
"""

from __future__ import annotations

import json
import tomllib
from collections.abc import Collection, Sequence
from dataclasses import dataclass, field
from pathlib import Path
from typing import TYPE_CHECKING

if TYPE_CHECKING:
    from storage.pdfs.folder import PdfFolder

# The command table (and with it Textual) loads when keys are read: `papers fetch` reads
# only [venues] (``load_venues``) and starts without it.


@dataclass(slots=True)
class Config:
    """What the config files said, and what was wrong with them."""

    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)
    #: The tables the problems are of, one each ("" for a whole file's: it does not parse,
    #: a table nothing reads), so that a command says those of the settings it uses.
    problem_tables: list[str] = field(default_factory=list)
    #: ``[sync] folder``: the folder to sync the library with (None: no sync).
    sync_folder: Path | None = None
    #: ``[sync] name``: this device's name in that folder ("" for the host name).
    sync_name: str = ""
    #: ``[queue] new = "top"``: a newly starred paper joins the queue at its head.
    queue_top: bool = False
    #: ``[pdf] folder``: where PDFs are downloaded (None: HOME/pdfs).
    pdf_folder: Path | None = None
    #: ``[pdf] timeout``: seconds a server may stay silent, for ``P`` and ``papers pdf``
    #: (None: ``storage.pdfs.download.TIMEOUT_S``).
    pdf_timeout: float | None = None
    #: ``[venues]``: short names the user adds for fetching (name → source or venue id).
    venues: dict[str, str] = field(default_factory=dict)

    def problem(self, table: str, text: str) -> None:
        """Note a problem of ``[table]`` ("" for the whole file)."""
        self.problems.append(text)
        self.problem_tables.append(table)

    def problems_of(self, *tables: str) -> list[str]:
        """The problems of these tables and of whole files, in the order found."""
        wanted = {"", *tables}
        return [p for p, t in zip(self.problems, self.problem_tables, strict=True) if t in wanted]


def load_venues(paths: Sequence[Path]) -> Config:
    """Only the ``[venues]`` tables of the config files (the command line's fetch)."""
    config = Config()
    for path in paths:
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            config.problem("", f"{path}: [venues] ignored, the file does not parse ({exc})")
            continue
        _read_venues(data.get("venues", {}), path, config)
    return config


def load_config(paths: Sequence[Path]) -> Config:
    """Read the config files in order; later files override earlier ones."""
    from tui.keys import normalise_key

    config = Config()
    set_in: dict[str, Path] = {}  # command id → the file that set its keys
    for path in paths:
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            config.problem("", f"{path}: ignored, it does not parse ({exc})")
            continue
        except RecursionError:  # arrays or tables nested hundreds deep: no config of ours
            config.problem("", f"{path}: ignored, it nests too deep to read")
            continue
        _unknown_tables(data, path, config)
        _read_sync(data.get("sync", {}), path, config)
        _read_venues(data.get("venues", {}), path, config)
        _read_queue(data.get("queue", {}), path, config)
        _read_pdf(data.get("pdf", {}), path, config)
        keys = data.get("keys", {})
        if not isinstance(keys, dict):
            config.problem("keys", f'{path}: [keys] must be a table of command = "key"')
            continue
        for command_id, value in keys.items():
            config.keymap.pop(command_id, None)  # this file decides, even when it is wrong
            problem = _key_problem(command_id, value)
            if problem:
                config.problem("keys", f"{path}: [keys] {problem}")
                continue
            written = ",".join(
                dict.fromkeys(str(normalise_key(k)) for k in value.split(",") if k.strip())
            )
            config.keymap[command_id] = written
            set_in[command_id] = path
    _forget_former_defaults(config.keymap)
    for problem in _drop_clashes(config.keymap, set_in):
        config.problem("keys", problem)
    followed = _follow(config.keymap, set_in)
    for problem in _drop_clashes(config.keymap, set_in, followed):
        config.problem("keys", problem)
    return config


def _follow(keymap: dict[str, str], set_in: dict[str, Path]) -> set[str]:
    """Give a dialog's key that is a main-screen command's (``Command.follows``) that
    command's remapped keys, unless a file remapped it itself: with ``read = "s"`` and
    ``star = "r"``, ``s`` reads in the bulk dialog too. After the main screen's clashes are
    put back, so that a remap that did not hold there is not followed either."""
    from tui.commands import COMMANDS

    followed: set[str] = set()
    for command in COMMANDS:
        main = command.follows
        if main and main in keymap and command.id not in set_in:
            keymap[command.id] = keymap[main]
            set_in[command.id] = set_in[main]
            followed.add(command.id)
    return followed


def _read_sync(table: object, path: Path, config: Config) -> None:
    """The ``[sync]`` table: a folder (``~`` and paths relative to the config file work)."""
    if not isinstance(table, dict):
        config.problem("sync", f'{path}: [sync] must be a table (folder = "…")')
        return
    for key, value in table.items():
        if key not in ("folder", "name") or not isinstance(value, str):
            config.problem("sync", f"{path}: [sync] {_set(key, value)}: ignored (folder, name)")
        elif key == "name":
            config.sync_name = value.strip()
        elif value.strip():
            config.sync_folder = path.parent / Path(value.strip()).expanduser()
        else:
            config.sync_folder = None


def _read_queue(table: object, path: Path, config: Config) -> None:
    """The ``[queue]`` table: where a newly starred paper joins the reading queue."""
    if not isinstance(table, dict):
        config.problem("queue", f'{path}: [queue] must be a table (new = "end" or "top")')
        return
    for key, value in table.items():
        if key == "new" and isinstance(value, str) and value.strip().lower() in ("top", "end"):
            config.queue_top = value.strip().lower() == "top"
        else:
            config.problem(
                "queue", f'{path}: [queue] {_set(key, value)}: ignored (new = "top"|"end")'
            )


def _read_pdf(table: object, path: Path, config: Config) -> None:
    """The ``[pdf]`` table: the folder PDFs are downloaded into, the downloads' timeout."""
    from storage.pdfs.timeout import timeout_problem

    if not isinstance(table, dict):
        config.problem("pdf", f'{path}: [pdf] must be a table (folder = "…")')
        return
    for key, value in table.items():
        if key == "folder" and isinstance(value, str) and value.strip():
            config.pdf_folder = path.parent / Path(value.strip()).expanduser()
        elif key == "timeout":
            number = isinstance(value, int | float) and not isinstance(value, bool)
            problem = timeout_problem(float(value)) if number else "must be a number of seconds"
            if problem:
                said = f"{path}: [pdf] {_set(key, value)}: ignored ({problem})"
                config.problem("pdf", said)
            else:
                config.pdf_timeout = float(value)
        else:
            said = f"{path}: [pdf] {_set(key, value)}: ignored (folder, timeout)"
            config.problem("pdf", said)


def library_config(home: Path) -> Config:
    """The configuration of the library in ``home`` (for commands that need its settings)."""
    from storage.locations import config_paths

    return load_config(config_paths(home))


def pdf_folder(home: Path, config: Config) -> Path:
    """Where the PDFs of the library in ``home`` go: ``[pdf] folder``, else HOME/pdfs."""
    from storage.pdfs.folder import PDF_DIR

    return config.pdf_folder if config.pdf_folder is not None else home / PDF_DIR


def library_pdfs(home: Path) -> PdfFolder:
    """The folder of the local PDFs of the library in ``home``, as its settings name it."""
    from storage.pdfs.folder import PdfFolder

    return PdfFolder(pdf_folder(home, library_config(home)))


def _read_venues(table: object, path: Path, config: Config) -> None:
    """The ``[venues]`` table: short name = "VENUE_ID" or "source:argument"."""
    if not isinstance(table, dict):
        config.problem("venues", f'{path}: [venues] must be a table (name = "VENUE_ID")')
        return
    for name, value in table.items():
        text = value.strip() if isinstance(value, str) else ""
        if not text or len(text) > 500 or not name.strip() or any(c.isspace() for c in name):
            config.problem("venues", f"{path}: [venues] {_set(name, value)}: ignored")
        else:
            config.venues[name.strip().casefold()] = text


def _key_problem(command_id: str, value: object) -> str:
    """What is wrong with the setting ``command_id = value`` ("" when nothing)."""
    from tui.commands import BY_ID
    from tui.keys import normalise_key, typed_in_field

    if command_id not in BY_ID:
        return f"{_cut(command_id)}: no such command (the help screen lists their ids)"
    default = f"it keeps its default keys ({_default_keys(command_id)})"
    setting = f"{command_id} = {_cut(toml(value))}"
    if not isinstance(value, str):
        return f'{setting}: a key is written in quotes ({command_id} = "f"); {default}'
    if not value.replace(",", "").strip():
        return f"{setting}: no key given; {default}"
    for key in value.split(","):
        if key.strip() and normalise_key(key) is None:
            return f"{setting}: {_cut(toml(key.strip()))} is not a key name; {default}"
    if BY_ID[command_id].scope == "search":  # the box's own: a letter there is typed
        for key in value.split(","):
            if key.strip() and typed_in_field(key):
                return f"{setting}: {_cut(toml(key.strip()))} is typed in the search box; {default}"
    return ""


def _cut(text: str) -> str:
    """A setting's name or value in a warning, cut past 80 characters (``shortened``): a
    thousand keys in one value, or a key of thousands of letters, made a toast over the whole
    screen."""
    from storage.text.words import shortened

    return shortened(text, 80)


def _set(name: str, value: object) -> str:
    """A setting as a warning names it (``new = "side"``), its name and value cut (``_cut``)."""
    return f"{_cut(name)} = {_cut(toml(value))}"


def _former_default(command_id: str, keys: str) -> bool:
    """Whether ``keys`` (normalised) are default keys ``command_id`` had before: a file
    written out then (``search_delete_word = "ctrl+w,alt+backspace"``, before ctrl+w became
    ``search_delete_to_space``'s) means the defaults, and now clashed with a command of them."""
    from tui.commands import BY_ID
    from tui.keys import normalise_key

    given = set(keys.split(","))
    return any(
        given == {normalise_key(k) or k for k in former.split(",")}
        for former in BY_ID[command_id].former
    )


def _forget_former_defaults(keymap: dict[str, str]) -> None:
    """Read as its defaults now a command's setting that repeats its former default keys
    (``_former_default``) where, read as written, a key of it would clash with a command on
    its screen that keeps its own defaults (ctrl+w, ``search_delete_to_space``'s now): the
    file was written out before the default changed. Where nothing keeps that key (the user
    moved ``search_delete_to_space`` to ctrl+k), the setting is the user's choice, kept:
    it was dropped, and ctrl+w did nothing in the search box. A dialog's closing command's
    is read as its defaults always: they only add ways out (q; the opener's key as remapped:
    ``similar_close = "escape,q,m"`` with ``similar = "w"`` closed at m and not at w)."""
    from tui.commands import BY_ID, SCOPES, closes, keys_for, on_screen
    from tui.keys import normalise_key

    for command_id, keys in list(keymap.items()):
        if not _former_default(command_id, keys):
            continue
        if closes(BY_ID[command_id]):
            del keymap[command_id]
            continue
        mine = set(keys.split(","))
        for scope in SCOPES:
            together = on_screen(scope)
            if BY_ID[command_id] not in together:
                continue
            taken = {
                normalise_key(k) or k
                for c in together
                if c.id != command_id and c.id not in keymap
                for k in keys_for(c, keymap)
            }
            if mine & taken:
                del keymap[command_id]
                break


def _default_keys(command_id: str) -> str:
    """A command's default keys as people write them (``?``, not ``question_mark``)."""
    from tui.commands import BY_ID, key_label, keys_for

    return ", ".join(key_label(key) for key in keys_for(BY_ID[command_id], {}))


def toml(value: object, depth: int = 0) -> str:
    """A setting's value as it is written in TOML (``true``, ``"red"``, ``["x"]``), for a
    message naming it: not as Python writes it (``True``, ``'red'``); an array or table
    nested past a few levels as ``[…]`` (one nested hundreds deep, which TOML reads, ran
    this out of stack)."""
    if depth > _SHOWN_DEPTH and isinstance(value, list | dict):
        return "[…]" if isinstance(value, list) else "{ … }"
    if isinstance(value, bool):
        return "true" if value else "false"
    if isinstance(value, str):
        return json.dumps(value, ensure_ascii=False)
    if isinstance(value, list):
        return "[" + ", ".join(toml(item, depth + 1) for item in value) + "]"
    if isinstance(value, dict):
        shown = (f"{key} = {toml(item, depth + 1)}" for key, item in value.items())
        return "{ " + ", ".join(shown) + " }"
    return str(value)  # numbers; dates and times as TOML writes them


#: How deep a value's arrays and tables are written out in a message.
_SHOWN_DEPTH = 3
#: The tables config.toml is read for; any other is named, not ignored in silence.
TABLES = ("keys", "sync", "queue", "pdf", "venues")


def _unknown_tables(data: dict[str, object], path: Path, config: Config) -> None:
    """Name each table or setting at the top of the file that nothing reads (``[Sync]``:
    tables are named in lower case), with the table it likely means."""
    import difflib

    for name, value in data.items():
        if name in TABLES:
            continue
        near = [t for t in TABLES if t == name.casefold()] or difflib.get_close_matches(
            name.casefold(), TABLES, n=1
        )
        meant = f" (did you mean [{near[0]}]?)" if near else f" (tables: {', '.join(TABLES)})"
        named = _cut(name)
        what = (
            f"[{named}]: no such table" if isinstance(value, dict) else f"{named}: no such setting"
        )
        config.problem("", f"{path}: {what}, ignored{meant}")


def _scope_words(scope: str) -> str:
    named = {
        "main": "the main screen",
        "app": "every screen",
        "pane": "the paper pane",
        "search": "the search box",
    }
    return named.get(scope, f"the {scope} dialog" if scope != "path" else "path fields")


def _drop_clashes(
    keymap: dict[str, str], set_in: dict[str, Path], followed: Collection[str] = ()
) -> list[str]:
    """Put back the default keys of remapped commands whose keys clash on one screen.

    Keys shared by different screens are fine (``s`` stars on the main screen and in the bulk
    dialog); the app's own keys (``ctrl+q``) count on every screen. Returns the warnings.
    """
    problems: list[str] = []
    while True:
        clash = _first_clash(keymap)
        if clash is None:
            return problems
        key, scope, names = clash
        mine = [name for name in names if name in keymap]
        # a key a dialog took from the main screen's gives way to one set for it there
        mine = [name for name in mine if name in followed] or mine
        where = set_in[mine[0]]
        defaults = "; ".join(_default_keys(name) for name in mine)
        keep = "keeps its default keys" if len(mine) == 1 else "keep their default keys"
        # a key a dialog took from the main screen's, on one of the dialog's own default keys
        # (star = "q": the bulk dialog's q cancels) is not taken, unsaid: the user set neither
        said = not all(name in followed for name in mine) or any(
            name in set_in for name in names if name not in mine
        )
        if said:
            problems.append(
                f"{where}: [keys] {' and '.join(names)} both bind {_key_shown(key)} on "
                f"{_scope_words(scope)}; "
                f"{', '.join(mine)} {keep} ({defaults})"
            )
        for name in mine:
            del keymap[name]


def _key_shown(key: str) -> str:
    """A key in a message: as people write it, quoted (``"?"``, ``"ctrl+q"``)."""
    from tui.commands import key_label

    return toml(key_label(key))


def _first_clash(keymap: dict[str, str]) -> tuple[str, str, list[str]] | None:
    """The first key two commands of one screen share, one of them remapped: (key, screen,
    commands)."""
    from tui.commands import SCOPES, keys_for, on_screen
    from tui.keys import clashes, normalise_key

    for scope in SCOPES:
        # the search box's keys share it with the screen's that act while typing (Esc…)
        together = on_screen(scope)
        keys = {c.id: [normalise_key(k) or k for k in keys_for(c, keymap)] for c in together}
        for key, names in clashes(keys).items():
            if any(name in keymap for name in names):
                return key, scope, names
    return None
