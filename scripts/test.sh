#!/usr/bin/env bash
# Runs every test: the Rust core under cargo test, the native module's stubs against the built
# module (mypy's stubtest), then the Python suite under pytest: the quick default run, the slow
# evidence tests (marked `slow`, left out of a plain `pytest`), and one smoke run of each bench
# script (bench/, marked `bench_smoke`). Arguments go to the first pytest run.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p fogsearch-core
python3 -m mypy.stubtest fogsearch._core
python3 -m pytest -q "$@"
python3 -m pytest -q -m slow tests
python3 -m pytest -q -m bench_smoke bench
