"""The text package and derived titles are pure standard library (plus storage.text itself).

Every module of storage/text and storage/sources/titles is read with ``ast``: nothing outside the
standard library is imported, so text rules stay fast to import and free of third-party parsers.
The exceptions, each imported inside a function: pylatexenc's table of symbol commands, which
``storage.text.latex`` reads when a text first holds a command its own table lacks, and
markdown-it-py, with which ``storage.text.markdown_html`` checks that a note it leaves as code
holds no raw HTML.
"""

from __future__ import annotations

import ast
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parents[2]
PACKAGES = {
    "storage/text": {
        "storage.text",
        "pylatexenc.latex2text",
        "pylatexenc.latexwalker",
        "markdown_it",
    },
    "storage/sources/titles": {"storage.text", "storage.sources.titles"},
}


def imported_modules(path: Path) -> set[str]:
    tree = ast.parse(path.read_text(encoding="utf-8"))
    found: set[str] = set()
    for node in ast.walk(tree):
        if isinstance(node, ast.ImportFrom):
            assert node.level == 0, f"{path.name}: relative import"
            found.add(node.module or "")
        elif isinstance(node, ast.Import):
            found.update(alias.name for alias in node.names)
    return found


@pytest.mark.parametrize(
    "path",
    [p for folder in PACKAGES for p in sorted((ROOT / folder).glob("*.py"))],
    ids=lambda p: str(p.relative_to(ROOT)),
)
def test_modules_import_only_the_standard_library_and_the_text_package(path: Path) -> None:
    allowed = PACKAGES[str(path.parent.relative_to(ROOT))]
    for module in imported_modules(path):
        top = module.split(".")[0]
        inside = any(module == p or module.startswith(p + ".") for p in allowed)
        assert top in sys.stdlib_module_names or inside, f"{path.name} imports {module}"
