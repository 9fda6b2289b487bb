"""Build time and size of replay pages.

    python bench/replay_page.py [GAME.json[:LOG] ...] [--demo-turns 100] [--seed 0]

For each history given (default: the StrangeFish2 game in tests/data, with its bot log), and for
a local 100-turn game between two random-moving baseline bots with greedy sensing (a quarter of
the senses random; with seed 1 its sets reach 945,355 boards), prints the page's build time
(replaying both sides, beliefs, HTML) and size. The local game is built twice: with uniform
beliefs, and with both sides weighted by the opponent model (as if both bots' logs were given:
the most work a page does), tracked up to ``--max-boards`` so that it runs to its end.
Then the page's own share of the work at the largest sets: the belief of one frame (the uniform
and the weighted square_distribution, and the true board's place) on a 1 M-board set.
"""

from __future__ import annotations

import argparse
import sys
import time
from pathlib import Path

import chess

ROOT = Path(__file__).parents[1]
sys.path.insert(0, str(ROOT / "bench"))

from square_distribution import large_set  # noqa: E402

from fogsearch.replay import build_page, game_frames, read_history  # noqa: E402
from fogsearch.replay.frames import Frame, _draw_belief  # noqa: E402
from fogsearch.replay.turn_log import read_turn_log  # noqa: E402
from fogsearch.tracking import TRACK_MAX_BOARDS, play_baseline_game  # noqa: E402

DEFAULT = f"{ROOT / 'tests/data/sf2-game-0001.json'}:{ROOT / 'tests/data/sf2-game-0001-fog.txt'}"


def measure(name: str, history, logs=None, max_boards: int = TRACK_MAX_BOARDS) -> None:
    start = time.perf_counter()
    frames = game_frames(history, logs, max_boards)
    page = build_page(history, frames=frames)
    seconds = time.perf_counter() - start
    sizes = [f.before_sense or 0 for fs in frames.values() for f in fs]
    stopped = [f.turn for fs in frames.values() for f in fs if f.stopped]
    print(
        f"{name}: {history.num_turns()} plies, largest set {max(sizes):,} boards"
        f"{f', tracking stopped at turn {stopped[0]}' if stopped else ''}: built in "
        f"{seconds:.2f}s, {len(page.encode()) / 1e6:.2f} MB"
    )


def main() -> None:
    p = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    p.add_argument("games", nargs="*", default=[DEFAULT], help="GAME.json or GAME.json:LOG")
    p.add_argument("--demo-turns", type=int, default=100)
    p.add_argument("--seed", type=int, default=1)
    p.add_argument("--max-boards", type=int, default=4_000_000, help="tracking bound, local game")
    p.add_argument("--belief-boards", type=int, default=1_000_000, help="the set of one frame")
    args = p.parse_args()
    for spec in args.games:
        path, _, log = spec.partition(":")
        history = read_history(path)
        measure(Path(path).name, history, read_turn_log(log, history) if log else None)
    history = play_baseline_game(
        "random", "random", args.seed, args.demo_turns, "greedy", random_sense_rate=0.25
    )
    name = f"random vs random, {args.demo_turns} turns, seed {args.seed}"
    measure(name, history, max_boards=args.max_boards)
    both_logs: dict = {chess.WHITE: [], chess.BLACK: []}  # weights both sides, shows no log
    measure(f"{name}, both sides weighted", history, both_logs, args.max_boards)

    s = large_set(args.belief_boards, None)
    frame = Frame(1, chess.BLACK, s.fen(len(s) // 2), None)
    start = time.perf_counter()
    _draw_belief(frame, s, frame.truth)
    uniform = time.perf_counter() - start
    s.set_opponent_model(200.0, 0.1)  # weights kept: the weighted belief and the truth's weight
    start = time.perf_counter()
    _draw_belief(frame, s, frame.truth)
    weighted = time.perf_counter() - start
    print(
        f"one frame's belief at {len(s):,} boards: {uniform:.3f}s uniform, {weighted:.3f}s with "
        f"the opponent model's weights; 200 frames (a 100-turn game) at that size: "
        f"{200 * uniform:.1f}s uniform, {100 * (uniform + weighted):.1f}s with one side weighted"
    )


if __name__ == "__main__":
    main()
