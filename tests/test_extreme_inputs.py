"""No input aborts the interpreter, hangs, or leaks a Rust panic (a ``BaseException`` that
``except Exception`` misses): every public native function and method, driven with extreme values
(``tests/extreme_inputs.py``), returns or raises an ``Exception``. The drive runs in a child
process so that an abort or a hang fails this test instead of killing the suite."""

import subprocess
import sys
from pathlib import Path

SCRIPT = Path(__file__).with_name("extreme_inputs.py")


def test_every_native_call_survives_extreme_arguments():
    done = subprocess.run(
        [sys.executable, str(SCRIPT)], capture_output=True, text=True, timeout=600
    )
    report = done.stdout + done.stderr
    assert done.returncode == 0, report[-4000:]
    assert " 0 failures" in report
