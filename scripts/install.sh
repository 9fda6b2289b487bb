#!/usr/bin/env bash
# Installs everything fogsearch needs on a fresh Debian machine with Rust and Python:
# Debian's Stockfish (TroutBot opponents, perft comparison), Debian's Chromium (the replay page's
# browser tests) and the package with its test extras.
set -euo pipefail
cd "$(dirname "$0")/.."

if ! command -v stockfish >/dev/null 2>&1 && [ ! -x /usr/games/stockfish ]; then
    if command -v apt-get >/dev/null 2>&1; then
        sudo_cmd=""
        [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
        $sudo_cmd apt-get update -qq
        DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq stockfish >/dev/null
    else
        echo "warning: apt-get not found; install Stockfish yourself for TroutBot games" >&2
    fi
fi

# Debian's Chromium: the replay page's browser tests (tests/test_replay_browser.py) drive it
# headless; they skip where it is missing.
if ! command -v chromium >/dev/null 2>&1 && command -v apt-get >/dev/null 2>&1; then
    sudo_cmd=""
    [ "$(id -u)" -ne 0 ] && sudo_cmd="sudo"
    $sudo_cmd apt-get update -qq
    DEBIAN_FRONTEND=noninteractive $sudo_cmd apt-get install -y -qq chromium >/dev/null
fi

python3 -m pip install --quiet --disable-pip-version-check -e ".[test]"
# pyenv installs need a rehash before new console scripts (`fogsearch`, `rc-bot-match`) are found.
if command -v pyenv >/dev/null 2>&1; then pyenv rehash; fi
python3 -c "import fogsearch; print('fogsearch', fogsearch.__version__, 'installed')"
