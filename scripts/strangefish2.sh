#!/usr/bin/env bash
# Sets up StrangeFish2 (ginoperrotta/reconchess-strangefish2, BSD-3-Clause) as a sparring partner,
# outside this repository: its code is never part of fogsearch.
#
#   bash scripts/strangefish2.sh [DIR]          (default DIR: ~/strangefish2)
#
# Clones it at the commit fogsearch was measured against into DIR/repo, makes a Python 3.10
# virtual environment in DIR/venv with its pins (on 3.11 its random.sample over a set raises),
# and prints the variables `fogsearch tournament` needs to run it behind `python=`.
# STRANGEFISH2_REPO names another source to clone (a mirror, a local clone).
set -euo pipefail

DIR="${1:-$HOME/strangefish2}"
REPO="${STRANGEFISH2_REPO:-https://github.com/ginoperrotta/reconchess-strangefish2}"
COMMIT=47e61a01b68f96239132749ecdba3597889b74a4 # "NeurIPS 2022 Competition StrangeFish2 agent"
PINS=(reconchess==1.6.9 chess==1.11.2 numpy tqdm click)

mkdir -p "$DIR"
if [ ! -d "$DIR/repo/.git" ]; then
    git clone --quiet "$REPO" "$DIR/repo"
fi
git -C "$DIR/repo" checkout --quiet "$COMMIT"

# Python 3.10: $PYTHON310, python3.10 on the PATH, a pyenv 3.10, or one that uv installs. Each
# candidate must run (a pyenv shim for a version not selected is on the PATH but fails).
is_310() { [ -n "$1" ] && "$1" -c 'import sys; sys.exit(sys.version_info[:2] != (3, 10))' 2>/dev/null; }
python310=""
candidates=("${PYTHON310:-}" "$(command -v python3.10 || true)")
if command -v pyenv >/dev/null 2>&1; then
    for version in "$(pyenv root)"/versions/3.10*; do candidates+=("$version/bin/python3.10"); done
fi
for candidate in "${candidates[@]}"; do
    if is_310 "$candidate"; then python310="$candidate"; break; fi
done
if [ -z "$python310" ] && command -v uv >/dev/null 2>&1; then
    uv python install 3.10 >/dev/null
    python310="$(uv python find 3.10)"
fi
if [ -z "$python310" ]; then
    echo "error: StrangeFish2 needs Python 3.10: install it, or set PYTHON310 to its interpreter" >&2
    exit 2
fi
if [ ! -x "$DIR/venv/bin/python" ]; then
    "$python310" -m venv "$DIR/venv"
fi
"$DIR/venv/bin/python" -m pip install --quiet --disable-pip-version-check "${PINS[@]}"

if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    echo "warning: no Stockfish found; scripts/install.sh installs Debian's" >&2
fi
stockfish="$(command -v stockfish || echo /usr/games/stockfish)"
cat <<EOF
StrangeFish2 is ready in $DIR. Before a match:
export STRANGEFISH2_DIR=$DIR/repo STOCKFISH_EXECUTABLE=$stockfish STRANGEFISH2_PYTHON=$DIR/venv/bin/python
EOF
