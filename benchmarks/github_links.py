"""Score `extract_github_links` on the real ICLR 2025 abstracts against their `github` field.

Run from the repository root: `python benchmarks/github_links.py [path/to/iclr2025.jsonl]`.
Prints link-level precision and recall and every paper where the two disagree; exits quietly
with a message when the data file (kept outside the repository, in ../shared/data) is absent.
"""

from __future__ import annotations

import json
import sys
from pathlib import Path

sys.path.insert(0, str(Path(__file__).resolve().parents[1]))

from storage.sources.links import extract_github_links  # noqa: E402

DEFAULT_DATA = Path(__file__).resolve().parents[2] / "shared" / "data" / "iclr2025.jsonl"


def score(path: Path) -> tuple[int, int, int, list[tuple[str, list[str], list[str]]]]:
    """Return (true positives, extracted, expected, mismatches) over the file's papers."""
    true_positives = extracted = expected = 0
    mismatches: list[tuple[str, list[str], list[str]]] = []
    with path.open(encoding="utf-8") as lines:
        for line in lines:
            paper = json.loads(line)
            got = {link.lower(): link for link in extract_github_links(paper["abstract"])}
            want = {link.lower(): link for link in paper["github"]}
            true_positives += len(got.keys() & want.keys())
            extracted += len(got)
            expected += len(want)
            if got.keys() != want.keys():
                extra = [got[k] for k in got.keys() - want.keys()]
                missing = [want[k] for k in want.keys() - got.keys()]
                mismatches.append((paper["title"], extra, missing))
    return true_positives, extracted, expected, mismatches


def main() -> int:
    """Print precision, recall and mismatches; return the process exit code."""
    path = Path(sys.argv[1]) if len(sys.argv) > 1 else DEFAULT_DATA
    if not path.is_file():
        print(f"skipped: {path} not found (the real data lives outside the repository)")
        return 0
    true_positives, extracted, expected, mismatches = score(path)
    precision = true_positives / extracted if extracted else 1.0
    recall = true_positives / expected if expected else 1.0
    print(f"links extracted {extracted}, in the github field {expected}, agreed {true_positives}")
    print(f"precision {precision:.4%}  recall {recall:.4%}")
    for title, extra, missing in mismatches:
        print(f"- {title}")
        for link in extra:
            print(f"    only extracted: {link}")
        for link in missing:
            print(f"    only in field:  {link}")
    return 0


if __name__ == "__main__":
    raise SystemExit(main())
