"""The README's picture of the replay page: a mid-game turn of the StrangeFish2 game in tests/data,
from the fogsearch bot's side (Black), taken in headless Chromium.

    python bench/replay_screenshot.py [--turn 14] [--out bench/plots/replay_page.png]
"""

from __future__ import annotations

import argparse
import sys
import tempfile
from pathlib import Path

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "tests"))

from cdp_pipe import Browser, find_browser  # noqa: E402

from fogsearch.replay import build_page, read_history, write_page  # noqa: E402
from fogsearch.replay.turn_log import read_turn_log  # noqa: E402

GAME = ROOT / "tests" / "data" / "sf2-game-0001.json"
LOG = ROOT / "tests" / "data" / "sf2-game-0001-fog.txt"


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("--turn", type=int, default=14)
    p.add_argument("--out", type=Path, default=ROOT / "bench" / "plots" / "replay_page.png")
    args = p.parse_args()
    browser_path = find_browser()
    if browser_path is None:
        raise SystemExit("no chromium on PATH (scripts/install.sh installs it)")
    history = read_history(GAME)
    with tempfile.TemporaryDirectory() as tmp:
        page = write_page(Path(tmp) / "game.html", build_page(history, read_turn_log(LOG, history)))
        with Browser(browser_path, width=1150, height=1000) as browser:
            browser.open(page)
            browser.evaluate("document.querySelector('[data-side-button=\"1\"]').click()")
            browser.evaluate(f"go({args.turn - 1})")
            if browser.errors:
                raise SystemExit(f"the page reported errors: {browser.errors}")
            browser.screenshot(args.out)
    print(f"wrote {args.out}")


if __name__ == "__main__":
    main()
