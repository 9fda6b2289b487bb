"""The reconchess player: its callbacks, and the turn each one is part of.

A turn: the opponent's move result expands the set (boards weighted by the opponent model); the
clock plan gives the turn its time (:mod:`fogsearch.bot.clock`); the sense goes where the coming
move decision gains most (:mod:`fogsearch.bot.sensing`); the move is the best-scored request on
the likeliest ``max_search_boards`` boards (:mod:`fogsearch.bot.judgement`, or the
information-set search's worst case with ``judge="set"``), ties broken by
:mod:`fogsearch.bot.requests`; the move result narrows the set again. A search that fails never
loses the game: the bot plays a fallback move and counts it, so a tournament can tell such
results apart.
"""

from __future__ import annotations

import dataclasses
import logging
import random
import statistics
import time

import chess
import numpy as np
from reconchess import Color, GameHistory, Player, Square, WinReason

from fogsearch.bot.clock import (
    decision_hardness,
    move_budget,
    part_budget,
    set_hardness,
    tracking_budget,
    turn_budget,
)
from fogsearch.bot.config import FogsearchBotConfig, opening_moves
from fogsearch.bot.judgement import likeliest_first_table, request_scores, worst_values
from fogsearch.bot.requests import (
    LOST,
    best_mean,
    choose_request,
    opening_candidates,
    own_pawns,
    progress_margin,
    progress_requests,
    safe_requests,
    uci,
)
from fogsearch.bot.sensing import SenseChoice, decision_sense, smallest_expected_set
from fogsearch.bot.tracker import Tracker
from fogsearch.bot.turnlog import format_turn, top_requests
from fogsearch.observations import MoveResult, OpponentMoveResult, sense_result
from fogsearch.rbc import BoardSet
from fogsearch.search import (
    BoardTable,
    EngineJudge,
    Searcher,
    SearchResult,
    board_table,
    mean_reply_values,
)

log = logging.getLogger("fogsearch.bot")

LEAST_SEARCH_SECONDS = 0.01
"""The time limit of a turn whose budget is spent: the search then returns depth 1."""
LEAST_BOARD_SECONDS = 0.1
"""The board judgement's time when the turn's budget is spent: enough for the capture search on
most boards (static values on the rest)."""
LEAST_DECISION_SENSE_SECONDS = 0.05
"""Below this much sense time the set-size criterion chooses the sense."""
CLOSE_DECISION_CP = 50.0
"""Best two requests this close (or closer) make a turn hard for the clock plan."""
MAX_INCREMENT_SECONDS = 3600.0
"""A measured increment is clamped to this (a clock that jumps further is not an increment)."""
AFTER_SEARCH_SMOOTHING = 0.5
"""The weight of the latest turn in the running estimate of the time a turn takes after its
move search (choosing among ties, narrowing the set by the move's result)."""


