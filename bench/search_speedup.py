"""Speed-up of the accelerated information-set search over the baseline, per depth.

For each information set and depth, runs the baseline (mode "none") and the accelerated variants
in the same process pool on the same set, and reports time ratios, every root move's |delta
value| against the paper's accuracy criterion (mean < 100 cp and no move off by more than 300 cp,
§8), cut-offs, bounds used and table hits. Sets: the start position (the paper's experiment:
White's first move) and mid-game sets taken from the recorded games of `bench/data/` (the sets a
player held just before moving; `--source trout` the sets the bot held against TroutBot,
`--source random` sets made by random play, see `midgame_sets`).

Variants: each `--modes` entry is a mode at `--threshold`; `--variant SPEC` adds one
configuration, written `mode:key=value,...` (any `SearchConfig` setting, for example
`sketch:bound_rule=point,threshold=0.9,k=256`); `--grid SPEC KEY=V1,V2 ...` adds every
combination (the paper's grid: `--grid sketch:bound_rule=point threshold=0.8,0.9,0.95,1.0
k=64,256`; a sweep: `--grid sketch:bound_rule=point,threshold=0.9 table_size=16,64,256,1024`).

The anytime view (§8): every search reports when it finished each root request (single-threaded,
requests in the same order in every variant), so the table after the speed-ups says, for the
start position, how many requests each variant had finished when the baseline had finished 8 and
10 of them (the paper: 15 and 22) and at the baseline's half and full time.

Kept tables (`--kept N`): the sets held before N consecutive moves of each of the first recorded
TroutBot games (up to `--max-boards` boards; a turn with a larger set ends the run of turns), searched
in turn order by one `Searcher` per game and variant (tables kept across turns) and, for
comparison, by a fresh search per turn. With `--iterative SECONDS` every search deepens from
depth 1 under that (generous) time limit, as the bot's searches do; a kept table's entries match
a later turn's nodes at the same remaining depth only one iteration below the depth that stored
them.

Every search runs single-threaded; with `--jobs N` up to N searches run at once in separate
processes (each search is still timed on its own; on a shared machine prefer `--jobs 1` for
ratios). Writes a markdown table to stdout and a plot of speed-up against depth. A progress bar
shows the searches as they finish; with `--timings FILE` each finished search is also appended to
FILE as a JSON line, and a re-run with the same FILE skips the searches already there (multi-hour
runs can be stopped and resumed, and their raw timings kept).

    python bench/search_speedup.py --depths 1 2 --sets 20 --sense-mode min_size
    python bench/search_speedup.py --depths 3 --sets 0 --modes --grid sketch:bound_rule=point \\
        threshold=0.8,0.9,0.95,1.0 k=64,256 --timings paper.jsonl
"""

from __future__ import annotations

import argparse
import itertools
import json
import multiprocessing as mp
import random
import statistics
import sys
import time
from concurrent.futures import ProcessPoolExecutor, as_completed
from dataclasses import dataclass, fields
from pathlib import Path

import chess
from reconchess.utilities import capture_square_of_move
from tqdm import tqdm

from fogsearch.observations import MoveResult
from fogsearch.search import SearchConfig, Searcher, search

SENSE_SQUARES = [chess.square(f, r) for r in range(1, 7) for f in range(1, 7)]
# The paper's accuracy criterion (§8): mean difference below 100 cp, no move off by more than 300.
PAPER_MEAN_CP, PAPER_MAX_CP = 100, 300
# The paper's anytime figures (§8): requests the baseline had finished, and the accelerated one.
PAPER_ANYTIME = {8: 15, 10: 22}


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


def consecutive_turns(games: int, turns: int, max_boards: int) -> dict[str, list[list[str]]]:
    sys.path.insert(0, str(Path(__file__).parent))
    from rbc_data import trout_turns

    return trout_turns(games, turns, max_boards)


