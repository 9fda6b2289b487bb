"""Running a bench script end to end, for the scripts' smoke tests."""

import subprocess
import sys
from pathlib import Path

BENCH = Path(__file__).parent


def run_script(script: str, *args: str, timeout: float = 120) -> str:
    """``python bench/SCRIPT ARGS`` from bench/; its stdout (the test fails on a non-zero exit,
    showing the end of stderr)."""
    done = subprocess.run(
        [sys.executable, str(BENCH / script), *args],
        capture_output=True,
        text=True,
        timeout=timeout,
        cwd=BENCH,
    )
    assert done.returncode == 0, done.stderr[-2000:]
    return done.stdout
