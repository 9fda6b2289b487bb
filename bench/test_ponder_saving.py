"""bench/ponder_saving.py run end to end on three turns of a stored game against StrangeFish2."""

import subprocess
import sys
from pathlib import Path

GAMES = Path(__file__).parent.parent / "tests" / "data" / "games"


def test_ponder_saving_runs_and_pondering_keeps_the_senses():
    done = subprocess.run(
        [
            sys.executable,
            str(Path(__file__).parent / "ponder_saving.py"),
            str(GAMES / "sf2-game-0004.json"),
            "--log",
            str(GAMES / "sf2-game-0004-fog.txt"),
            "--turns",
            "3",
        ],
        capture_output=True,
        text=True,
        timeout=300,
    )
    assert done.returncode == 0, done.stderr
    assert "turns 3:" in done.stdout
    assert "same sense on 3 of 3 turns" in done.stdout
