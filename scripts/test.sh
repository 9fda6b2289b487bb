#!/usr/bin/env bash
# Runs every test: the Rust core under cargo test, then the Python suite under pytest.
set -euo pipefail
cd "$(dirname "$0")/.."
cargo test -p fogsearch-core
python3 -m pytest -q "$@"
