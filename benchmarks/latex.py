"""LaTeX → Unicode: our converter beside pylatexenc, on the real abstracts and on hostile input.

Run from the repository root: ``python -m benchmarks.latex [--sample N] [--seed S] [--limit S]``.

Prints:

* how many of the real abstracts (and of those with LaTeX in them) read differently, for two
  ways of using pylatexenc: on its own, and as the TeX pass inside our pipeline (HTML entities,
  Markdown, whitespace, paragraphs and the linear-time guard stay ours, only ``_Parser`` is
  swapped), with the number of texts on which pylatexenc raised;
* a sample of differences side by side: each LaTeX snippet of a differing abstract (a ``$...$``
  span or a command with its arguments) with the two readings of it;
* the time of each on the whole file, and on hostile inputs (a megabyte of ``{``, ``$``, ``\\``,
  ``^_``, braces 100k deep, ...), each run in a child process with a time limit.

Skips cleanly (exit code 0, with a message) when the data file or pylatexenc is absent:
pylatexenc is not a dependency of papers-tui (``pip install pylatexenc`` to run this).
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import random
import re
import sys
import time
from collections.abc import Callable
from pathlib import Path
from typing import Any

from storage.text import latex
from storage.text.latex import to_unicode

DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iclr2025.jsonl"

# A `$...$` span, or a command with up to three brace groups (one level of nesting inside).
_GROUP = r"\{(?:[^{}]|\{[^{}]*\})*\}"
_SNIPPET = re.compile(rf"\$\$?[^$]{{1,300}}\$\$?|\\[A-Za-z]+\*?(?:\s*{_GROUP}){{0,3}}")
_HAS_LATEX = re.compile(r"\\[A-Za-z]|\$[^$]{1,300}\$")
MEGABYTE = 1_000_000

Converter = Callable[[str], str]


def _one_line(text: str) -> str:
    return " ".join(text.split())


def pylatexenc_converters() -> tuple[Converter, Converter, str]:
    """pylatexenc on its own and inside our pipeline, and its version (raises ImportError)."""
    import pylatexenc
    from pylatexenc.latex2text import LatexNodes2Text

    # keep_comments: abstracts write "50%" unescaped, and TeX's comment rule would drop the rest
    # of the abstract; every other option is pylatexenc's default.
    nodes = LatexNodes2Text(math_mode="text", keep_comments=True)

    def alone(text: str) -> str:
        paragraphs = (_one_line(p) for p in re.split(r"\n\s*\n", text))
        return "\n\n".join(nodes.latex_to_text(p) for p in paragraphs if p)

    class Pass:
        """Stands in for our ``_Parser``: the same interface, pylatexenc's reading."""

        def __init__(self, source: str) -> None:
            self.source = source

        def render(self) -> str:
            try:
                return str(nodes.latex_to_text(self.source))
            except Exception:  # pylatexenc raises on some input; show the source then
                return self.source

    def in_pipeline(text: str) -> str:
        ours = latex._Parser
        setattr(latex, "_Parser", Pass)  # noqa: B010 - swap the TeX pass for this one call
        try:
            return to_unicode(text)
        finally:
            setattr(latex, "_Parser", ours)  # noqa: B010

    return alone, in_pipeline, getattr(pylatexenc, "__version__", "?")


def _safe(convert: Converter, text: str) -> tuple[str, str]:
    """The reading of ``text``, or ``""`` and the name of the exception it raised."""
    try:
        return convert(text), ""
    except RecursionError:
        return "", "RecursionError"
    except Exception as error:
        return "", type(error).__name__


def compare(
    abstracts: list[str], converters: dict[str, Converter]
) -> dict[str, list[tuple[str, str, str]]]:
    """Print how many abstracts read differently; return differing snippets per candidate."""
    ours = [to_unicode(a) for a in abstracts]
    with_latex = {i for i, a in enumerate(abstracts) if _HAS_LATEX.search(a)}
    print(f"abstracts: {len(abstracts)}, with LaTeX (a command or a $...$ span): {len(with_latex)}")
    snippets: dict[str, list[tuple[str, str, str]]] = {}
    for name, convert in converters.items():
        differ: list[int] = []
        raised: dict[str, int] = {}
        for i, abstract in enumerate(abstracts):
            theirs, error = _safe(convert, abstract)
            if error:
                raised[error] = raised.get(error, 0) + 1
            if _one_line(theirs) != _one_line(ours[i]):
                differ.append(i)
        in_latex = sum(1 for i in differ if i in with_latex)
        errors = ", ".join(f"{n} {e}" for e, n in sorted(raised.items())) or "none"
        print(
            f"{name}: {len(differ)} abstracts read differently ({in_latex} of the "
            f"{len(with_latex)} with LaTeX, {len(differ) - in_latex} without); raised: {errors}"
        )
        seen: set[str] = set()
        found: list[tuple[str, str, str]] = []
        for i in differ:
            for match in _SNIPPET.finditer(abstracts[i]):
                source = match.group()
                if source in seen:
                    continue
                seen.add(source)
                mine = to_unicode(source)
                reading, error = _safe(convert, source)
                shown = f"<{error}>" if error else reading
                if _one_line(mine) != _one_line(shown):
                    found.append((source, mine, shown))
        print(f"  distinct LaTeX snippets that read differently: {len(found)}")
        snippets[name] = found
    return snippets