@dataclass(frozen=True)
class Variant:
    """A search configuration to time against the baseline: a mode and setting overrides."""

    mode: str
    overrides: tuple[tuple[str, str], ...] = ()

    @staticmethod
    def parse(spec: str) -> Variant:
        mode, _, rest = spec.partition(":")
        pairs = tuple(tuple(p.split("=", 1)) for p in rest.split(",") if p)
        for pair in pairs:
            if len(pair) != 2 or pair[0] not in SETTINGS:
                raise SystemExit(f"bad variant {spec!r}: settings are {sorted(SETTINGS)}")
        return Variant(mode, pairs)  # type: ignore[arg-type]

    @property
    def label(self) -> str:
        rest = ",".join(f"{k}={v}" for k, v in self.overrides)
        return f"{self.mode}:{rest}" if rest else self.mode

    def config(self, sense_mode: str, threshold: float, iterative=None) -> SearchConfig:
        settings = {"mode": self.mode, "sense_mode": sense_mode, "threshold": threshold}
        settings["time_limit"] = iterative
        for key, text in self.overrides:
            settings[key] = SETTINGS[key](text)
        settings["threads"] = 1
        return SearchConfig(**settings)  # type: ignore[arg-type]


SETTINGS = {
    f.name: (float if f.type in ("float", "float | None") else int if f.type == "int" else str)
    for f in fields(SearchConfig)
}


def grid_variants(spec: str, axes: list[str]) -> list[Variant]:
    """Every combination of the values on ``axes`` (``KEY=V1,V2``) added to ``spec``."""
    base = Variant.parse(spec)
    names, values = [], []
    for axis in axes:
        name, _, listed = axis.partition("=")
        names.append(name)
        values.append(listed.split(","))
    out = []
    for combo in itertools.product(*values):
        overrides = dict(base.overrides)
        overrides.update(zip(names, combo, strict=True))
        out.append(
            Variant.parse(f"{base.mode}:" + ",".join(f"{k}={v}" for k, v in overrides.items()))
        )
    return out


def warm_up() -> None:
    search([chess.STARTING_FEN], 1)  # attack tables are built on first use


def run(fens, depth, variant: Variant, sense_mode, threshold, iterative=None):
    """One single-threaded search: (seconds, {move: value}, stats, timeline)."""
    config = variant.config(sense_mode, threshold, iterative)
    warm_up()
    started = time.perf_counter()
    result = search(fens, depth, config)
    seconds = time.perf_counter() - started
    timeline = [(c.request, c.seconds) for c in result.timeline if c.depth == depth]
    return seconds, dict(result.move_values), result.stats.as_dict(), timeline


def run_kept(sets, depth, variant: Variant, sense_mode, threshold, iterative=None):
    """The sets searched in turn order by one Searcher: per turn (seconds, values, stats)."""
    searcher = Searcher(variant.config(sense_mode, threshold, iterative))
    warm_up()
    turns = []
    for fens in sets:
        started = time.perf_counter()
        result = searcher.search(fens, depth)
        turns.append(
            (time.perf_counter() - started, dict(result.move_values), result.stats.as_dict())
        )
    return turns


def timing_key(fens, depth, variant: Variant, args, kept: bool = False) -> dict:
    """What makes two searches the same search: the set, depth, variant and search settings.
    Plain modes keep the keys of older timings files."""
    key = {
        "fens": fens if kept else sorted(fens),
        "depth": depth,
        "mode": variant.mode,
        "sense_mode": args.sense_mode,
        "threshold": args.threshold,
    }
    if variant.overrides:
        key["variant"] = variant.label
    if kept:
        key["kept"] = True
    if args.iterative:
        key["iterative"] = args.iterative
    return key


KEY_FIELDS = ("fens", "depth", "mode", "sense_mode", "threshold", "variant", "kept", "iterative")


def load_timings(path, wanted: dict) -> dict:
    """The finished searches in `path` that match this run's jobs (`wanted`: key -> job)."""
    if not Path(path).exists():
        return {}
    found = {}
    for line in Path(path).read_text().splitlines():
        record = json.loads(line)
        key = {k: record[k] for k in KEY_FIELDS if k in record}
        job = wanted.get(json.dumps(key, sort_keys=True))
        if job is not None:
            found[job] = (
                record["result"]
                if "result" in record
                else (
                    record["seconds"],
                    record["move_values"],
                    record.get("stats", {}),
                    record.get("timeline", []),
                )
            )
    return found


def mean_max(deltas: list[int]) -> tuple[float, int]:
    return (statistics.mean(deltas), max(deltas)) if deltas else (0.0, 0)


def meets_paper(mean: float, worst: int) -> str:
    return "yes" if mean < PAPER_MEAN_CP and worst <= PAPER_MAX_CP else "**no**"


