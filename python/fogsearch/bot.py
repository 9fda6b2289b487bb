"""fogsearch's reconchess bot: exact board-set tracking, greedy set-shrinking senses, and moves from
the information-set search under the official clock.

Load it with reconchess's own tools::

    rc-bot-match fogsearch.bot reconchess.bots.random_bot
    rc-connect fogsearch.bot ...
"""

from __future__ import annotations

import logging
import random
import time
from collections.abc import Callable
from dataclasses import dataclass, field
from typing import Any

import chess
from reconchess import Color, GameHistory, Player, Square, WinReason

from fogsearch import FogsearchError
from fogsearch.rbc import BoardSet, BoardSetTooLargeError, revise_move
from fogsearch.search import (
    MATE,
    MAX_BOARD_PLIES,
    SearchConfig,
    SearchResult,
    mean_reply_values,
)

log = logging.getLogger(__name__)


_SENSE_MODES = ("value", "min_size")


@dataclass
class FogsearchBotConfig:
    """Settings of :class:`FogsearchBot` (all have tournament-ready defaults)."""

    depth: int = 2
    """Deepest search depth (our moves); iterative deepening stops earlier when time runs out."""
    small_set_depth: int = 3
    """On sets of at most ``small_set_boards`` boards the search goes this deep instead (when
    deeper than ``depth``; 0: never), within ``small_set_seconds`` a turn, returning the deepest
    depth it completes. Plain depth 3 within 3 s a turn scored 0.80 against TroutBot (0.72-0.75 at
    depth 2) but spent its whole budget on every large set, where it seldom completes: against
    AttackerBot, which passes once its attack fails, games took ten times longer. Gated by size,
    the deeper search runs where it completes: 83-3-14 (0.845) against TroutBot and 200 of 200
    against RandomBot and AttackerBot, at about the speed of depth 2 (bench/RESULTS.md)."""
    small_set_boards: int = 32
    shallower_when_lost: bool = False
    """When the search finds that every request loses our king on some board, choose by the
    deepest shallower search that does not (:meth:`FogsearchBot._shallower_unless_lost`). The
    worst case over a set grows more pessimistic with depth, since the opponent's unseen pieces
    may stand wherever the observations allow; every request then ties, and the one-reply mean
    alone chooses among them, where the shallower search still told them apart. On the sets the
    bot held in recorded TroutBot games, depth 3 within 8 s found every request losing where
    depth 2 did not on 3 of 79 sets of at most 32 boards and on 6 of 45 sets of 33-512 boards
    (bench/depth_when_lost.py). With it and depth 3 on sets of up to 64 boards
    (``small_set_boards=64``) the bot scored 86-0-14 (0.860) over 100 games against TroutBot,
    against 87-0-13 and 85-4-11 without, and 0.813 against a live engine as before
    (bench/RESULTS.md), so it is off by default."""
    small_set_seconds: float = 8.0
    """Within 3 s depth 3 often did not complete even on one board, while the bot ended its
    TroutBot games with a median 987 s of its clock left; 8 s scored 0.870 over 100 games against
    TroutBot (85-4-11; 0.845 and 0.815 with 3 s), games taking 73 s, not 56 s (bench/RESULTS.md)."""
    search_mode: str = "exact"
    """Search cache mode: "none", "exact", "sketch" or "exact+sketch"."""
    leaf: str = "static"
    """How the search and the tie-break score a board after the opponent's last reply:
    ``"static"``, ``"exchange"`` (plus the static exchange on the square where that reply
    captured) or ``"king_safety"`` (plus how much more exposed their king stands than ours; see
    :class:`fogsearch.search.SearchConfig`). Against TroutBot ``"exchange"`` scored 71-4-25 over
    100 games against 74-2-24, and ``"king_safety"`` 85-0-15 against the default's 93-0-7 on the
    same seed (as White 40-0-10: its pawn-shield term kept the centre pawns in front of the king
    on e1 at home; bench/RESULTS.md), so the default stays ``"static"``."""
    max_search_boards: int = 256
    """Above this many boards the search works on a seeded sample; tracking stays exact (up to
    ``max_tracked_boards``). 512 scored 90-1-9 and then 83-2-15 over 100 games each against
    TroutBot (0.873 together; 0.860-0.870 in three runs at 256): no better, so the default stays
    256, which takes half the time on a large set (bench/RESULTS.md)."""
    max_tracked_boards: int = 4_000_000
    """Memory bound of the tracked set (about 0.4 GiB at ~100 bytes a board). Tracking is exact
    below it; an opponent move that would expand the set past it is applied to a seeded uniform
    sample of the boards instead (logged, counted in ``approximations``), which may lose the true
    board (an observation then finds no board and the set is rebuilt from the log, under the same
    bound). Without it an exact set grown by unobserved opponent moves exhausted memory: in two
    games at depth 3 against TroutBot the set passed 23 GiB and the kernel killed the game."""
    turns_to_plan: int = 25
    """The remaining clock is spread over this many turns."""
    min_turn_seconds: float = 0.2
    max_turn_seconds: float = 20.0
    safety_seconds: float = 15.0
    """Never plan to use the last this-many seconds of the clock."""
    threads: int = 1
    tie_margin_cp: int = 50
    """Requests within this many centipawns of the best worst-case value tie (every request ties
    when the best one still loses our king on some board). With the set's worst board deciding
    every value, many requests tie; a tie goes to the best mean over the boards of the one-reply
    outcome, so the bot keeps its king safe on as many boards as it can and takes material
    where it is likely to be, instead of playing the first tied request forever."""
    mate_threats: bool = True
    """In that tie-break, also look one move further on each board: a request after which some
    reply leaves our king attacked with no move of ours saving it scores ``-MATE / 2`` there
    (:func:`fogsearch.search.mean_reply_values`). At the turn that decided each of 9 losses of a
    100-game TroutBot run, every request lost our king on some board, so the one-reply mean chose
    the move, and walked the king into mates it could not see (one queen move left a mate on
    every board of the set); looking for them changed that move in 3 of the 9 to one that was
    safe on the true board. Against TroutBot it scored 86-1-13 and 91-0-9 (0.8875 over 200 games)
    against 0.868 over 384 without it, and 200-0-0 against RandomBot and AttackerBot
    (bench/RESULTS.md)."""
    check_weight: float = 1.0
    """In that tie-break, each board on which our king is in check counts this many times. The
    opponent gives check far more often than a uniform guess over the set assumes: in 11 of the
    bot's 14 losses of its best TroutBot run the true board had our king in check at its last move
    while only 4-25 % of the set did, and every request lost the king on some board, so the
    uniform mean chose the move. But weight 4 scored 80-2-18 over 100 games against TroutBot, no
    better than 83-3-14 without it (several such losses were already lost on the board;
    bench/RESULTS.md), so it is off by default."""
    progress_halfmoves: int = 40
    """Once reconchess's half-move clock may have reached this many half-moves without a capture
    or a pawn move (``FogsearchBot.quiet_bound``), the bot plays a request that resets the clock
    within ``progress_margin_cp`` of the best request (the best mean of them; see
    :func:`progress_requests`): the worst-case search cannot see reconchess's 100-half-move
    draw, and against a passive opponent it otherwise repeats speculative captures until the
    game is drawn."""
    progress_margin_cp: int = 150
    progress_force_halfmoves: int = 90
    """From this many quiet half-moves (0: never), while we are not behind in material on any
    board searched, any request that resets the clock is played, however the worst case values it:
    the draw is then a few moves away. All 7 draws of three TroutBot runs (265 games) were
    reconchess's 100-half-move draw in games where TroutBot's Stockfish had died (TroutBot then
    passes every move), the bot 400-1200 cp ahead and moving a piece back and forth or
    requesting a blocked push for 50 moves (bench/RESULTS.md)."""
    tempo_cp: int = 0
    """A request that is a pass on a board (a pawn capture onto an empty square, a blocked push, a
    pass) hands the opponent a free move, which the one-reply mean cannot see: where requests tie,
    each one's mean then loses this much times the share of boards on which it passes. 13.5 % of
    the bot's requests against TroutBot were pawn captures onto empty squares; 50 cp cut that to
    9 % but scored 71-2-27 over 100 games against 74-2-24 without (bench/RESULTS.md), so it is off
    by default."""
    sense_mode: str = "min_size"
    """``"min_size"``: sense where the expected number of boards left is smallest. ``"value"``:
    sense where knowing the result is worth most to the next move (see
    :func:`fogsearch.search.sense_values`; largest where some boards threaten our king), when
    that is worth at least ``sense_value_min_cp`` more than not sensing and the set holds at most
    ``sense_value_max_boards`` boards, the smallest expected set among the most valuable squares;
    otherwise as ``"min_size"``. Against TroutBot both scored alike over 100 games (bench/RESULTS.md),
    so the default stays the cheaper one that the baseline gauntlet measured."""
    check_sense_weight: float = 0.0
    """Sensing can also weigh what the sense settles about whether our king is in check: where
    some boards but not all have it in check, the sense then minimises the expected boards left
    plus this much times the boards whose check status it leaves in doubt (its check doubt times
    the set's size; :meth:`fogsearch.rbc.BoardSet.sense_check_stats`); 0: by size alone. In 17 of
    the 18 losses of a 100-game TroutBot run our king was in check on the true board at our last
    move, and in 8 a sense existed that settled it where the set-shrinking one did not
    (`bench/loss_replay.py`). But weight 10 scored 51-1-13 (0.792) over 65 TroutBot games
    against 0.898 without it on the same game seeds (as Black 20-1-11): in 8 of its 13 losses
    the sense had settled the check and the king fell anyway, so the lost set-shrinking bought
    little (bench/RESULTS.md). It is off by default."""
    check_sense_max_boards: int = 5_000
    """Above this many boards the sense shrinks the set by size alone: weighing check there left
    sets unshrunk against RandomBot until one passed ``max_tracked_boards``."""
    board_search_boards: int = 0
    """On a set of at most this many boards (0: never) the request is the one with the best mean,
    over the boards, of a per-board perfect-information search ``board_search_plies`` deep
    (:func:`fogsearch.search.board_values`), when it finishes within the turn's budget: with the
    board (nearly) known, the set search sees only two moves ahead and no exchanges at its
    leaves, which is where the bot lost material against TroutBot. With 8 boards and 4 plies it
    scored 65-4-31 over 100 games against TroutBot, against 74-2-24 without (bench/RESULTS.md):
    assuming the opponent sees our board gives up what the set search knows about its
    uncertainty, so it is off by default."""
    board_search_plies: int = 4
    sense_value_min_cp: float = 25.0
    sense_value_max_boards: int = 50_000
    """Above this many boards the bot senses to shrink the set: a set that is never shrunk grows
    by every opponent move (in a 100-game run without this bound one game's process grew past
    12 GiB and the kernel killed it)."""
    opening_as_black: str = "g8f6 e7e6 f8e7 e8g8"
    """Requests (UCI, space-separated) that the bot plays as Black on its first turns, each while
    the search values it within ``opening_margin_cp`` of the best request, not losing, and every
    earlier one was taken as requested; from the first that fails on, it plays as without them
    (empty: no line). Black was the bot's weak colour: in three 100-game TroutBot runs 27 of its
    38 losses were as Black, 7 of them within 20 moves with its king uncastled on e8 or f8, and
    its own search played slow, king-exposing setups. With this line (develop the king's side,
    castle) it scored 169-0-23 (0.880) as Black over 192 games in four runs against TroutBot,
    against 120-3-27 (0.81) over 150 without (bench/RESULTS.md)."""
    opening_as_white: str = ""
    """The same as ``opening_as_black``, for White; empty by default. White lost 18 of the 110
    games in which it had not castled and 2 of the 82 in which it had, over four TroutBot runs
    (384 games), but ``"g1f3 e2e3 f1e2 e1g1"`` scored 44-0-6 as White over 50 games, no better
    than White's 216-1-25 (0.895) over 242 games in the five runs without it: the search left
    the line at its third request in 27 of the 50 (bench/RESULTS.md)."""
    opening_margin_cp: int = 200
    """The worst case over a set is pessimistic about quiet developing moves: after 1. Nf3, sensed,
    the depth-3 search valued 1... Nf6 at -449 cp on the worst of 13 boards and 1... c6 at -321,
    so an opening held to ``tie_margin_cp`` (50) ends on its first move."""
    seed: int = 0
    search_options: dict[str, Any] = field(default_factory=dict)
    """Extra fields for :class:`fogsearch.rbc.SearchConfig`."""

    def __post_init__(self) -> None:
        # A negative margin would leave no request tied with the best one. A bad search setting
        # would otherwise surface only as a failed search every turn, which the bot survives by
        # playing random fallback moves: a silently random bot.
        for name, least in (
            ("tie_margin_cp", 0),
            ("progress_halfmoves", 0),
            ("progress_margin_cp", 0),
            ("progress_force_halfmoves", 0),
            ("tempo_cp", 0),
            ("opening_margin_cp", 0),
            ("sense_value_max_boards", 0),
            ("check_sense_max_boards", 0),
            ("board_search_boards", 0),
            ("board_search_plies", 0),
            ("small_set_depth", 0),
            ("small_set_boards", 1),
            ("depth", 1),
            ("max_search_boards", 1),
            ("max_tracked_boards", 256),
            ("turns_to_plan", 1),
        ):
            value = getattr(self, name)
            if isinstance(value, bool) or not isinstance(value, int) or value < least:
                wanted = "a non-negative int" if least == 0 else f"an integer >= {least}"
                raise ValueError(f"{name} must be {wanted}, got {value!r}")
        for name in (
            "min_turn_seconds",
            "max_turn_seconds",
            "safety_seconds",
            "sense_value_min_cp",
            "small_set_seconds",
            "check_weight",
            "check_sense_weight",
        ):
            value = getattr(self, name)
            if not isinstance(value, (int, float)) or not 0 <= value < float("inf"):
                raise ValueError(f"{name} must be a finite number >= 0, got {value!r}")
        for name in ("shallower_when_lost", "mate_threats"):
            if not isinstance(getattr(self, name), bool):
                raise ValueError(f"{name} must be a bool, got {getattr(self, name)!r}")
        # Raise ValueError for a malformed line before any game.
        opening_moves(self.opening_as_black, "opening_as_black")
        opening_moves(self.opening_as_white, "opening_as_white")
        if self.min_turn_seconds > self.max_turn_seconds:
            raise ValueError(
                f"min_turn_seconds ({self.min_turn_seconds}) exceeds max_turn_seconds "
                f"({self.max_turn_seconds})"
            )
        if self.board_search_plies > MAX_BOARD_PLIES:
            raise ValueError(
                f"board_search_plies must be at most {MAX_BOARD_PLIES}, got {self.board_search_plies}"
            )
        if self.sense_mode not in _SENSE_MODES:
            raise ValueError(f"sense_mode must be one of {_SENSE_MODES}, got {self.sense_mode!r}")
        self.search_config(time_limit=1.0)  # raises ValueError/TypeError for a bad search setting

    def search_config(self, time_limit: float) -> SearchConfig:
        """The search configuration of one turn with ``time_limit`` seconds."""
        return SearchConfig(
            mode=self.search_mode,
            sense_mode="min_size",
            leaf=self.leaf,
            threads=self.threads,
            time_limit=time_limit,
            **self.search_options,
        )


