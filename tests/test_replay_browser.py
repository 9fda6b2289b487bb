"""The replay page in a real headless Chromium: it loads without a console error, shows the first
turn, steps on the right arrow, and its heatmap numbers are square_distribution() of the set that
tracking computes for that turn."""

from pathlib import Path

import chess
import numpy as np
import pytest
from cdp_pipe import Browser, find_browser

from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet
from fogsearch.replay import build_page, read_history, write_page
from fogsearch.replay.turn_log import read_turn_log
from fogsearch.tracking import observations

DATA = Path(__file__).parent / "data"
GAME = DATA / "sf2-game-0001.json"
BROWSER = find_browser()
pytestmark = pytest.mark.skipif(
    BROWSER is None, reason="no chromium on PATH (scripts/install.sh installs Debian's)"
)


def set_before_move(history, color: chess.Color, turn: int) -> BoardSet:
    """The side's set after its sense on ``turn`` (1-based), tracked with fogsearch.tracking's
    observations, independently of the page's code."""
    board_set = BoardSet(color)
    for seen in observations(history, color):
        if seen.turn_number == turn - 1 and isinstance(seen.observation, MoveResult):
            return board_set
        seen.apply(board_set)
    return board_set


def heatmap(browser: Browser) -> np.ndarray:
    cells = browser.evaluate(
        "Array.from(document.querySelectorAll('#belief .belief-sq'))"
        ".map(e => [+e.dataset.sq, +e.dataset.p])"
    )
    assert len(cells) == 64
    out = np.zeros(64)
    for sq, p in cells:
        out[sq] = p
    return out


@pytest.fixture(scope="module")
def page(tmp_path_factory) -> Path:
    history = read_history(GAME)
    logs = read_turn_log(DATA / "sf2-game-0001-fog.txt", history)
    path = tmp_path_factory.mktemp("replay") / "game.html"
    write_page(path, build_page(history, logs))
    return path


def test_the_page_steps_through_turns_and_shows_the_exact_belief(page):
    history = read_history(GAME)
    with Browser(BROWSER) as browser:
        browser.open(page)
        assert browser.errors == []
        assert browser.evaluate("document.body.dataset.turn") == "1"
        assert browser.evaluate("document.body.dataset.side") == "white"
        browser.press("ArrowRight", 39)
        assert browser.evaluate("document.body.dataset.turn") == "2"

        for turn, side in ((2, chess.WHITE), (9, chess.BLACK)):
            browser.evaluate(f"go({turn - 1})")
            button = 0 if side == chess.WHITE else 1
            browser.evaluate(f"document.querySelector('[data-side-button=\"{button}\"]').click()")
            reference = set_before_move(history, side, turn).square_distribution()
            opponent = 7 if side == chess.WHITE else 1  # the opponent's pawn column
            assert len(set_before_move(history, side, turn)) > 1
            # "all": the six opponent pieces' shares summed (each stored to 1e-4).
            browser.evaluate("document.querySelector('[data-piece=\"0\"]').click()")
            expected = reference[:, opponent : opponent + 6].sum(axis=1)
            np.testing.assert_allclose(heatmap(browser), expected, atol=3.5e-4)
            for piece_type in (chess.PAWN, chess.KNIGHT, chess.QUEEN):
                browser.evaluate(f"document.querySelector('[data-piece=\"{piece_type}\"]').click()")
                column = reference[:, opponent + piece_type - 1]
                np.testing.assert_allclose(heatmap(browser), column, atol=0.6e-4)

        browser.press("End", 35)
        assert browser.evaluate("document.body.dataset.turn") == "34"
        browser.press("Home", 36)
        assert browser.evaluate("document.body.dataset.turn") == "1"
        assert browser.errors == []


def test_a_script_error_on_the_page_is_seen(tmp_path):
    """The check above for no console error can fail: a page whose script throws is caught."""
    page = tmp_path / "broken.html"
    page.write_text("<html><body><script>console.error('seen'); null.x;</script></body></html>")
    with Browser(BROWSER) as browser:
        browser.open(page)
        assert any("seen" in e for e in browser.errors)
        assert any("TypeError" in e for e in browser.errors)