def print_sample(name: str, found: list[tuple[str, str, str]], sample: int, seed: int) -> None:
    """Print ``sample`` differing snippets: source | ours | pylatexenc."""
    chosen = random.Random(seed).sample(found, min(sample, len(found)))
    print(f"\n== {len(chosen)} of {len(found)} differing snippets ({name}) ==")
    for k, (source, mine, theirs) in enumerate(chosen, 1):
        print(f"{k:>3}. {source[:90]}")
        print(f"       ours:       {mine[:90]}")
        print(f"       pylatexenc: {theirs[:90]}")


def best_time(convert: Converter, texts: list[str], repeat: int = 3) -> float:
    """Best wall time of ``repeat`` runs of ``convert`` over ``texts``, exceptions ignored."""
    best = float("inf")
    for _ in range(repeat):
        start = time.perf_counter()
        for text in texts:
            _safe(convert, text)
        best = min(best, time.perf_counter() - start)
    return best


HOSTILE: dict[str, Callable[[], str]] = {
    "1 MB of {": lambda: "{" * MEGABYTE,
    "1 MB of }": lambda: "}" * MEGABYTE,
    "1 MB of $": lambda: "$" * MEGABYTE,
    "1 MB of \\": lambda: "\\" * MEGABYTE,
    "1 MB of ^_": lambda: "^_" * (MEGABYTE // 2),
    "braces 100k deep": lambda: "{" * 100_000 + "x" + "}" * 100_000,
    "\\frac{ 50k deep": lambda: "\\frac{" * 50_000 + "x" + "}" * 50_000,
    "braces 9k deep (under the guard)": lambda: "{" * 9_000 + "x" + "}" * 9_000,
    "1 MB of prose, $x_i$ every 400 chars": lambda: ("word " * 79 + "$x_i$ ") * 2_500,
    "1 MB of prose, no markup": lambda: "word " * (MEGABYTE // 5),
}


def _child(convert: Converter, make: Callable[[], str], out: Any) -> None:
    text = make()
    start = time.perf_counter()
    result, error = _safe(convert, text)
    out.put((time.perf_counter() - start, error, len(result)))


def timed_in_child(convert: Converter, make: Callable[[], str], limit: float) -> str:
    """Run ``convert`` on ``make()`` in a forked child; its time, or why it did not finish."""
    context = multiprocessing.get_context("fork")
    out = context.Queue()
    child = context.Process(target=_child, args=(convert, make, out))
    child.start()
    child.join(limit)
    if child.is_alive():
        child.kill()
        child.join()
        return f"> {limit:.0f} s (stopped)"
    if out.empty():
        return f"died (exit {child.exitcode})"
    seconds, error, length = out.get()
    return f"{seconds:8.3f} s  " + (f"raised {error}" if error else f"{length:,} chars out")


def main(argv: list[str]) -> int:
    """Compare, print the sample and the timings; return the process exit code."""
    parser = argparse.ArgumentParser(prog="python -m benchmarks.latex")
    parser.add_argument("--sample", type=int, default=30, help="differing snippets to print")
    parser.add_argument("--seed", type=int, default=10, help="seed of the sample")
    parser.add_argument("--limit", type=float, default=30.0, help="seconds per hostile run")
    parser.add_argument("--data", type=Path, default=DATA)
    args = parser.parse_args(argv)
    if not args.data.is_file():
        print(f"skipped: {args.data} not found (the real data lives outside the repository)")
        return 0
    try:
        alone, in_pipeline, version = pylatexenc_converters()
    except ImportError:
        print("skipped: pylatexenc is not installed (pip install pylatexenc)")
        return 0
    with args.data.open(encoding="utf-8") as lines:
        abstracts = [str(json.loads(line).get("abstract") or "") for line in lines]
    print(f"pylatexenc {version}\n")
    converters = {"pylatexenc alone": alone, "pylatexenc in our pipeline": in_pipeline}
    snippets = compare(abstracts, converters)
    chosen = "pylatexenc in our pipeline"
    print_sample(chosen, snippets[chosen], args.sample, args.seed)

    print("\n== Time on the real abstracts (best of 3) ==")
    for name, convert in [("ours", to_unicode), *converters.items()]:
        seconds = best_time(convert, abstracts)
        per = seconds / len(abstracts) * 1e6
        print(f"{name:<28} {seconds:7.3f} s  ({per:,.0f} µs per abstract)")

    print(f"\n== Hostile input (each in a child process, stopped after {args.limit:.0f} s) ==")
    for case, make in HOSTILE.items():
        print(case)
        for name, convert in [("ours", to_unicode), *converters.items()]:
            print(f"    {name:<28} {timed_in_child(convert, make, args.limit)}", flush=True)
    return 0


if __name__ == "__main__":
    raise SystemExit(main(sys.argv[1:]))
