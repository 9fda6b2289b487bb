"""The repository's documents and comments name no path outside it, and every repository file
they cite exists: a report whose evidence is on one machine, or a comment that justifies a default
by a file that is gone, cannot be checked by its reader."""

from __future__ import annotations

import re
import subprocess
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent

# An absolute path of some machine: a Unix home, scratch or mount folder, or a Windows drive. Not
# after a word character, a dot or a slash, so that a URL's path ("https://x.org/home/") passes.
ABSOLUTE = re.compile(
    r"(?<![\w.:/~-])(?:/(?:work|home|tmp|root|Users|mnt|media|srv|scratch|data)/"
    r"|[A-Za-z]:\\\\?[\w.-])"
)
# A file the text cites: a path under one of the repository's top folders, or a relative link.
TOP = "(?:tests|bench|python|rust|scripts|docs|\\.github)"
CITED = re.compile(
    rf"(?<![\w./-])((?:\.\./)*{TOP}/[\w./-]*[\w-]\.(?:py|pyi|rs|md|toml|sh|json|jsonl|png|csv|txt|yml|yaml)(?:\.gz)?)\b"
)
LINK = re.compile(r"\]\(([^)\s#]+)(?:#[^)]*)?\)")
# Outside the repository by a relative path (a sibling checkout's notes, for instance).
ESCAPES = re.compile(r"(?<![\w.])\.\./(?:shared|\.\./)")


def tracked(*patterns: str) -> list[Path]:
    out = subprocess.run(
        ["git", "ls-files", *patterns], cwd=ROOT, capture_output=True, text=True, check=True
    ).stdout.split()
    return [ROOT / p for p in out if (ROOT / p).is_file()]


MARKDOWN = tracked("*.md")
CODE = tracked("*.py", "*.pyi", "*.rs", "*.sh", "*.toml")


def comment_text(path: Path) -> str:
    """The comments and docstrings of a source file, roughly: every line from its comment mark
    on (``#`` or ``//``), and Python's triple-quoted text; code itself may name /tmp in a test."""
    lines = []
    text = path.read_text(errors="replace")
    mark = "//" if path.suffix == ".rs" else "#"
    for line in text.splitlines():
        if mark in line:
            lines.append(line[line.index(mark) :])
    if path.suffix in (".py", ".pyi"):
        lines += re.findall(r'"""(.*?)"""', text, re.S)
    return "\n".join(lines)


def exists(cited: str, source: Path) -> bool:
    for base in (ROOT, source.parent):
        target = (base / cited).resolve()
        if target.is_relative_to(ROOT) and target.exists():
            return True
    return False


def test_the_checks_see_files():
    assert ROOT / "README.md" in MARKDOWN and ROOT / "bench" / "RESULTS.md" in MARKDOWN
    assert any(p.suffix == ".rs" for p in CODE) and any(p.suffix == ".py" for p in CODE)


def test_the_patterns_catch_what_they_are_for():
    # Built from parts, so that this file itself names no absolute path.
    root = "/"
    assert ABSOLUTE.search(f"kept in `{root}work/evidence/s41`") and ABSOLUTE.search(
        f"{root}tmp/x.py"
    )
    assert ABSOLUTE.search("C:" + "\\Users\\me") and ABSOLUTE.search(f"see {root}home/me/notes")
    assert not ABSOLUTE.search("https://example.org/home/page and a/tmp/b")
    assert CITED.findall("the test `tests/test_docs.py` and bench/plots/a.png.") == [
        "tests/test_docs.py",
        "bench/plots/a.png",
    ]
    assert ESCAPES.search("from ../shared/NOTES.md") and not ESCAPES.search("[x](../README.md)")


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_markdown_names_no_path_outside_the_repository(path):
    text = path.read_text()
    bad = [m.group(0) for m in ABSOLUTE.finditer(text)] + ESCAPES.findall(text)
    assert not bad, bad


@pytest.mark.parametrize("path", MARKDOWN, ids=lambda p: str(p.relative_to(ROOT)))
def test_every_file_markdown_cites_exists(path):
    text = path.read_text()
    cited = set(CITED.findall(text))
    cited |= {
        link for link in LINK.findall(text) if "://" not in link and not link.startswith("mailto:")
    }
    missing = sorted(c for c in cited if not exists(c, path))
    assert not missing, missing


def test_code_comments_name_no_path_outside_the_repository():
    bad = []
    for path in CODE:
        text = comment_text(path)
        bad += [
            f"{path.relative_to(ROOT)}: {m.group(0)}"
            for pattern in (ABSOLUTE, ESCAPES)
            for m in pattern.finditer(text)
        ]
    assert not bad, bad


def test_every_file_code_comments_cite_exists():
    missing = []
    for path in CODE:
        for cited in set(CITED.findall(comment_text(path))):
            if not exists(cited, path):
                missing.append(f"{path.relative_to(ROOT)}: {cited}")
    assert not missing, missing


def test_results_is_a_report_a_reader_can_take_in():
    """RESULTS.md opens with its summary table and stays short; the history goes to NOTEBOOK.md."""
    text = (ROOT / "bench" / "RESULTS.md").read_text()
    assert len(text.splitlines()) <= 600
    first_section = text.split("\n## ", 2)[1]
    assert first_section.startswith("Summary") and "\n| area |" in first_section
