"""Would other settings have chosen better moves against this opponent? Every move decision of
the named player in stored games, made again under each variant of the bot's opponent model,
lost-king price, mix with the minimum, sample size or time, and each choice valued on the true
board the opponent actually held.

Self-play tests judge a change against our own bot, which neither senses nor hunts the king as
StrangeFish2 does, and a match against StrangeFish2 gives one result per 15 minutes. The stored
games hold more: at every turn the true board is a draw from where that opponent's play really
led, given what we observed. So a setting's mean value *on the true boards*, over hundreds of
decisions, estimates how it would fare on those turns against that opponent, one decision deep
(the games still follow the moves actually played, so later turns are the played game's).

For each turn of the player (after ``--skip-turns``, the opening line's), the set after its sense
is replayed exactly from its observations (``fogsearch.tracking``) once per opponent model. Each
variant takes its own sample of the set as the bot does (its ``sample`` likeliest boards under
its model, ``fogsearch.bot.tracker.weighted_sample``), and one perfect-information table
(``fogsearch.search.board_table``, up to ``--plies`` within ``--seconds``) values every request
on the union of the samples and the true board, so the variants differ only in their samples,
weights and scoring, never in the depth they saw. A variant's choice is the request with the best
compound score (``fogsearch.bot.judgement.request_scores``); its outcome is that request's value
on the true board, in the bot's utility (squashed at 1000, a lost king at ``--outcome-king``).
The tie-breaks, the opening line and the progress rule are left out: they act after the scores.
A variant is ``NAME[:KEY=VALUE,...]`` over :class:`Variant`'s fields, the bot's defaults unless
named.

Printed per variant: the mean outcome and its paired difference from the first variant with a
95 % interval; the mean regret (the best request's outcome on the true board less the choice's);
the share of turns the true board was among the boards it judged; the share it chose another
request than the first variant, and the request the bot played; and how often its choice lost
our king where another request kept it, or fell a piece (300 centipawns, in utility) below
the best request on the true board. ``--disasters`` prints a row for each such turn of the first
variant: the set's size, whether the truth was in its sample and its rank by weight, the sample's
weight and share of boards on which the choice fell as far, the choice with its score and value
on the truth, the truth's best request and the fewest plies the judged boards were searched to.

    python bench/decision_screen.py bench/data/strangefish2_e0.sqlite --player e0 --every 2 \
        --seconds 1 --variant base --variant flat3:share=0.3 --variant k9:king=9000 \
        --variant none:temperature=0 --variant s1024:sample=1024 --variant mix09:mean=0.9
"""

from __future__ import annotations

import argparse
import dataclasses
import math
import random
import sys
import time
from dataclasses import dataclass, field
from pathlib import Path

import numpy as np
from loss_replay import player_games, read_only
from reconchess.history import Turn

from fogsearch.analysis.losses import DEFAULT_MAX_BOARDS
from fogsearch.arguments import bounded_int, bounded_seconds, cores
from fogsearch.bot.config import FogsearchBotConfig, OpponentModel, SetLimits
from fogsearch.bot.judgement import KING_LOST_BELOW, request_scores, utility
from fogsearch.bot.requests import uci
from fogsearch.bot.tracker import weighted_sample
from fogsearch.limits import MAX_THREADS
from fogsearch.observations import MoveResult
from fogsearch.rbc import BoardSet, BoardSetTooLargeError
from fogsearch.search import BoardTable, board_table
from fogsearch.tracking import observations

BLUNDER_CP = 300
"""A choice this far below the best request on the true board gave up a piece (or more)."""
BLUNDER_UTILITY = float(utility(np.array([BLUNDER_CP]))[0])
"""The same in the bot's utility, which counts a piece given up in a won position for little."""


@dataclass(frozen=True)
class Variant:
    """One way of choosing: the bot's defaults unless named."""

    name: str
    temperature: float = 200.0
    """The opponent model's temperature (0: no model, every board weighs the same)."""
    share: float = 0.1
    """The opponent model's uniform share."""
    king: float = 3000.0
    """``king_loss_cp``."""
    power: float = 1.0
    """The sample's weights raised to this power (then normalised): below 1 flattens them."""
    mean: float = 1.0
    """``mean_weight``: the rest goes to the minimum over the sample."""
    sample: int = 256
    """``max_search_boards``: the likeliest this many boards are judged."""
    seconds: float | None = None
    """None: judged in the table shared by every such variant (``--plies``, ``--seconds``).
    Otherwise in a table of its own sample alone within this many seconds, up to ``plies``, as
    the bot's turn is (where nothing is certain, boards the deadline cuts keep static values):
    the depth a sample's size costs, which the shared table hides. Needs ``--truth-plies``."""
    plies: int = 6
    """The most plies of the variant's own table (the bot's ``board_plies``)."""

    @property
    def model(self) -> tuple[float, float] | None:
        return (self.temperature, self.share) if self.temperature else None

    def __post_init__(self) -> None:
        # The bot's own checks: a variant the bot would refuse is refused here.
        OpponentModel(self.temperature, self.share)
        SetLimits(max_search_boards=self.sample)
        FogsearchBotConfig(king_loss_cp=self.king, mean_weight=self.mean)
        if not 0 < self.power <= 1:
            raise ValueError(f"power must be in (0, 1], got {self.power!r}")
        FogsearchBotConfig(board_plies=self.plies)
        if self.seconds is not None and not 0.01 <= self.seconds <= 600:
            raise ValueError(f"seconds must be in [0.01, 600], got {self.seconds!r}")