class FogsearchBot(Player):
    """A reconchess player driven by a fogsearch :class:`~fogsearch.rbc.BoardSet`."""

    def __init__(self, config: FogsearchBotConfig | None = None):
        self.config = config or FogsearchBotConfig()
        self.rng = random.Random(self.config.seed)
        self.color: Color = chess.WHITE
        self.board_set: BoardSet | None = None
        self.observations: list[tuple] = []
        self.recoveries = 0
        self.approximations = 0
        """Opponent moves applied to a sample of the set, which was too large to expand exactly."""
        self.fallbacks = 0
        """Turns decided without the search (it raised, or proposed no legal request). The
        tournament stores this per game: a bot that falls back every turn plays randomly and still
        finishes its games, so only this count tells such results apart."""
        self.last_search = None
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

    # -- reconchess callbacks ------------------------------------------------------------------
    def handle_game_start(self, color: Color, board: chess.Board, opponent_name: str):
        self.color = color
        self.board_set = self._new_set()
        self.observations = []
        self.last_taken = None
        self.recoveries = 0
        self.approximations = 0
        self.fallbacks = 0
        self.quiet_bound = 0
        self._opponent_has_moved = color == chess.BLACK
        line = (
            self.config.opening_as_white if color == chess.WHITE else self.config.opening_as_black
        )
        self._opening = opening_moves(line)

    def handle_opponent_move_result(self, captured_my_piece: bool, capture_square: Square | None):
        self._observe("handle_opponent_move_result", captured_my_piece, capture_square)
        # White's first turn also starts with this callback, before any opponent move.
        if self._opponent_has_moved:
            self.quiet_bound = 0 if captured_my_piece else self.quiet_bound + 1
        self._opponent_has_moved = True
        self._turn = {"turn": len(self.turn_log) + 1, "after_opponent": len(self.board_set)}

    def choose_sense(self, sense_actions, move_actions, seconds_left: float) -> Square | None:
        expected, doubt = self._sense_outlook()
        candidates = [sq for sq in sense_actions if sq in expected] or list(sense_actions)
        if not candidates:
            return None
        c = self.config
        if c.sense_mode == "value" and len(self.board_set) <= c.sense_value_max_boards:
            candidates = self._most_valuable_senses(candidates)
        boards = len(self.board_set)

        def cost(sq):
            # Check doubt counts in boards: a board whose check status stays unknown costs as
            # much as check_sense_weight boards left in the set.
            left = expected.get(sq, float("inf"))
            return (left + c.check_sense_weight * boards * doubt.get(sq, 0.0), sq)

        square = min(candidates, key=cost)
        self._turn["sense"] = chess.square_name(square)
        self._turn["expected_after_sense"] = expected.get(square)
        if doubt:
            self._turn["check_doubt"] = doubt.get(square)
        return square

    def _sense_outlook(self) -> tuple[dict[Square, float], dict[Square, float]]:
        """Per sense square, the expected number of boards left, and, when sensing weighs check
        (``check_sense_weight`` > 0, at most ``check_sense_max_boards`` boards) and the set
        disagrees on whether our king is in check, the check doubt it leaves (otherwise none)."""
        c, boards = self.config, len(self.board_set)
        if (
            c.check_sense_weight == 0
            or boards > c.check_sense_max_boards
            or not 0 < self.board_set.boards_in_check() < boards
        ):
            return self.board_set.sense_stats(), {}
        stats = self.board_set.sense_check_stats()
        return {sq: size for sq, (size, _) in stats.items()}, {
            sq: doubt for sq, (_, doubt) in stats.items()
        }

    def _most_valuable_senses(self, candidates: list[Square]) -> list[Square]:
        """The candidates whose result is worth most to the next move, when the best is worth
        ``sense_value_min_cp`` more than not sensing; otherwise every candidate."""
        from fogsearch.search import sense_values

        try:
            unsensed, values = sense_values(self._search_boards(), leaf=self.config.leaf)
        except Exception:  # noqa: BLE001 - a failed estimate must not lose the game
            log.exception("sense values failed; sensing by set size")
            self.fallbacks += 1
            return candidates
        valued = [sq for sq in candidates if sq in values]
        if not valued:
            return candidates
        best = max(values[sq] for sq in valued)
        self._turn["sense_gain"] = best - unsensed
        if best - unsensed < self.config.sense_value_min_cp:
            return candidates
        # Values are means of integers over at most max_search_boards boards: equal up to rounding.
        return [sq for sq in valued if values[sq] >= best - 1e-6]

    def handle_sense_result(self, sense_result):
        self._observe("handle_sense_result", sense_result)
        self._turn["after_sense"] = len(self.board_set)

    def choose_move(self, move_actions, seconds_left: float) -> chess.Move | None:
        budget = self.turn_budget(seconds_left)
        self._turn.update(seconds_left=seconds_left, budget=budget, quiet=self.quiet_bound)
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

    def _fallback_move(self, move_actions) -> chess.Move | None:
        self.fallbacks += 1
        return self.rng.choice(list(move_actions)) if move_actions else None

    def handle_move_result(
        self, requested_move, taken_move, captured_opponent_piece, capture_square
    ):
        self._observe(
            "handle_move_result",
            requested_move,
            taken_move,
            captured_opponent_piece,
            capture_square,
        )
        resets = taken_move is not None and (
            captured_opponent_piece or taken_move.from_square in self._own_pawns
        )
        self.quiet_bound = 0 if resets else self.quiet_bound + 1
        if self._opening:
            on_line = taken_move == requested_move == self._opening[0]
            self._opening = self._opening[1:] if on_line else []
        result = self.last_search
        self._turn.update(
            requested=requested_move.uci() if requested_move else None,
            taken=taken_move.uci() if taken_move else None,
            capture=chess.square_name(capture_square) if capture_square is not None else None,
            after_move=len(self.board_set),
            value=getattr(result, "value", None),
            depth=getattr(result, "depth", None),
        )
        self.turn_log.append(self._turn)
        log.info(format_turn(self._turn))
        self.last_search = None
        self.last_taken = taken_move

    def handle_game_end(self, winner_color, win_reason: WinReason, game_history: GameHistory):
        pass

    # -- time --------------------------------------------------------------------------------
    def turn_budget(self, seconds_left: float) -> float:
        """Seconds for this turn's search: the usable clock spread over the planned turns,
        clamped, and never more than what is usable."""
        c = self.config
        usable = max(0.0, seconds_left - c.safety_seconds)
        share = usable / max(1, c.turns_to_plan)
        return min(usable, max(c.min_turn_seconds, min(c.max_turn_seconds, share)))

    # -- moves -------------------------------------------------------------------------------
    def _search_move(self, budget: float) -> chess.Move | None:
        from fogsearch.rbc import search

        started = time.monotonic()
        boards = self._search_boards()
        self._own_pawns = own_pawns(boards)
        depth, budget = self._depth_and_budget(len(boards), budget)
        result = search(boards, depth, config=self.config.search_config(time_limit=budget))
        if self.config.shallower_when_lost:
            result = self._shallower_unless_lost(boards, result, started + budget)
        self.last_search = result
        self._turn["search_seconds"] = time.monotonic() - started
        if len(boards) <= self.config.board_search_boards:
            left = budget - (time.monotonic() - started)
            means = self._board_search_means(boards, left)
            if means is not None:
                return _request(max(means, key=means.__getitem__))  # first of equals

        def means_of(requests):
            self._turn["tied"] = len(requests)
            fens = boards.fens()
            c = self.config
            means = check_weighted_means(fens, requests, c.check_weight, c.leaf, c.mate_threats)
            if c.tempo_cp:
                for request in requests:
                    means[_uci(request)] -= c.tempo_cp * pass_share(fens, request)
            return means

        if self._opening:
            if self._opening[0] in opening_candidates(
                result.move_values, self.config.opening_margin_cp
            ):
                self._turn["opening"] = True
                return self._opening[0]
            self._opening = []
        pushes = None
        quiet = max(self.quiet_bound, quiet_halfmoves(boards))
        if quiet >= self.config.progress_halfmoves:
            margin = self._progress_margin(boards, quiet)
            pushes = progress_requests(boards, result.move_values, margin)
            self._turn["progress"] = len(pushes)
        if pushes:
            return best_mean(pushes, means_of)
        return choose_request(
            result.move_values, self.last_taken, self.config.tie_margin_cp, means_of
        )

    def _shallower_unless_lost(
        self, boards: BoardSet, result: SearchResult, deadline: float
    ) -> SearchResult:
        """``result``, or when it finds every request losing our king on some board, the result
        of the deepest shallower search that does not (``result`` if none does)."""
        from fogsearch.rbc import search

        if result.value > LOST:
            return result
        for depth in range(result.depth - 1, 0, -1):
            # Each shallower search costs a small part of the one above it, and depth 1 always
            # completes: a spent budget only needs a limit the search accepts.
            left = max(deadline - time.monotonic(), _LEAST_SECONDS)
            shallower = search(boards, depth, config=self.config.search_config(time_limit=left))
            if shallower.value > LOST:
                self._turn["lost_at_depth"] = result.depth
                return shallower
        return result

    def _progress_margin(self, boards: BoardSet, quiet: int) -> float:
        """How far below the best request a clock-resetting one may be valued: unbounded once the
        draw is near and we are not behind on any board (a draw is welcome only from behind)."""
        c = self.config
        if c.progress_force_halfmoves and quiet >= c.progress_force_halfmoves:
            if min(material_lead(board) for board in boards.to_boards()) >= 0:
                return float("inf")
        return c.progress_margin_cp

    def _depth_and_budget(self, boards: int, budget: float) -> tuple[int, float]:
        """The search depth for a set of ``boards`` boards, and its time limit."""
        c = self.config
        if c.small_set_depth > c.depth and boards <= c.small_set_boards:
            return c.small_set_depth, min(budget, c.small_set_seconds)
        return c.depth, budget

    def _board_search_means(self, boards: BoardSet, seconds: float) -> dict[str, float] | None:
        """Per request, the mean over the boards of its per-board search value; None when the
        per-board search did not finish in ``seconds``."""
        from fogsearch.search import board_values

        values = None
        if seconds > 0:
            values = board_values(boards, plies=self.config.board_search_plies, time_limit=seconds)
        if values is None:
            self._turn["board_search"] = "timeout"
            return None
        means = {uci: sum(row) / len(row) for uci, row in values.items()}
        self._turn["board_search"] = round(max(means.values()))
        return means

    def _search_boards(self) -> BoardSet:
        """The set the search sees: the exact set, or a seeded uniform sample of it when large."""
        if len(self.board_set) <= self.config.max_search_boards:
            return self.board_set
        fens = self.board_set.fens()
        sample = self.rng.sample(fens, self.config.max_search_boards)
        return BoardSet(self.color, fens=sample)

    # -- tracking ----------------------------------------------------------------------------
    def _new_set(self, fens: list[str] | None = None) -> BoardSet:
        return BoardSet(self.color, fens=fens, max_boards=self.config.max_tracked_boards)

    def _observe(self, method: str, *args) -> None:
        self.observations.append((method, args))
        try:
            self.board_set = self._apply(self.board_set, method, args)
        except FogsearchError as exc:
            log.warning(
                "observation %s%r is inconsistent with the board set: %s", method, args, exc
            )
            self.recoveries += 1
            self.board_set = self.rebuild()

    def rebuild(self) -> BoardSet:
        """Replays the observation log from the start, skipping any observation no board fits, so
        the set again holds every board consistent with the rest of what we saw (a superset of the
        truth when an observation was wrong). Never returns an empty set."""
        rebuilt = self._new_set()
        for method, args in self.observations:
            try:
                rebuilt = self._apply(rebuilt, method, args)
            except FogsearchError:
                if method == "handle_move_result":
                    rebuilt = self._force_own_move(rebuilt, *args)
        return rebuilt

    def _apply(self, board_set: BoardSet, method: str, args: tuple) -> BoardSet:
        """``board_set`` after one observation: the same set updated exactly, or, when an opponent
        move would expand it past ``max_tracked_boards``, that move applied to a seeded sample of
        its boards, small enough for the expansion to fit."""
        try:
            getattr(board_set, method)(*args)
            return board_set
        except BoardSetTooLargeError:
            fens = board_set.fens()
        # About 30 replies per board: start from a sample that should fit, halve until it does.
        keep = max(1, min(len(fens) - 1, self.config.max_tracked_boards // 32))
        while True:
            sample = self._new_set(self.rng.sample(fens, keep))
            try:
                getattr(sample, method)(*args)
                break
            except BoardSetTooLargeError:
                if keep == 1:
                    raise
                keep //= 2
        self.approximations += 1
        log.warning(
            "%s would grow %d boards past max_tracked_boards=%d; applied to a sample of %d "
            "(tracking is approximate from here: %d boards)",
            method,
            len(fens),
            self.config.max_tracked_boards,
            keep,
            len(sample),
        )
        return sample

    def _force_own_move(
        self, board_set: BoardSet, requested, taken, captured, capture_square
    ) -> BoardSet:
        """Our own move is certain even when its observation fits no board: apply the taken move
        wherever it is possible, and drop only boards where it is not."""
        boards = []
        for board in board_set.to_boards():
            move = taken if taken is not None and board.is_pseudo_legal(taken) else None
            if captured and capture_square is not None:
                board.remove_piece_at(capture_square)
            board.push(move or chess.Move.null())
            boards.append(board.fen())
        if not boards:
            board = chess.Board()
            board.turn = not self.color
            boards.append(board.fen())
        return self._new_set(boards)


def format_turn(t: dict) -> str:
    """One readable log line per turn."""
    value = t.get("value")
    return (
        f"turn {t.get('turn', '?'):>3}  boards {t.get('after_opponent', '?'):>6} -> "
        f"sense {t.get('sense', '-'):<2} -> {t.get('after_sense', '?'):>5} -> "
        f"move {t.get('requested') or 'pass':<6} (took {t.get('taken') or 'pass'}"
        f"{', captured ' + t['capture'] if t.get('capture') else ''}) -> {t.get('after_move', '?'):>5}"
        f"  value {value if value is not None else '-':>6}  depth {t.get('depth') or '-'}"
        f" in {t.get('search_seconds', 0):5.2f}s  clock {t.get('seconds_left', 0):6.1f}s"
        f" budget {t.get('budget', 0):5.2f}s"
    )


def get_player():
    """Tells reconchess's ``load_player`` which class in this module is the bot."""
    return FogsearchBot


def undoes(move: chess.Move | None, previous: chess.Move | None) -> bool:
    """Whether ``move`` takes ``previous`` back (the same piece straight back to where it was)."""
    return (
        move is not None
        and previous is not None
        and move.from_square == previous.to_square
        and move.to_square == previous.from_square
    )


LOST = -MATE + 1000
"""Values at or below this lose our king on some board whatever we do."""

_LEAST_SECONDS = 0.01


def opening_moves(line: str, setting: str = "opening line") -> list[chess.Move]:
    """The requests of a space-separated UCI line; ValueError naming ``setting`` and a malformed
    request."""
    if not isinstance(line, str):
        raise ValueError(f"{setting} must be a string of UCI moves, got {line!r}")
    moves = []
    for uci in line.split():
        try:
            moves.append(chess.Move.from_uci(uci))
        except ValueError:
            raise ValueError(f"{setting}: {uci!r} is not a UCI move") from None
    return moves


def opening_candidates(move_values: dict[str, int], margin_cp: float) -> list[chess.Move | None]:
    """The requests an opening line may play: within ``margin_cp`` of the best one, not losing."""
    if max(move_values.values()) <= LOST:
        return []
    return tied_requests(move_values, margin_cp)


def tied_requests(move_values: dict[str, int], margin_cp: float) -> list[chess.Move | None]:
    """The requests that tie with the best one, in the search's order: within ``margin_cp`` of
    it, every request when the best one still loses, only the best value when it wins."""
    best = max(move_values.values())
    if best <= LOST:
        floor = -MATE - 1
    elif best >= -LOST:
        floor = best
    else:
        floor = best - margin_cp
    return [_request(uci) for uci, value in move_values.items() if value >= floor]


def choose_request(
    move_values: dict[str, int],
    previous: chess.Move | None,
    margin_cp: int,
    means_of: Callable[[list[chess.Move | None]], dict[str, float]],
) -> chess.Move | None:
    """Among the :func:`tied_requests`, leaving out one that takes back ``previous`` while another
    ties, the request with the best mean from ``means_of`` (a UCI-keyed dict, ``"0000"`` for a
    pass; see :func:`fogsearch.search.mean_reply_values`); the first in search order on equal
    means."""
    candidates = tied_requests(move_values, margin_cp)
    candidates = [m for m in candidates if not undoes(m, previous)] or candidates
    if len(candidates) == 1:
        return candidates[0]
    return best_mean(candidates, means_of)


def best_mean(
    candidates: list[chess.Move | None],
    means_of: Callable[[list[chess.Move | None]], dict[str, float]],
) -> chess.Move | None:
    """The candidate with the best mean from ``means_of``; the first listed on equal means."""
    means = means_of(candidates)
    return max(candidates, key=lambda m: means[_uci(m)])


def check_weighted_means(
    fens: list[str],
    requests: list[chess.Move | None],
    weight: float,
    leaf: str,
    mate_threats: bool = False,
) -> dict[str, float]:
    """:func:`fogsearch.search.mean_reply_values` with each board on which the side to move is in
    check counted ``weight`` times."""

    def means(boards: list[str]) -> dict[str, float]:
        return mean_reply_values(boards, requests, leaf=leaf, mate_threats=mate_threats)

    if weight == 1:  # the default: no need to parse every board for check
        return means(fens)
    checked = {fen for fen in fens if chess.Board(fen).is_check()}
    in_check = [fen for fen in fens if fen in checked]
    others = [fen for fen in fens if fen not in checked]
    if not in_check or not others:
        return means(fens)
    checked_means = means(in_check)
    other_means = means(others)
    heavy, light = weight * len(in_check), len(others)
    return {
        uci: (heavy * checked_means[uci] + light * other_means[uci]) / (heavy + light)
        for uci in checked_means
    }


def pass_share(fens: list[str], request: chess.Move | None) -> float:
    """The share of the boards on which ``request`` is a pass (reconchess revises it to none)."""
    if request is None:
        return 1.0
    return sum(revise_move(fen, request) is None for fen in fens) / len(fens)


def quiet_halfmoves(board_set: BoardSet) -> int:
    """The most half-moves any board of the set has gone without a capture or a pawn move."""
    return max(int(fen.split()[4]) for fen in board_set.fens())


def progress_requests(
    board_set: BoardSet, move_values: dict[str, int], margin_cp: float
) -> list[chess.Move]:
    """Among the requests within ``margin_cp`` of the best value (every one when the best still
    loses), those that reset the half-move clock on the most boards of the set, if that is more
    than half of them: a pawn move or a capture as reconchess revises the request on a board. A
    blocked push or a pawn capture onto an empty square is a pass there; a slide stopped short
    by an opponent's piece captures it."""
    boards = [(fen, chess.Board(fen)) for fen in board_set.fens()]
    resetting: dict[chess.Move, int] = {}
    for move in tied_requests(move_values, margin_cp):
        if move is not None:
            count = sum(_resets_clock(fen, board, move) for fen, board in boards)
            if 2 * count > len(boards):
                resetting[move] = count
    most = max(resetting.values(), default=0)
    return [move for move, count in resetting.items() if count == most]


def own_pawns(board_set: BoardSet) -> frozenset[Square]:
    """The squares of our pawns (our pieces are the same on every board of a set)."""
    fens = board_set.fens()
    if not fens:
        return frozenset()
    board = chess.Board(fens[0])
    return frozenset(board.pieces(chess.PAWN, board.turn))


def _resets_clock(fen: str, board: chess.Board, request: chess.Move) -> bool:
    taken = revise_move(fen, request)
    return taken is not None and (
        board.piece_type_at(taken.from_square) == chess.PAWN or board.is_capture(taken)
    )


_MATERIAL_CP = {
    chess.PAWN: 100,
    chess.KNIGHT: 300,
    chess.BISHOP: 300,
    chess.ROOK: 500,
    chess.QUEEN: 900,
}


def material_lead(board: chess.Board) -> int:
    """Our material minus the opponent's in centipawns, for the side to move."""
    return sum(
        value * (len(board.pieces(kind, board.turn)) - len(board.pieces(kind, not board.turn)))
        for kind, value in _MATERIAL_CP.items()
    )


def _request(uci: str) -> chess.Move | None:
    return None if uci == "0000" else chess.Move.from_uci(uci)


def _uci(move: chess.Move | None) -> str:
    return "0000" if move is None else move.uci()
