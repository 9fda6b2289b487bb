"""Child processes that a test stops with SIGINT, as a user's Ctrl-C would stop them."""

from __future__ import annotations

import contextlib
import signal
import subprocess
from collections.abc import Iterator


def _default_sigint() -> None:
    # A shell that starts the suite in the background without job control ignores SIGINT, and
    # children inherit that: Python then installs no KeyboardInterrupt handler and Ctrl-C is lost.
    # A child must see SIGINT as a terminal user's process does.
    signal.signal(signal.SIGINT, signal.SIG_DFL)


@contextlib.contextmanager
def interruptible(command: list[str], **popen_kwargs) -> Iterator[subprocess.Popen]:
    """``Popen(command)`` with SIGINT at its default, killed on the way out if still running (a
    failed assertion must not leave a long run behind)."""
    proc = subprocess.Popen(command, preexec_fn=_default_sigint, **popen_kwargs)
    try:
        yield proc
    finally:
        if proc.poll() is None:
            proc.kill()
            proc.wait()
