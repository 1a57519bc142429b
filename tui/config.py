"""The user's configuration: key remapping from ``config.toml``.

```toml
[keys]
star = "f"          # a command id (see the help screen) = one key or several, comma-separated
skip = "x,delete"
```
Read from the platform's config folder, then HOME (HOME wins). A file that does not parse is
reported and ignored: the app opens with the default keys.
"""

from __future__ import annotations

import tomllib
from collections.abc import Sequence
from dataclasses import dataclass, field
from pathlib import Path

from tui.commands import BY_ID


@dataclass(slots=True)
class Config:
    """What the config files said, and what was wrong with them."""

    keymap: dict[str, str] = field(default_factory=dict)
    problems: list[str] = field(default_factory=list)


def load_config(paths: Sequence[Path]) -> Config:
    """Read the config files in order; later files override earlier ones."""
    config = Config()
    for path in paths:
        if not path.is_file():
            continue
        try:
            data = tomllib.loads(path.read_text(encoding="utf-8"))
        except (OSError, UnicodeDecodeError, tomllib.TOMLDecodeError) as exc:
            config.problems.append(f"{path}: ignored, it does not parse ({exc})")
            continue
        keys = data.get("keys", {})
        if not isinstance(keys, dict):
            config.problems.append(f'{path}: [keys] must be a table of command = "key"')
            continue
        for command_id, value in keys.items():
            if command_id not in BY_ID:
                config.problems.append(f"{path}: unknown command {command_id!r} in [keys]")
            elif not isinstance(value, str) or not value.strip():
                config.problems.append(f"{path}: keys for {command_id!r} must be a string")
            else:
                config.keymap[command_id] = ",".join(k.strip() for k in value.split(","))
    return config