def anytime(base_timeline, timeline) -> dict:
    """Requests the variant had finished when the baseline had finished n of them (n = 8, 10)
    and at half and all of the baseline's time."""
    base_times = [s for _, s in base_timeline]
    times = [s for _, s in timeline]
    out = {}
    for n in PAPER_ANYTIME:
        if len(base_times) >= n:
            out[f"at baseline's {n}"] = sum(t <= base_times[n - 1] for t in times)
    if base_times:
        out["at half its time"] = sum(t <= base_times[-1] / 2 for t in times)
        out["at its time"] = sum(t <= base_times[-1] for t in times)
    return out


def main() -> None:
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--depths", type=int, nargs="+", default=[1, 2])
    parser.add_argument("--sets", type=int, default=20)
    parser.add_argument("--plies", type=int, default=15, help="odd: Black to move")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument("--sense-mode", default="search", choices=["min_size", "search", "finest"])
    parser.add_argument("--threshold", type=float, default=1.0)
    parser.add_argument("--modes", nargs="*", default=["exact", "sketch", "exact+sketch"])
    parser.add_argument("--variant", action="append", default=[], help="mode:key=value,...")
    parser.add_argument(
        "--grid", action="append", nargs="+", default=[], metavar="SPEC", help="SPEC KEY=V1,V2 ..."
    )
    parser.add_argument("--no-start", action="store_true")
    parser.add_argument("--source", default="recorded", choices=["recorded", "trout", "random"])
    parser.add_argument("--max-boards", type=int, default=40, help="recorded sets up to this size")
    parser.add_argument("--min-boards", type=int, default=2, help="trout sets from this size")
    parser.add_argument("--kept", type=int, default=0, help="consecutive turns per game (0: off)")
    parser.add_argument("--games", type=int, default=3, help="games for --kept")
    parser.add_argument(
        "--iterative", type=float, help="deepen from depth 1 under this time limit (seconds)"
    )
    parser.add_argument("--jobs", type=int, default=1, help="searches run at once (processes)")
    parser.add_argument("--plot", default="bench/plots/search_speedup.png")
    parser.add_argument("--timings", help="JSON-lines file of finished searches (kept, resumed)")
    args = parser.parse_args()

    variants = [Variant.parse(m) for m in args.modes] + [Variant.parse(v) for v in args.variant]
    for spec, *axes in args.grid:
        variants += grid_variants(spec, axes)
    variants = list(dict.fromkeys(v for v in variants if v.label != "none"))
    baseline = Variant("none")

    if args.kept:
        runs = consecutive_turns(args.games, args.kept, args.max_boards)
        sets = [
            (f"{game}.{i}", fens) for game, turns in runs.items() for i, fens in enumerate(turns)
        ]
    else:
        if args.source == "recorded":
            mid = recorded_sets(args.sets, args.max_boards)
        elif args.source == "trout":
            mid = trout_sets(args.sets, args.min_boards, args.max_boards)
        else:
            mid = midgame_sets(args.sets, args.plies, args.seed)
        runs = {}
        sets = ([("start", [chess.STARTING_FEN])] if not args.no_start else []) + [
            (f"mid{i:02d}", s) for i, s in enumerate(mid)
        ]
    sizes = sorted(len(f) for _, f in sets)
    print(
        f"sense_mode={args.sense_mode} threshold={args.threshold} sets={len(sets)} "
        f"({'kept: ' + str(len(runs)) + ' games' if args.kept else args.source}; boards per set:"
        f" median {statistics.median(sizes)}, max {sizes[-1]})"
    )
    fens_of = dict(sets)
    jobs = [
        (name, depth, variant)
        for depth in args.depths
        for name, _ in sets
        for variant in [baseline, *variants]
    ]
    kept_jobs = [(game, depth, v) for depth in args.depths for game in runs for v in variants]
    wanted = {
        json.dumps(timing_key(fens_of[n], d, v, args), sort_keys=True): (n, d, v)
        for n, d, v in jobs
    }
    wanted.update(
        {
            json.dumps(timing_key(runs[g], d, v, args, kept=True), sort_keys=True): (
                "kept",
                g,
                d,
                v,
            )
            for g, d, v in kept_jobs
        }
    )
    timed = load_timings(args.timings, wanted) if args.timings else {}
    todo = [job for job in jobs if job not in timed]
    todo_kept = [("kept", *job) for job in kept_jobs if ("kept", *job) not in timed]
    total = len(jobs) + len(kept_jobs)
    if len(todo) + len(todo_kept) < total:
        print(f"{total - len(todo) - len(todo_kept)} of {total} searches taken from {args.timings}")
    # spawn, not fork: the parent has already started rayon's threads (building the sets).
    with ProcessPoolExecutor(max_workers=args.jobs, mp_context=mp.get_context("spawn")) as pool:
        futures = {
            pool.submit(run, fens_of[n], d, v, args.sense_mode, args.threshold, args.iterative): (
                n,
                d,
                v,
            )
            for n, d, v in todo
        }
        futures.update(
            {
                pool.submit(
                    run_kept, runs[g], d, v, args.sense_mode, args.threshold, args.iterative
                ): job
                for job in todo_kept
                for _, g, d, v in [job]
            }
        )
        bar = tqdm(as_completed(futures), total=len(futures), unit="search", file=sys.stderr)
        for future in bar:
            job = futures[future]
            timed[job] = future.result()
            if job[0] == "kept":
                _, game, depth, variant = job
                seconds = sum(t[0] for t in timed[job])
                key = timing_key(runs[game], depth, variant, args, kept=True)
                record = {"set": game, **key, "result": timed[job]}
            else:
                name, depth, variant = job
                seconds = timed[job][0]
                key = timing_key(fens_of[name], depth, variant, args)
                seconds_, values, stats, timeline = timed[job]
                record = {"set": name, **key, "seconds": seconds_, "move_values": values}
                record.update(stats=stats, timeline=timeline)
            bar.write(
                f"{job[-3]} depth {job[-2]} {job[-1].label}: {seconds:.3f} s", file=sys.stderr
            )
            if args.timings:
                with open(args.timings, "a") as out:
                    out.write(json.dumps(record) + "\n")

    speedups = report(sets, variants, baseline, timed, args)
    if args.kept:
        report_kept(runs, variants, baseline, timed, args)
    plot(speedups, len(sets), args)


