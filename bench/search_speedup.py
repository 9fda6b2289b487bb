"""Speed-up of the accelerated information-set search over the baseline, per depth.

For each information set and depth, runs the baseline (mode "none") and the accelerated modes in
the same process on the same set, and reports time ratios and every root move's |delta value|.
Sets: the start position (the paper's experiment: White's first move) and mid-game sets taken from
the recorded games of `bench/data/` (the sets a player held just before moving; `--source random`
makes them by random play instead, see `midgame_sets`). Every search runs single-threaded; with
`--jobs N` up to N searches run at once in separate processes (a machine with many cores finishes
deep runs sooner; each search is still timed on its own). Writes a markdown table to stdout and a
plot of speed-up against depth to bench/plots/search_speedup.png. A progress bar shows the
searches as they finish; with `--timings FILE` each finished search is also appended to FILE as a
JSON line, and a re-run with the same FILE skips the searches already there (multi-hour runs can
be stopped and resumed, and their raw timings kept).

    python bench/search_speedup.py --depths 1 2 --sets 20 --sense-mode min_size
"""

from __future__ import annotations

import argparse
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from pathlib import Path

import chess
from reconchess.utilities import capture_square_of_move
from tqdm import tqdm

from fogsearch.observations import MoveResult
from fogsearch.search import SearchConfig, search

SENSE_SQUARES = [chess.square(f, r) for r in range(1, 7) for f in range(1, 7)]


def window(square):
    f, r = chess.square_file(square), chess.square_rank(square)
    return [chess.square(f + df, r + dr) for dr in (-1, 0, 1) for df in (-1, 0, 1)]


def midgame_sets(count: int, plies: int, seed: int) -> list[list[str]]:
    """White's information set after `plies` random pseudo-legal plies: every Black reply to the
    position before Black's last move that gives White the same capture observation, narrowed by
    White's best (min expected size) sense of the true board."""
    rng = random.Random(seed)
    sets = []
    while len(sets) < count:
        board = chess.Board()
        for _ in range(plies):
            moves = [m for m in board.pseudo_legal_moves if not board.is_castling(m)]
            board.push(rng.choice(moves))
        if board.turn != chess.BLACK or board.king(chess.WHITE) is None:
            continue
        before = board.copy(stack=False)
        true_move = rng.choice([m for m in before.pseudo_legal_moves if not before.is_castling(m)])
        if capture_square_of_move(before, true_move) == before.king(chess.WHITE):
            continue
        observed = capture_square_of_move(before, true_move)
        candidates = []
        for reply in [None, *before.pseudo_legal_moves]:
            if reply is not None and before.is_castling(reply):
                continue
            if capture_square_of_move(before, reply) != observed:
                continue
            child = before.copy(stack=False)
            child.push(reply if reply is not None else chess.Move.null())
            if child.king(chess.WHITE) is not None:
                candidates.append(child)
        truth = before.copy(stack=False)
        truth.push(true_move)

        def expected(square, candidates=candidates):
            counts: dict = {}
            for b in candidates:
                key = tuple(b.piece_at(s) for s in window(square))
                counts[key] = counts.get(key, 0) + 1
            return sum(n * n for n in counts.values())

        square = min(SENSE_SQUARES, key=expected)
        seen = tuple(truth.piece_at(s) for s in window(square))
        narrowed = {
            b.fen(en_passant="fen")
            for b in candidates
            if tuple(b.piece_at(s) for s in window(square)) == seen
        }
        sets.append(sorted(narrowed))
    return sets


def recorded_sets(count: int, max_boards: int) -> list[list[str]]:
    """``count`` sets held just before a move in the recorded games (both colours), 2 to
    ``max_boards`` boards, spread evenly over the games' turns."""
    if count == 0:
        return []
    sys.path.insert(0, str(Path(__file__).parent))
    from rbc_data import cases

    before_moves = [
        c.fens
        for c in cases(min_boards=2, max_boards=max_boards)
        if isinstance(c.observation, MoveResult)
    ]
    if len(before_moves) < count:
        raise SystemExit(f"only {len(before_moves)} recorded sets of 2..{max_boards} boards")
    step = len(before_moves) / count
    return [before_moves[int(i * step)] for i in range(count)]


