"""The README's Python examples run as written (they are the first code a user copies)."""

from __future__ import annotations

import re
from pathlib import Path

import pytest

README = Path(__file__).parents[1] / "README.md"
EXAMPLES = re.findall(r"```python\n(.*?)```", README.read_text(), re.S)


def test_the_readme_has_python_examples():
    assert len(EXAMPLES) >= 2


@pytest.mark.parametrize("index", range(len(EXAMPLES)))
def test_a_readme_example_runs(index, capsys):
    exec(compile(EXAMPLES[index], f"README.md example {index}", "exec"), {})
    assert capsys.readouterr().out  # each example prints what it shows