def variant(text: str) -> Variant:
    """``NAME`` or ``NAME:KEY=VALUE,...`` with keys among :class:`Variant`'s fields."""
    name, _, rest = text.partition(":")
    kinds = {f.name: f.type for f in dataclasses.fields(Variant) if f.name != "name"}
    settings = {}
    try:
        for item in filter(None, rest.split(",")):
            key, value = item.split("=")
            settings[key] = int(value) if kinds[key] == "int" else float(value)
    except (ValueError, KeyError):
        raise argparse.ArgumentTypeError(
            f"{text!r} is not NAME[:KEY=VALUE,...] with keys among {sorted(kinds)}"
        ) from None
    try:
        return Variant(name, **settings)
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None


def king_price(text: str) -> float:
    """An argparse type: a lost king's price, within the bot's bounds for ``king_loss_cp``."""
    try:
        return Variant("outcome", king=float(text)).king
    except ValueError as error:
        raise argparse.ArgumentTypeError(f"{text!r}: {error}") from None


@dataclass
class Outcomes:
    values: list[float] = field(default_factory=list)
    regrets: list[float] = field(default_factory=list)
    """The best request's outcome on the true board less this variant's choice's."""
    truth_seen: int = 0
    """Turns the true board was among the boards the variant judged."""
    changed: int = 0
    played: int = 0
    """Turns it chose the request the bot played in the game."""
    king_lost: int = 0
    piece_lost: int = 0

    def add(self, value, best_value, seen, changed, played, king) -> None:
        """One turn: the choice's ``value`` and the best request's on the true board
        (centipawns, a lost king priced at ``king``), whether the truth was judged, whether the
        choice differs from the first variant's and matches what the game played."""
        outcome, best = utility(np.array([value, best_value]), king)
        self.values.append(float(outcome))
        self.regrets.append(float(best - outcome))
        self.truth_seen += seen
        self.changed += changed
        self.played += played
        # Avoidable losses only: some request kept the king, or the material.
        self.king_lost += value <= KING_LOST_BELOW < best_value
        self.piece_lost += best - outcome >= BLUNDER_UTILITY


def replayed_sets(history, color, models, max_boards):
    """Per turn of ``color``, as its move is chosen (after its sense): ``(turn number, truth FEN,
    request played, {model: BoardSet})``, until a set would pass ``max_boards``."""
    sets = {}
    for model in models:
        board_set = BoardSet(color, max_boards=max_boards)
        if model is not None:
            board_set.set_opponent_model(*model)
        sets[model] = board_set
    for seen in observations(history, color):
        if isinstance(seen.observation, MoveResult):
            before = history.truth_fen_before_move(Turn(color, seen.turn_number))
            requested = seen.observation.requested
            yield seen.turn_number, before, requested.uci() if requested else "0000", sets
        try:
            for board_set in sets.values():
                seen.apply(board_set)
        except BoardSetTooLargeError:
            return


def keys(board_set: BoardSet) -> list[int]:
    """The position key of each board: a set keeps each position once, whichever history (and
    so half-move clock) reached it first, so boards are matched by key, not by FEN."""
    return board_set.zobrist_keys().tolist()