def report(sets, variants, baseline, timed, args) -> dict:
    """The speed-up table (per depth: the start alone, then all sets), per-set spreads and the
    anytime view."""
    print(
        "\n| depth | set(s) | variant | baseline s | accelerated s | speed-up"
        " | mean abs dv cp | max abs dv cp | paper's criterion | cut-offs | bounds used"
        " | table hits | nodes (baseline) |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|---|---|")
    speedups: dict[str, dict[int, float]] = {v.label: {} for v in variants}
    spread: dict[tuple[int, str], list[float]] = {}
    anytime_rows = []
    for depth in args.depths:
        for variant in variants:
            base_total = accel_total = 0.0
            deltas: list[int] = []
            per_set = []
            counts = {"bound_cutoffs": 0, "bounds_used": 0, "table_hits": 0, "nodes": 0}
            base_nodes = 0
            for name, _ in sets:
                base_time, base, base_stats, base_timeline = timed[(name, depth, baseline)]
                t, values, stats, timeline = timed[(name, depth, variant)]
                set_deltas = [abs(values[m] - v) for m, v in base.items()]
                base_total += base_time
                accel_total += t
                deltas += set_deltas
                per_set.append(base_time / t)
                for k in counts:
                    counts[k] += stats.get(k, 0)
                base_nodes += base_stats.get("nodes", 0)
                if name == "start":
                    m, w = mean_max(set_deltas)
                    print(row(depth, "start", variant, base_time, t, m, w, stats, base_stats))
                    if timeline and base_timeline:
                        anytime_rows.append((depth, variant, anytime(base_timeline, timeline)))
            if len(sets) > 1 or sets[0][0] != "start":
                m, w = mean_max(deltas)
                print(
                    row(
                        depth,
                        f"all {len(sets)}",
                        variant,
                        base_total,
                        accel_total,
                        m,
                        w,
                        counts,
                        {"nodes": base_nodes},
                    )
                )
            speedups[variant.label][depth] = base_total / accel_total
            spread[(depth, variant.label)] = per_set
    if any(len(s) > 1 for s in spread.values()):
        print("\nper-set speed-ups (min / median / max):")
        for (depth, label), per_set in spread.items():
            print(
                f"depth {depth} {label}: {min(per_set):.2f}x / {statistics.median(per_set):.2f}x"
                f" / {max(per_set):.2f}x"
            )
    if anytime_rows:
        names = list(anytime_rows[0][2])
        print(
            f"\nanytime view, start position (root requests finished; the paper: {PAPER_ANYTIME})"
        )
        print("| depth | variant | " + " | ".join(names) + " |")
        print("|---|---|" + "---|" * len(names))
        for depth, variant, counts_ in anytime_rows:
            print(
                f"| {depth} | {variant.label} | "
                + " | ".join(str(counts_.get(n, "")) for n in names)
                + " |"
            )
    return speedups


