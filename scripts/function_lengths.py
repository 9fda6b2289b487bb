"""Lists the Rust functions of a source tree longer than a limit, longest first, leaving out
`#[cfg(test)]` items (test modules and test-only files declared `#[cfg(test)] mod`).

    python3 scripts/function_lengths.py rust/fogsearch-core/src 100

A function's length runs from its `fn` line to its closing brace. Exits 1 when any function is
longer than the limit, so it can serve as a check (issue 48: no core function over 100 lines).
"""

from __future__ import annotations

import re
import sys
from pathlib import Path

FN = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?(const\s+)?(unsafe\s+)?fn\s+(\w+)")
TEST_MOD = re.compile(r"^\s*(pub(\([^)]*\))?\s+)?mod\s+(\w+)\s*;")


def code(line: str) -> str:
    """The line without string and character literals and comments, for counting braces."""
    line = re.sub(r'"([^"\\]|\\.)*"', '""', line)
    line = re.sub(r"'(\\.|[^\\'])'", "", line)
    return line.split("//")[0]


def item_end(lines: list[str], start: int) -> tuple[int, bool]:
    """The last line of the item starting at ``start`` and whether it has a body."""
    depth, opened = 0, False
    for j in range(start, len(lines)):
        text = code(lines[j])
        depth += text.count("{") - text.count("}")
        opened = opened or "{" in text
        if opened and depth <= 0:
            return j, True
        if not opened and text.rstrip().endswith(";"):
            return j, False
    return len(lines) - 1, opened


def test_only_files(root: Path) -> set[Path]:
    """Files declared as `#[cfg(test)] mod name;`."""
    found = set()
    for path in root.rglob("*.rs"):
        lines = path.read_text().splitlines()
        for i, line in enumerate(lines[:-1]):
            match = TEST_MOD.match(lines[i + 1])
            if line.strip() == "#[cfg(test)]" and match:
                folder = path.parent if path.name in ("mod.rs", "lib.rs") else path.with_suffix("")
                found.add(folder / f"{match.group(3)}.rs")
    return found


def functions(path: Path) -> list[tuple[int, int, str]]:
    """(length, first line, name) of every function of ``path`` outside `#[cfg(test)]` items."""
    lines = path.read_text().splitlines()
    found, i = [], 0
    while i < len(lines):
        if lines[i].strip() == "#[cfg(test)]":
            i = item_end(lines, i + 1)[0] + 1
            continue
        match = FN.match(lines[i])
        if match:
            end, has_body = item_end(lines, i)
            if has_body:
                found.append((end - i + 1, i + 1, match.group(5)))
        i += 1
    return found


def main() -> int:
    root = Path(sys.argv[1])
    limit = int(sys.argv[2]) if len(sys.argv) > 2 else 100
    skipped = test_only_files(root)
    rows = [
        (length, f"{path.relative_to(root)}:{line}", name)
        for path in sorted(root.rglob("*.rs"))
        if path not in skipped
        for length, line, name in functions(path)
        if length > limit
    ]
    for length, place, name in sorted(rows, reverse=True):
        print(f"{length:5d} {place} {name}")
    return 1 if rows else 0


if __name__ == "__main__":
    sys.exit(main())