def decide(
    sets,
    truth_fen,
    color,
    variants,
    rng_seed,
    plies,
    seconds,
    threads,
    king=3000.0,
    truth_plies=None,
):
    """Each variant's chosen request, its value on the true board (centipawns) and whether the
    truth was among the boards it judged; and the best request's value on the true board. The
    true board is valued in the shared table, or at ``truth_plies`` in a table of its own (the
    yardstick every variant is measured by, whatever depth it judged at). The first variant's
    turn whose choice fell a piece below the best on the true board (a lost king counted at
    ``king``) also has its :class:`Disaster` under ``"why"``."""
    samples = {}
    for key in dict.fromkeys((v.model, v.sample) for v in variants):
        model, size = key
        rng = random.Random(rng_seed)
        samples[key] = weighted_sample(sets[model], size, rng, model is not None)
    shared = [v for v in variants if v.seconds is None]
    fens = [fen for v in shared for fen in samples[v.model, v.sample][0].fens()]
    # The truth is often among the samples, and the set keeps it once: columns by position key.
    union = BoardSet(color, fens=[*fens, truth_fen])
    columns = {key: i for i, key in enumerate(keys(union))}
    (truth_key,) = keys(BoardSet(color, fens=[truth_fen]))
    table = None
    if shared or truth_plies is None:
        table = board_table(
            union, most_plies=plies, least_plies=1, threads=threads, time_limit=seconds
        )
    truth = _truth_values(union, columns[truth_key], table, truth_plies, threads)
    best_truth = max(truth.values())
    chosen = {}
    for v in variants:
        boards, weights = samples[v.model, v.sample]
        if v.seconds is None:
            cols = np.array([columns[key] for key in keys(boards)])
            judged = BoardTable(table.requests, table.values[:, cols], table.plies[cols], 0)
        else:
            judged = board_table(
                boards,
                most_plies=v.plies,
                least_plies=None,
                threads=threads,
                time_limit=v.seconds,
            )
        tempered = weights**v.power
        scores = request_scores(judged, tempered / tempered.sum(), v.mean, None, v.king)
        best = max(scores, key=scores.__getitem__)
        seen = truth_key in set(keys(boards))
        chosen[v.name] = (best, truth[best], seen)
        outcome, best_outcome = utility(np.array([truth[best], best_truth]), king)
        if v is variants[0] and best_outcome - outcome >= BLUNDER_UTILITY:
            row = [uci(m) for m in judged.requests].index(best)
            board_utilities = utility(judged.values, king)
            lost = board_utilities.max(axis=0) - board_utilities[row] >= BLUNDER_UTILITY
            chosen["why"] = Disaster(
                boards=len(sets[v.model]),
                truth_in_sample=seen,
                truth_rank=_rank(sets[v.model], truth_key),
                lost_weight=float(weights[lost].sum()),
                lost_share=float(lost.mean()),
                request=best,
                score=scores[best],
                truth_value=truth[best],
                best_on_truth=max(truth, key=truth.__getitem__),
                plies=int(judged.plies.min()),
            )
    return chosen, best_truth


def _truth_values(union, truth_column, table, truth_plies, threads) -> dict[str, int]:
    """Every request's value on the true board (UCI keys): its column of the shared ``table``,
    or a search of it alone at ``truth_plies``."""
    if truth_plies is None:
        values = table.values[:, truth_column]
        return {uci(m): int(v) for m, v in zip(table.requests, values, strict=True)}
    alone = union.subset([truth_column])
    own = board_table(alone, most_plies=truth_plies, least_plies=truth_plies, threads=threads)
    return {uci(m): int(v) for m, v in zip(own.requests, own.values[:, 0], strict=True)}


@dataclass
class Disaster:
    """Why the first variant's choice fell a piece or more below the best request on the true
    board."""

    boards: int
    truth_in_sample: bool
    truth_rank: int | None
    """The true board's place by weight in the whole set (0: the likeliest)."""
    lost_weight: float
    """The sample's weight on boards where the choice also falls 300+ below their best request,
    and their share of the sample's boards."""
    lost_share: float
    request: str
    score: float
    truth_value: int
    best_on_truth: str
    plies: int


DISASTER_HEAD = (
    "| database | task | turn | boards | truth in sample | truth's rank | weight / share falling "
    "as far | request | score | value on truth | best on truth | plies |\n" + "|---" * 12 + "|"
)


def disaster_row(database: str, task: int, turn: int, why: Disaster) -> str:
    return (
        f"| {database} | {task} | {turn} | {why.boards} | {'yes' if why.truth_in_sample else 'no'} "
        f"| {'-' if why.truth_rank is None else why.truth_rank} "
        f"| {why.lost_weight:.0%} / {why.lost_share:.0%} | {why.request} | {why.score:.0f} "
        f"| {why.truth_value} | {why.best_on_truth} | {why.plies} |"
    )


def _rank(board_set: BoardSet, truth_key: int) -> int | None:
    """The true board's rank by weight in ``board_set`` (None if absent or unweighted)."""
    if board_set.opponent_model is None:
        return None
    found = np.flatnonzero(board_set.zobrist_keys() == np.uint64(truth_key))
    if not len(found):
        return None
    weights = board_set.weights()
    return int((weights > weights[found[0]]).sum())


