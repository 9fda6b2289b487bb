"""``fogsearch jps``: the text and JSON reports, one-line errors with exit code 2, Ctrl-C, and
the stubs of ``fogsearch._core.jps`` against the module."""

from __future__ import annotations

import ast
import inspect
import json
import signal
import subprocess
import sys
import time
import types
from pathlib import Path

import pytest
from interrupting import interruptible

import fogsearch
from fogsearch._core import jps as native
from fogsearch.cli import main as cli_main
from fogsearch.jps import run_seeds


def test_json_prints_exactly_the_five_numbers_of_run_seeds(capsys):
    argv = ["jps", "--game", "simple_bidding:n=4", "--init", "cfr1k", "--seeds", "12", "--json"]
    assert cli_main(argv) == 0
    out = json.loads(capsys.readouterr().out)
    assert list(out) == ["mean", "best", "states", "infosets", "seconds_per_iteration"]
    expected = run_seeds("simple_bidding:n=4", "cfr1k", 12)
    assert out["mean"] == pytest.approx(expected.mean) and out["best"] == expected.best
    assert (out["states"], out["infosets"]) == (241, 61)
    assert out["seconds_per_iteration"] > 0


def test_text_report_names_the_game_the_start_and_the_counts(capsys):
    argv = ["jps", "--game", "mini_hanabi", "--init", "uniform", "--seeds", "5", "--samples", "2"]
    assert cli_main([*argv, "--no-progress"]) == 0
    out = capsys.readouterr().out
    assert out.startswith("mini_hanabi: uniform + JPS (full depth, 2 samples per information set)")
    for line in ("mean reward", "best reward", "states       53", "infosets     45"):
        assert line in out
    assert "time per JPS iteration" in out


@pytest.mark.parametrize(
    "args, message",
    [
        (["--game", "poker", "--init", "cfr1k", "--seeds", "3"], "unknown game"),
        (["--game", "comm:l=9", "--init", "cfr1k", "--seeds", "3"], "between 1 and 7"),
        (["--game", "comm:l=3", "--init", "cfr1k", "--seeds", "0"], "use 1..1,000,000"),
        (
            ["--game", "comm:l=3", "--init", "uniform", "--seeds", "2", "--samples", "0"],
            "--samples",
        ),
        (["--game", "comm:l=3", "--init", "uniform", "--seeds", "2", "--threads", "999"], "1..256"),
        (["--game", "comm:l=3", "--init", "cfr2k", "--seeds", "2"], "invalid choice: 'cfr2k'"),
        (["--game", "comm:l=3", "--init", "cfr1k"], "--seeds"),
    ],
)
def test_user_errors_print_one_line_and_exit_2(args, message, capsys):
    assert cli_main(["jps", *args]) == 2
    err = capsys.readouterr().err
    assert err.count("\n") == 1 and err.startswith("fogsearch: error: ") and message in err
    assert "Traceback" not in err


def test_ctrl_c_stops_a_long_run_at_once():
    cmd = [sys.executable, "-m", "fogsearch", "jps", "--game", "comm:l=6", "--init", "cfr1k"]
    with interruptible(
        [*cmd, "--seeds", "100000", "--threads", "1"],
        stdout=subprocess.PIPE,
        stderr=subprocess.PIPE,
        text=True,
    ) as proc:
        time.sleep(3)
        start = time.monotonic()
        proc.send_signal(signal.SIGINT)
        _, err = proc.communicate(timeout=60)
    assert proc.returncode == 130, err
    assert err.strip().endswith("fogsearch: interrupted")
    assert time.monotonic() - start < 60


def _stub_signatures() -> dict[str, list[str] | None]:
    """Parameter names of every function and ``Game`` method in ``_core/jps.pyi`` (``None``
    for a property)."""
    stub = Path(fogsearch.__file__).parent / "_core" / "jps.pyi"
    out: dict[str, list[str]] = {}
    for node in ast.parse(stub.read_text()).body:
        defs = [node] if isinstance(node, ast.FunctionDef) else []
        if isinstance(node, ast.ClassDef):
            defs = [d for d in node.body if isinstance(d, ast.FunctionDef)]
        for d in defs:
            names = [a.arg for a in d.args.posonlyargs + d.args.args + d.args.kwonlyargs]
            prefix = f"{node.name}." if isinstance(node, ast.ClassDef) else ""
            is_property = any(getattr(x, "id", "") == "property" for x in d.decorator_list)
            params = [n for n in names if n not in ("self", "cls")]
            out[prefix + d.name] = None if is_property else params
    return out


def test_the_stubs_name_what_the_native_module_has():
    """A fast check of ``python -m mypy.stubtest fogsearch._core.jps`` (run that for the full
    one): the same public names and the same parameters."""
    stubs = _stub_signatures()
    functions = {k for k in stubs if "." not in k}
    assert functions == {n for n in native.__all__ if callable(getattr(native, n))} - {
        "Game",
        "JpsError",
    }
    for name, params in stubs.items():
        if name in ("Game.__new__",):
            continue
        obj = native
        for part in name.split("."):
            obj = getattr(obj, part)
        if params is None:
            assert isinstance(obj, types.GetSetDescriptorType), name
            continue
        runtime = [p for p in inspect.signature(obj).parameters if p != "self"]
        assert runtime == params, name