def trout_sets(count: int, min_boards: int, max_boards: int) -> list[list[str]]:
    """``count`` distinct sets of ``min_boards`` to ``max_boards`` boards that the fogsearch bot
    held before moving in recorded games against TroutBot: each game's first such set, then each
    game's second, and so on, so that one long game does not supply most of them."""
    sys.path.insert(0, str(Path(__file__).parent))
    from rbc_data import trout_cases

    by_game: dict[str, list[list[str]]] = {}
    seen = set()
    for case in trout_cases(min_boards, max_boards):
        if tuple(case.fens) not in seen:
            seen.add(tuple(case.fens))
            by_game.setdefault(case.game, []).append(case.fens)
    interleaved = [
        sets[turn]
        for turn in range(max(map(len, by_game.values()), default=0))
        for sets in by_game.values()
        if turn < len(sets)
    ]
    if len(interleaved) < count:
        raise SystemExit(f"only {len(interleaved)} sets of {min_boards}..{max_boards} boards")
    return interleaved[:count]


def run(fens, depth, mode, sense_mode, threshold):
    """(seconds, {move: value}) of one single-threaded search."""
    config = SearchConfig(mode=mode, sense_mode=sense_mode, threshold=threshold, threads=1)
    search([chess.STARTING_FEN], 1)  # warm-up in this process: attack tables are built on first use
    started = time.perf_counter()
    result = search(fens, depth, config)
    return time.perf_counter() - started, dict(result.move_values)


def timing_key(fens, depth, mode, args) -> dict:
    """What makes two searches the same search: the set, depth, mode and search settings."""
    return {
        "fens": sorted(fens),
        "depth": depth,
        "mode": mode,
        "sense_mode": args.sense_mode,
        "threshold": args.threshold,
    }


def save_timing(path, job, result, fens_of, args) -> None:
    name, depth, mode = job
    seconds, values = result
    record = {"set": name, **timing_key(fens_of[name], depth, mode, args)}
    record.update(seconds=seconds, move_values=values)
    with open(path, "a") as out:
        out.write(json.dumps(record) + "\n")