def screen_arguments(description: str, variant_type) -> argparse.ArgumentParser:
    """The arguments every screen of stored games takes, each bounded where it enters, with
    ``--variant`` of ``variant_type``."""
    p = argparse.ArgumentParser(description=description)
    p.add_argument("databases", nargs="+")
    p.add_argument("--player", required=True, help="the bot's player name in the databases")
    p.add_argument("--variant", type=variant_type, action="append", required=True)
    p.add_argument(
        "--plies",
        type=bounded_int(1, 8, "the table's plies"),
        default=4,
        help="most plies of the table (4)",
    )
    p.add_argument(
        "--seconds",
        type=bounded_seconds(0.01, 600, "the table's time per turn"),
        default=2.0,
        help="the table's time per turn (2)",
    )
    p.add_argument("--threads", type=bounded_int(1, MAX_THREADS, "threads"), default=cores())
    p.add_argument(
        "--skip-turns",
        type=bounded_int(0, 1000, "turns left out"),
        default=4,
        help="our first turns left out (4)",
    )
    p.add_argument(
        "--every",
        type=bounded_int(1, 1000, "the stride"),
        default=1,
        help="screen every n-th turn (1)",
    )
    p.add_argument(
        "--tasks",
        type=lambda t: {int(x) for x in t.split(",")},
        default=None,
        help="only these task indices, comma-separated (default: every game)",
    )
    p.add_argument(
        "--outcome-king",
        type=king_price,
        default=3000.0,
        help="a lost king's outcome on the true board, as king_loss_cp prices it (3000)",
    )
    p.add_argument(
        "--max-boards",
        type=bounded_int(1, 50_000_000, "the replayed set's bound"),
        default=DEFAULT_MAX_BOARDS,
    )
    p.add_argument("--seed", type=int, default=0)
    return p


def main(argv=None) -> int:
    p = screen_arguments(__doc__.split("\n\n")[0], variant)
    p.add_argument(
        "--truth-plies",
        type=bounded_int(1, 8, "the true board's plies"),
        default=None,
        help="value the true board alone at this many plies (default: in the shared table); "
        "needed by variants with their own seconds",
    )
    p.add_argument(
        "--disasters",
        action="store_true",
        help="print a row for each turn the first variant's choice fell 300+ below the best "
        "request on the true board",
    )
    args = p.parse_args(argv)
    variants = args.variant
    if args.truth_plies is None and any(v.seconds is not None for v in variants):
        p.error("a variant with its own seconds needs --truth-plies: a yardstick of one depth")
    models = list(dict.fromkeys(v.model for v in variants))
    results = {v.name: Outcomes() for v in variants}
    base = variants[0].name
    decisions = 0
    started = time.monotonic()
    if args.disasters:
        print(DISASTER_HEAD)
    for path in args.databases:
        db = read_only(path)
        for index, color, _winner, history in player_games(db, args.player):
            if args.tasks is not None and index not in args.tasks:
                continue
            for number, truth, played, sets in replayed_sets(
                history, color, models, args.max_boards
            ):
                if number < args.skip_turns or number % args.every:
                    continue
                seed = args.seed * 1_000_003 + index * 1_009 + number
                chosen, best_value = decide(
                    sets,
                    truth,
                    color,
                    variants,
                    seed,
                    args.plies,
                    args.seconds,
                    args.threads,
                    args.outcome_king,
                    args.truth_plies,
                )
                decisions += 1
                why = chosen.pop("why", None)
                if why is not None and args.disasters:
                    print(disaster_row(Path(path).name, index, number, why))
                for v in variants:
                    request, value, seen = chosen[v.name]
                    results[v.name].add(
                        value,
                        best_value,
                        seen,
                        request != chosen[base][0],
                        request == played,
                        args.outcome_king,
                    )
            print(
                f"{path} task {index}: {decisions} decisions, {time.monotonic() - started:.0f} s",
                file=sys.stderr,
                flush=True,
            )
    report(results, base, decisions)
    return 0


def report(results: dict[str, Outcomes], base: str, decisions: int) -> None:
    print(f"{decisions} decisions")
    print(
        "| variant | mean outcome | vs first (95 %) | mean regret | truth judged "
        "| other request | as played | king lost | a piece below best |"
    )
    print("|---|---|---|---|---|---|---|---|---|")
    first = np.array(results[base].values)
    for name, out in results.items():
        values = np.array(out.values)
        diff = values - first
        half = 1.96 * diff.std(ddof=1) / math.sqrt(len(diff)) if len(diff) > 1 else 0.0
        print(
            f"| {name} | {values.mean():.1f} | {diff.mean():+.1f} ± {half:.1f} "
            f"| {np.mean(out.regrets):.1f} | {out.truth_seen / decisions:.1%} "
            f"| {out.changed / decisions:.1%} | {out.played / decisions:.1%} "
            f"| {out.king_lost} | {out.piece_lost} |"
        )


if __name__ == "__main__":
    raise SystemExit(main())
