"""Every core means the cores this process may use: its CPU affinity, in Python and in the native
module alike (issue 47, item 2)."""

from __future__ import annotations

import os
import subprocess
import sys

import pytest

from fogsearch.arguments import cores

PINNED = """
import os, sys
os.sched_setaffinity(0, {%d})
from fogsearch.arguments import cores
from fogsearch.bot.config import every_core
from fogsearch._core.rbc import BoardSet
print(cores(), every_core(), BoardSet(True).threads)  # the native default: Rust's own count
"""


def test_cores_is_the_affinity_mask_where_the_platform_has_one():
    if hasattr(os, "sched_getaffinity"):
        assert cores() == len(os.sched_getaffinity(0))
    else:
        assert cores() == (os.cpu_count() or 1)


@pytest.mark.skipif(not hasattr(os, "sched_setaffinity"), reason="no CPU affinity here")
def test_a_process_pinned_to_one_core_defaults_to_one_thread_in_python_and_in_the_core():
    core = min(os.sched_getaffinity(0))
    out = subprocess.run(
        [sys.executable, "-c", PINNED % core],
        capture_output=True,
        text=True,
        timeout=120,
        env=os.environ.copy(),
        check=True,
    )
    assert out.stdout.split() == ["1", "1", "1"]