def row(depth, sets, variant, base_time, t, mean, worst, stats, base_stats) -> str:
    return (
        f"| {depth} | {sets} | {variant.label} | {base_time:.3f} | {t:.3f} | {base_time / t:.2f}x"
        f" | {mean:.1f} | {worst} | {meets_paper(mean, worst)} | {stats.get('bound_cutoffs', 0):,}"
        f" | {stats.get('bounds_used', 0):,} | {stats.get('table_hits', 0):,}"
        f" | {stats.get('nodes', 0):,} ({base_stats.get('nodes', 0):,}) |"
    )


def report_kept(runs, variants, baseline, timed, args) -> None:
    """Kept tables against a fresh search per turn, per game and in all."""
    print(
        "\nkept tables: consecutive turns searched by one Searcher per game, against a fresh"
        " search per turn"
    )
    print(
        "| depth | game (turns) | variant | baseline s | fresh s | kept s | fresh speed-up"
        " | kept speed-up | kept / fresh | kept max abs dv cp | kept table hits |"
    )
    print("|---|---|---|---|---|---|---|---|---|---|---|")
    for depth in args.depths:
        for variant in variants:
            totals = [0.0, 0.0, 0.0]
            worst, hits = 0, 0
            for game, turns in runs.items():
                names = [f"{game}.{i}" for i in range(len(turns))]
                base = sum(timed[(n, depth, baseline)][0] for n in names)
                fresh = sum(timed[(n, depth, variant)][0] for n in names)
                kept_turns = timed[("kept", game, depth, variant)]
                kept = sum(t[0] for t in kept_turns)
                game_worst = max(
                    abs(values[m] - v)
                    for n, (_, values, _) in zip(names, kept_turns, strict=True)
                    for m, v in timed[(n, depth, baseline)][1].items()
                )
                game_hits = sum(t[2].get("table_hits", 0) for t in kept_turns)
                print(
                    f"| {depth} | {game} ({len(turns)}) | {variant.label} | {base:.2f} | {fresh:.2f}"
                    f" | {kept:.2f} | {base / fresh:.2f}x | {base / kept:.2f}x | {fresh / kept:.2f}x"
                    f" | {game_worst} | {game_hits:,} |"
                )
                totals = [totals[0] + base, totals[1] + fresh, totals[2] + kept]
                worst, hits = max(worst, game_worst), hits + game_hits
            base, fresh, kept = totals
            print(
                f"| {depth} | all {len(runs)} | {variant.label} | {base:.2f} | {fresh:.2f}"
                f" | {kept:.2f} | {base / fresh:.2f}x | {base / kept:.2f}x | {fresh / kept:.2f}x"
                f" | {worst} | {hits:,} |"
            )


def plot(speedups, set_count, args) -> None:
    import matplotlib

    matplotlib.use("Agg")
    import matplotlib.pyplot as plt

    fig, ax = plt.subplots(figsize=(6, 4))
    for label, by_depth in speedups.items():
        ax.plot(list(by_depth), list(by_depth.values()), marker="o", label=label)
    ax.axhline(1.0, color="grey", linewidth=0.8)
    ax.set_xlabel("depth (our moves)")
    ax.set_ylabel("speed-up over baseline (total time)")
    ax.set_title(f"information-set search, {set_count} sets, sense={args.sense_mode}")
    ax.legend(fontsize="small")
    Path(args.plot).parent.mkdir(parents=True, exist_ok=True)
    fig.savefig(args.plot, dpi=120, bbox_inches="tight")
    print(f"plot: {args.plot}")


if __name__ == "__main__":
    main()