def load_timings(path, fens_of, args) -> dict:
    """The finished searches in `path` that match this run's sets and settings, by job."""
    if not Path(path).exists():
        return {}
    wanted = {
        json.dumps(timing_key(fens, depth, mode, args), sort_keys=True): (name, depth, mode)
        for name, fens in fens_of.items()
        for depth in args.depths
        for mode in ["none", *args.modes]
    }
    found = {}
    for line in Path(path).read_text().splitlines():
        record = json.loads(line)
        key = {k: record[k] for k in ("fens", "depth", "mode", "sense_mode", "threshold")}
        job = wanted.get(json.dumps(key, sort_keys=True))
        if job is not None:
            found[job] = (record["seconds"], record["move_values"])
    return found


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--plies", type=int, default=15, help="odd: Black to move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sense-mode", default="search", choices=["min_size", "search"])
    parser.add_argument("--threshold", type=float, default=1.0)
    parser.add_argument("--modes", nargs="+", default=["exact", "sketch", "exact+sketch"])
    parser.add_argument("--no-start", action="store_true")
    parser.add_argument("--source", default="recorded", choices=["recorded", "trout", "random"])
    parser.add_argument("--max-boards", type=int, default=40, help="recorded sets up to this size")
    parser.add_argument("--min-boards", type=int, default=2, help="trout sets from this size")
    parser.add_argument("--jobs", type=int, default=1, help="searches run at once (processes)")
    parser.add_argument("--plot", default="bench/plots/search_speedup.png")
    parser.add_argument("--timings", help="JSON-lines file of finished searches (kept, resumed)")
    args = parser.parse_args()

    if args.source == "recorded":
        mid = recorded_sets(args.sets, args.max_boards)
    elif args.source == "trout":
        mid = trout_sets(args.sets, args.min_boards, args.max_boards)
    else:
        mid = midgame_sets(args.sets, args.plies, args.seed)
    sets = ([("start", [chess.STARTING_FEN])] if not args.no_start else []) + [
        (f"mid{i:02d}", s) for i, s in enumerate(mid)
    ]
    sizes = sorted(len(f) for _, f in sets)
    print(
        f"sense_mode={args.sense_mode} threshold={args.threshold} sets={len(sets)} "
        f"({args.source}; boards per set: median {statistics.median(sizes)}, max {sizes[-1]})"
    )
    jobs = [
        (name, depth, mode)
        for depth in args.depths
        for name, _ in sets
        for mode in ["none", *args.modes]
    ]
    fens_of = dict(sets)
    timed = load_timings(args.timings, fens_of, args) if args.timings else {}
    todo = [job for job in jobs if job not in timed]
    if len(todo) < len(jobs):
        print(f"{len(jobs) - len(todo)} of {len(jobs)} searches taken from {args.timings}")
    # spawn, not fork: the parent has already started rayon's threads (building the sets).
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=mp.get_context("spawn")) as pool:
        futures = {
            pool.submit(run, fens_of[job[0]], job[1], job[2], args.sense_mode, args.threshold): job
            for job in todo
        }
        bar = tqdm(as_completed(futures), total=len(futures), unit="search", file=sys.stderr)
        for future in bar:
            job = futures[future]
            timed[job] = future.result()
            bar.write(f"{job[0]} depth {job[1]} {job[2]}: {timed[job][0]:.3f} s", file=sys.stderr)
            if args.timings:
                save_timing(args.timings, job, timed[job], fens_of, args)
    print(
        "| depth | set(s) | mode | baseline s | accelerated s | speed-up"
        " | mean abs dv cp | max abs dv cp |"
    )
    print("|---|---|---|---|---|---|---|---|")
    speedups: dict[str, dict[int, float]] = {m: {} for m in args.modes}
    spread: dict[tuple[int, str], list[float]] = {}
    for depth in args.depths:
        totals = {m: [0.0, 0.0, [], []] for m in args.modes}
        for name, _ in sets:
            base_time, base = timed[(name, depth, "none")]
            for mode in args.modes:
                t, values = timed[(name, depth, mode)]
                deltas = [abs(values[m] - v) for m, v in base.items()]
                totals[mode][0] += base_time
                totals[mode][1] += t
                totals[mode][2] += deltas
                totals[mode][3].append(base_time / t)
                if name == "start":
                    print(
                        f"| {depth} | start | {mode} | {base_time:.3f} | {t:.3f}"
                        f" | {base_time / t:.2f}x"
                        f" | {statistics.mean(deltas):.1f} | {max(deltas)} |"
                    )
        for mode, (b, a, deltas, per_set) in totals.items():
            speedups[mode][depth] = b / a
            print(
                f"| {depth} | all {len(sets)} | {mode} | {b:.3f} | {a:.3f} | {b / a:.2f}x"
                f" | {statistics.mean(deltas):.1f} | {max(deltas)} |",
                flush=True,
            )
            spread[(depth, mode)] = per_set
    print("\nper-set speed-ups (min / median / max):")
    for (depth, mode), per_set in spread.items():
        print(
            f"depth {depth} {mode}: {min(per_set):.2f}x / {statistics.median(per_set):.2f}x"
            f" / {max(per_set):.2f}x"
        )

    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for mode, by_depth in speedups.items():
        ax.plot(list(by_depth), list(by_depth.values()), marker="o", label=mode)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("depth (our moves)")
    ax.set_ylabel("speed-up over baseline (total time)")
    ax.set_title(f"information-set search, {len(sets)} sets, sense={args.sense_mode}")
    ax.legend()
    Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot, dpi=120, bbox_inches="tight")
    print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
