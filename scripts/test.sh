#!/usr/bin/env bash
# Runs every test: the Rust core under cargo test, the native module's stubs against the built
# module (mypy's stubtest), then the Python suite under pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p fogsearch-core
python3 -m mypy.stubtest fogsearch._core
python3 -m pytest -q "$@"