class FogsearchBot(Player):
    """A reconchess player driven by a fogsearch :class:`~fogsearch.rbc.BoardSet`."""

    def __init__(self, config: FogsearchBotConfig | None = None):
        self.config = config or FogsearchBotConfig()
        self.rng = random.Random(self.config.search.seed)
        self.color: Color = chess.WHITE
        self.tracker = self._new_tracker()
        self.searcher = Searcher(self.config.search)
        """The information-set search's tables, kept from turn to turn within a game."""
        self._engine_judge: EngineJudge | None = None
        """The ``"engine"`` judgement's engines and cache, started on its first turn and kept."""
        self.fallbacks = 0
        """Turns decided without the search (it raised, or proposed no legal request). The
        tournament stores this per game: a bot that falls back every turn plays randomly and still
        finishes its games, so only this count tells such results apart."""
        self.last_search: SearchResult | None = None
        self.last_taken: chess.Move | None = None
        self.turn_log: list[dict] = []
        self._turn: dict = {}
        self.quiet_bound = 0
        """Half-moves since the last capture or our last pawn move: the most reconchess's
        half-move clock can be (an unseen pawn move of the opponent's resets it). The set cannot
        say this: a position reached by two histories is kept once, with one history's clock."""
        self._own_pawns: frozenset[Square] = frozenset()
        self._opponent_has_moved = False
        self._opening: list[chess.Move] = []
        """The opening requests still to play; emptied once one is not played as requested."""
        self._worst_values: dict[str, int] | None = None
        """The last search's worst value of each request over its boards (UCI keys)."""
        self._set_hardness = 0.0
        self._decision_hardness = 0.0
        self._turn_started: float | None = None
        """When our turn (and our clock) started: the opponent's move result opens it."""
        self._search_ended: float | None = None
        self._after_search_seconds = 0.0
        """What a turn is expected to take after its move search, from the turns before."""
        self._clock_mark: tuple[float, float] | None = None
        """The clock as the referee last reported it, and when (monotonic seconds)."""
        self._clock_at_turn_end: float | None = None
        """Our clock as our last turn ended, before the referee added the increment."""
        self._increments: list[float] = []
        """The increment the referee added at each of our turns, as measured."""

    def _new_tracker(self) -> Tracker:
        c = self.config
        bound = c.set_limits.max_tracked_boards
        return Tracker(self.color, bound, self.rng, c.search.threads, c.opponent.model)

    @property
    def board_set(self) -> BoardSet:
        return self.tracker.board_set

    @property
    def recoveries(self) -> int:
        return self.tracker.recoveries

    @property
    def approximations(self) -> int:
        """Opponent moves applied to a sample of the set, which was too large to expand exactly."""
        return self.tracker.approximations

    @property
    def measured_increment(self) -> float | None:
        """The increment the referee adds to our clock each turn, measured from the clocks it
        reports (the median over the turns so far); None before the second turn."""
        return statistics.median(self._increments) if self._increments else None

    # -- reconchess callbacks ------------------------------------------------------------------
    def handle_game_start(self, color: Color, board: chess.Board, opponent_name: str):
        self.color = color
        self.tracker = self._new_tracker()
        self.searcher = Searcher(self.config.search)
        self.turn_log, self._turn, self.last_search = [], {}, None
        self.last_taken = None
        self.fallbacks = 0
        self.quiet_bound = 0
        self._opponent_has_moved = color == chess.BLACK
        line = self.config.opening.opening_as_black
        self._opening = opening_moves(line) if color == chess.BLACK else []
        self._turn_started = self._search_ended = None
        self._after_search_seconds = 0.0
        self._clock_mark = self._clock_at_turn_end = None
        self._increments = []

    def handle_opponent_move_result(self, captured_my_piece: bool, capture_square: Square | None):
        self._turn_started = time.monotonic()
        observation = OpponentMoveResult(captured_my_piece, capture_square)
        self.tracker.observe(observation, self._tracking_seconds())
        # White's first turn also starts with this callback, before any opponent move.
        if self._opponent_has_moved:
            self.quiet_bound = 0 if captured_my_piece else self.quiet_bound + 1
        self._opponent_has_moved = True
        self._turn = {
            "turn": len(self.turn_log) + 1,
            "after_opponent": len(self.board_set),
            "track_seconds": time.monotonic() - self._turn_started,
        }

    def choose_sense(self, sense_actions, move_actions, seconds_left: float) -> Square | None:
        c = self.config
        squares = list(sense_actions)
        self._set_hardness = set_hardness(len(self.board_set))
        self._decision_hardness = 0.0
        sense_seconds = self._part_budget(seconds_left, self._set_hardness, c.clock.sense_share)
        started = time.monotonic()
        expected = self.tracker.board_set.sense_stats()
        choice = SenseChoice(smallest_expected_set(expected, squares), "size")
        if c.sensing.sense == "decision" and sense_seconds >= LEAST_DECISION_SENSE_SECONDS:
            try:
                boards, weights = self.tracker.weighted_sample(c.set_limits.max_search_boards)
                choice = decision_sense(
                    boards,
                    weights,
                    squares,
                    expected,
                    c.mean_weight,
                    c.sensing.sense_plies,
                    c.search.threads,
                    sense_seconds,
                    c.king_loss_cp,
                )
            except Exception:  # noqa: BLE001 - a sense by set size is always at hand
                log.exception("decision sensing failed; sensing by set size")
        self._decision_hardness = decision_hardness(list(choice.unsensed_scores), CLOSE_DECISION_CP)
        square = choice.square
        self._turn.update(
            sense=chess.square_name(square) if square is not None else None,
            sense_by=choice.criterion,
            sense_gain=round(choice.gain, 1),
            sense_seconds=time.monotonic() - started,
            expected_after_sense=expected.get(square) if square is not None else None,
        )
        return square

    def handle_sense_result(self, sense_result_pairs):
        self.tracker.observe(sense_result(sense_result_pairs))
        self._turn["after_sense"] = len(self.board_set)

    def choose_move(self, move_actions, seconds_left: float) -> chess.Move | None:
        hardness = (self._set_hardness + self._decision_hardness) / 2
        share = 1.0 - self.config.clock.sense_share
        budget = self._move_budget(seconds_left, hardness, share)
        self._turn.update(seconds_left=seconds_left, budget=budget, quiet=self.quiet_bound)
        self._search_ended = None
        # Unknown until the search reads a board: a move then counts as not resetting the clock,
        # which keeps quiet_bound an upper bound if the search fails.
        self._own_pawns = frozenset()
        try:
            move = self._search_move(budget)
        except Exception:  # noqa: BLE001 - a search failure must never lose the game
            log.exception("search failed; playing a fallback move")
            move = self._fallback_move(move_actions)
        if move is not None and move not in move_actions:
            log.warning("search proposed %s, not a move action; using a fallback", move)
            move = self._fallback_move(move_actions)
        return move

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self.tracker.observe(
            MoveResult(requested_move, taken_move, captured_opponent_piece, capture_square)
        )
        resets = taken_move is not None and (
            captured_opponent_piece or taken_move.from_square in self._own_pawns
        )
        self.quiet_bound = 0 if resets else self.quiet_bound + 1
        if self._opening:
            on_line = taken_move == requested_move == self._opening[0]
            self._opening = self._opening[1:] if on_line else []
        self._turn.update(
            requested=requested_move.uci() if requested_move else None,
            taken=taken_move.uci() if taken_move else None,
            capture=chess.square_name(capture_square) if capture_square is not None else None,
            after_move=len(self.board_set),
        )
        self._count_turn_time()
        self.turn_log.append(self._turn)
        log.info(format_turn(self._turn))
        self.last_search = None
        self.last_taken = taken_move

    def handle_game_end(self, winner_color, win_reason: WinReason, game_history: GameHistory):
        pass

    # -- the clock -----------------------------------------------------------------------------
    def _part_budget(self, seconds_left: float, hardness: float, share: float) -> float:
        """Seconds for the sense (``share`` of the turn): the plan's turn budget from the clock
        as the turn started, less what the turn has spent so far and what it is expected to
        spend after the move's search."""
        allowance, elapsed = self._turn_allowance(seconds_left, hardness)
        return part_budget(allowance, share, elapsed, self._after_search_seconds)

    def _move_budget(self, seconds_left: float, hardness: float, share: float) -> float:
        """Seconds for the move's search: its part of the turn as for the sense, but never less
        than its planned share or ``min_move_seconds``, whichever is less, while the clock
        beyond the reserve holds it (:func:`fogsearch.bot.clock.move_budget`)."""
        allowance, elapsed = self._turn_allowance(seconds_left, hardness)
        after = self._after_search_seconds
        budget = part_budget(allowance, share, elapsed, after)
        return move_budget(self.config.clock, seconds_left, share * allowance, budget, after)

    def _turn_allowance(self, seconds_left: float, hardness: float) -> tuple[float, float]:
        """The plan's budget for the whole turn, from the clock as the turn started, and the
        seconds the turn has spent so far. The plan counts on the increment measured over the
        game once a turn has shown it (the referee does not tell it)."""
        now = time.monotonic()
        elapsed = now - self._turn_started if self._turn_started is not None else 0.0
        at_start = seconds_left + elapsed
        self._read_clock(seconds_left, at_start, now)
        plan = self.config.clock
        increment = self.measured_increment
        if increment is not None:
            # The median: a referee's hiccup between two turns moves one measurement, not the plan.
            plan = dataclasses.replace(plan, increment_seconds=increment)
        return turn_budget(plan, at_start, len(self.turn_log), hardness), elapsed

    def _tracking_seconds(self) -> float | None:
        """What the set's expansion may take of the turn that starts now
        (:func:`fogsearch.bot.clock.tracking_budget`), from our clock as our last turn ended plus
        the increment measured so far (none before it is); None on our first turn."""
        if self._clock_at_turn_end is None:
            return None
        clock = self._clock_at_turn_end + (self.measured_increment or 0.0)
        return tracking_budget(self.config.clock, clock)

    def _read_clock(self, seconds_left: float, at_start: float, now: float) -> None:
        """Notes the clock the referee reported (``seconds_left`` at ``now``; ``at_start`` as the
        turn started) and, on a turn's first report, the increment added since our last turn."""
        if self._clock_at_turn_end is not None:
            measured = at_start - self._clock_at_turn_end
            self._increments.append(min(MAX_INCREMENT_SECONDS, max(0.0, measured)))
            self._clock_at_turn_end = None
        self._clock_mark = (seconds_left, now)

    def _count_turn_time(self) -> None:
        """Logs the turn's own time, and updates what a turn takes after its move search and
        where the clock stands as the turn ends."""
        now = time.monotonic()
        if self._clock_mark is not None:
            reported, at = self._clock_mark
            self._clock_at_turn_end = reported - (now - at)
        if self._turn_started is not None:
            self._turn["turn_seconds"] = now - self._turn_started
        if self._search_ended is not None:
            latest = now - self._search_ended
            self._after_search_seconds += AFTER_SEARCH_SMOOTHING * (
                latest - self._after_search_seconds
            )
        self._turn_started = self._search_ended = None

    # -- the move ------------------------------------------------------------------------------
    def _fallback_move(self, move_actions) -> chess.Move | None:
        self.fallbacks += 1
        return self.rng.choice(list(move_actions)) if move_actions else None

    def _search_move(self, budget: float) -> chess.Move | None:
        c = self.config
        started = time.monotonic()
        boards, weights = self.tracker.weighted_sample(c.set_limits.max_search_boards)
        self._own_pawns = own_pawns(boards)
        if c.judge == "set":
            move_values, margin = self._set_values(boards, budget), c.tie_break.tie_margin_cp
            self._worst_values = move_values
        else:
            move_values, margin = self._board_values(boards, weights, budget, started), 0
        self._search_ended = time.monotonic()
        self._turn.update(
            search_seconds=self._search_ended - started, top=top_requests(move_values)
        )

        def means_of(requests):
            self._turn["tied"] = len(requests)
            return mean_reply_values(
                boards, requests, leaf=c.search.leaf, mate_threats=c.tie_break.mate_threats
            )

        if self._opening:
            line = c.opening
            playable = opening_candidates(
                move_values, line.opening_margin_cp, self._worst_values, line.opening_safety_cp
            )
            if self._opening[0] in playable:
                self._turn["opening"] = True
                return self._opening[0]
            left_request, self._opening = uci(self._opening[0]), []
            if left_request in move_values:
                self._turn["opening"] = False
                # What made the line's request unsafe makes the best one unsafe as often as not
                # (2. Nc3 takes on e4 the knight that fled 2. e5): the best of the safe ones.
                safe = safe_requests(move_values, self._worst_values, line.opening_safety_cp)
                if max(move_values.values()) > LOST and len(safe) < len(move_values):
                    return max(safe, key=lambda m: move_values[uci(m)])
        quiet = max(self.quiet_bound, boards.max_halfmove_clock())
        if quiet >= c.progress.progress_halfmoves:
            pushes = progress_requests(
                boards, move_values, progress_margin(boards, quiet, c.progress)
            )
            self._turn["progress"] = len(pushes)
            if pushes:
                return best_mean(pushes, means_of)
        return choose_request(move_values, self.last_taken, margin, means_of)

    def _set_search(self, boards: BoardSet, depth: int, limit: float) -> SearchResult:
        # A spent budget still searches depth 1, which always completes: never a fallback move.
        result = self.searcher.search(boards, depth, time_limit=max(limit, LEAST_SEARCH_SECONDS))
        self.last_search = result
        self._turn.update(value=result.value, depth=result.depth)
        return result

    def _set_values(self, boards: BoardSet, budget: float) -> dict[str, int]:
        """The information-set search's worst-case value of each request, deepest on small sets."""
        c, small = self.config, self.config.small_sets
        depth, limit = c.depth, budget
        if small.small_set_depth > c.depth and len(boards) <= small.small_set_boards:
            depth, limit = small.small_set_depth, min(budget, small.small_set_seconds)
        return self._set_search(boards, depth, limit).move_values

    def _board_values(
        self, boards: BoardSet, weights, budget: float, started: float
    ) -> dict[str, int]:
        """Each request's compound score over the boards (:mod:`fogsearch.bot.judgement`),
        rounded to centipawns; on a small set the minimum, if it has any weight, is the
        information-set search's."""
        c, small = self.config, self.config.small_sets
        set_values = None
        # With the whole weight on the mean the minimum counts for nothing: no set search for it.
        if c.mean_weight < 1.0 and small.small_set_depth and len(boards) <= small.small_set_boards:
            limit = min(budget / 2, small.small_set_seconds)
            set_values = self._set_search(boards, small.small_set_depth, limit).move_values
        left = max(LEAST_BOARD_SECONDS, budget - (time.monotonic() - started))
        if c.judge == "engine":
            table = self._engine_table(boards, weights, left)
        else:
            # Nothing is certain: at one ply 256 boards of a busy middle game take seconds, and
            # one board's capture search alone can take a second; boards the deadline cuts keep
            # static values.
            table = board_table(
                boards,
                least_plies=None,
                most_plies=c.board_plies,
                threads=c.search.threads,
                time_limit=left,
            )
        self._worst_values = worst_values(table)
        scores = request_scores(table, weights, c.mean_weight, set_values, c.king_loss_cp)
        self._turn.update(value=round(max(scores.values())), plies=int(table.plies.min()))
        return {key: round(score) for key, score in scores.items()}

    def _engine_table(self, boards: BoardSet, weights: np.ndarray, seconds: float) -> BoardTable:
        search = self.config.search
        if self._engine_judge is None:
            self._engine_judge = EngineJudge(search.uci_engine, search.uci_depth, search.uci_nodes)
        table = likeliest_first_table(self._engine_judge, boards, weights, search.threads, seconds)
        self._turn["judged"] = int((table.plies >= 0).sum())
        return table
