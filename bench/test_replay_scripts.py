"""The replay page's bench scripts run end to end on small inputs."""

import pytest
from cdp_pipe import find_browser
from script_runs import run_script


def run(script: str, *args: str) -> str:
    return run_script(script, *args)


def test_square_distribution_bench_times_both_forms():
    out = run("square_distribution.py", "--boards", "20000", "--threads", "1")
    assert "20,000 boards" in out and "square_distribution(weights)" in out


def test_replay_page_bench_builds_the_test_game_and_a_demo_game():
    out = run("replay_page.py", "--demo-turns", "8", "--belief-boards", "20000")
    assert "sf2-game-0001.json: 68 plies" in out and "MB" in out
    assert "one frame's belief at 20,000 boards" in out


@pytest.mark.skipif(find_browser() is None, reason="no chromium on PATH")
def test_the_screenshot_is_a_png(tmp_path):
    out = tmp_path / "shot.png"
    run("replay_screenshot.py", "--out", str(out))
    assert out.read_bytes()[:8] == b"\x89PNG\r\n\x1a\n"
