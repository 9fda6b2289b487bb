"""The bot's settings: one :class:`FogsearchBotConfig` holding the :class:`SearchConfig` it searches
with, the clock plan, the rule against reconchess's 100-half-move draw and small frozen groups of
related settings (sensing, opponent model, small sets, set limits, tie-break, opening line), each
checking its own fields. Every setting is checked when the config is built, so a bad one fails
before a game rather than as a failed search every turn (which the bot would survive by playing
fallback moves: a silently random bot).

How each default was chosen, and the settings that measured no better and were removed, are in
``bench/NOTEBOOK.md``.
"""

from __future__ import annotations

import math
from collections.abc import Mapping
from dataclasses import dataclass, field, fields
from typing import Any

import chess

from fogsearch.arguments import cores
from fogsearch.limits import MAX_THREADS, checked
from fogsearch.rbc import opponent_model_settings
from fogsearch.search import EngineJudge, SearchConfig, SearchError
from fogsearch.settings import config_from_settings, settings_of


def _check_int(owner: object, name: str, least: int, most: int | None = None) -> None:
    value = getattr(owner, name)
    if (
        isinstance(value, bool)
        or not isinstance(value, int)
        or value < least
        or (most is not None and value > most)
    ):
        wanted = "a non-negative integer" if least == 0 else f"an integer >= {least}"
        if most is not None:
            wanted = f"an integer in {least}..{most}"
        raise ValueError(f"{name} must be {wanted}, got {value!r}")


def _check_limit(owner: object, name: str, limit: str, least: int) -> None:
    """An integer setting bounded by the core's limit ``limit``, checked now rather than at the
    first search."""
    checked(name, getattr(owner, name), limit, least)


def _check_seconds(owner: object, name: str) -> None:
    value = getattr(owner, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not 0 <= value < math.inf:
        raise ValueError(f"{name} must be a finite number of seconds >= 0, got {value!r}")


def _check_number(owner: object, name: str, least: float, most: float) -> None:
    value = getattr(owner, name)
    if isinstance(value, bool) or not isinstance(value, int | float) or not least <= value <= most:
        raise ValueError(f"{name} must be a number in [{least}, {most}], got {value!r}")


@dataclass(frozen=True)
class ClockPlan:
    """How a turn's time is taken from the clock (:func:`fogsearch.bot.clock.turn_budget`): what
    is left beyond ``reserve_seconds``, spread over the turns the game still has (``plan_turns``
    less the turns played, never fewer than ``min_turns_left``) plus most of the increment the
    clock adds each turn (``increment_seconds``), up to ``hard_turn_factor`` times
    that on a hard turn (a large set, a close decision), clamped to ``[min_turn_seconds,
    max_turn_seconds]``; ``sense_share`` of it goes to the sense, the rest to the move (of which
    the turn's earlier work leaves it at least ``min_move_seconds``). The set's expansion by the
    opponent's moves, which comes before the turn's first clock report and so outside its budget,
    may take ``tracking_share`` of the clock (:func:`fogsearch.bot.clock.tracking_budget`)."""

    plan_turns: int = 40
    """How many turns (ours) a game is planned to last."""
    min_turns_left: int = 10
    """Past ``plan_turns``, the clock is still spread over this many more turns."""
    min_turn_seconds: float = 0.2
    max_turn_seconds: float = 60.0
    min_move_seconds: float = 1.0
    """However long the set's updates and the sense took, the move's search keeps its planned
    share of the turn up to this many seconds, while the clock beyond the reserve holds it
    (:func:`fogsearch.bot.clock.move_budget`)."""
    reserve_seconds: float = 15.0
    """Never plan to use the last this-many seconds of the clock."""
    hard_turn_factor: float = 2.0
    """A turn of hardness 1 gets this many times the even share (hardness 0 gets it once)."""
    sense_share: float = 0.25
    tracking_share: float = 0.25
    """The most of the clock one expansion of the set by the opponent's moves may take; a larger
    set is expanded from a sample of its boards that fits
    (:meth:`fogsearch.bot.tracker.Tracker.observe`)."""
    increment_seconds: float = 5.0
    """What the clock adds each turn (reconchess's default), until the bot has measured it from
    the clocks the referee reports (from its second turn); 80 % of it is spent on the turn it
    comes with. Only a plan: a clock without increment still never runs out (every budget stays
    within what is left beyond the reserve), it just leaves the reserve unspent earlier."""

    def __post_init__(self) -> None:
        _check_int(self, "plan_turns", 1)
        _check_int(self, "min_turns_left", 1)
        for name in (
            "min_turn_seconds",
            "max_turn_seconds",
            "min_move_seconds",
            "reserve_seconds",
            "increment_seconds",
        ):
            _check_seconds(self, name)
        if self.min_turn_seconds > self.max_turn_seconds:
            raise ValueError(
                f"min_turn_seconds ({self.min_turn_seconds}) exceeds max_turn_seconds "
                f"({self.max_turn_seconds})"
            )
        _check_number(self, "hard_turn_factor", 1.0, 10.0)
        _check_number(self, "sense_share", 0.0, 0.9)
        _check_number(self, "tracking_share", 0.01, 1.0)


@dataclass(frozen=True)
class ProgressRule:
    """Against reconchess's 100-half-move draw, which the worst-case search cannot see: once the
    half-move clock may have reached ``progress_halfmoves``, play a request that resets it
    (a pawn move or a capture on most boards) within ``progress_margin_cp`` of the best; from
    ``progress_force_halfmoves`` (0: never), while not behind in material on any board, play one
    whatever the search values it."""

    progress_halfmoves: int = 40
    progress_margin_cp: int = 150
    progress_force_halfmoves: int = 90

    def __post_init__(self) -> None:
        for f in fields(self):
            _check_int(self, f.name, 0)


def every_core() -> int:
    """The threads the bot searches with by default: every core (at most the search's 256)."""
    return max(1, min(MAX_THREADS, cores()))


def _bot_search() -> SearchConfig:
    return SearchConfig(mode="exact", sense_mode="min_size", threads=every_core())


MAX_TRACKED_BOARDS = 50_000_000
"""About 20 GiB at the peak of an expansion (420 bytes a board): beyond a tournament machine."""

JUDGES = ("boards", "engine", "set")
SENSES = ("decision", "size")


@dataclass(frozen=True)
class SenseRule:
    """Where the bot senses."""

    sense: str = "decision"
    """``"decision"``: sense where the coming move choice gains most in expectation
    (:func:`fogsearch.search.decision_sense_values` over a shallow board table of ``sense_plies``
    plies), ties going to the smaller expected set; ``"size"``: where the expected number of
    boards left is smallest (also the fallback when the sense's time is short)."""
    sense_plies: int = 2

    def __post_init__(self) -> None:
        _check_limit(self, "sense_plies", "board_plies", 0)
        if self.sense not in SENSES:
            raise ValueError(f"sense must be one of {SENSES}, got {self.sense!r}")


@dataclass(frozen=True)
class OpponentModel:
    """How likely the opponent's moves that led to each board were."""

    opponent_temperature_cp: float = 200.0
    """The opponent model (:meth:`fogsearch.rbc.BoardSet.set_opponent_model`): boards are
    weighted by how likely the opponent's moves that led to them were, a softmax at this
    temperature over what each move wins at once; 0: every board weighs the same."""
    opponent_uniform_share: float = 0.1
    """The share of each board's weight spread evenly over the opponent's moves, whatever they
    win: the floor that keeps a move the model thinks unlikely from vanishing."""

    @property
    def model(self) -> tuple[float, float] | None:
        """The model as :meth:`fogsearch.rbc.BoardSet.set_opponent_model` takes it, or None
        where every board weighs the same."""
        if not self.opponent_temperature_cp:
            return None
        return (self.opponent_temperature_cp, self.opponent_uniform_share)

    def __post_init__(self) -> None:
        # The core's bounds, checked by the core; a temperature of 0 (no model) checks the rest
        # at a valid one.
        temperature = self.opponent_temperature_cp or 1.0
        try:
            opponent_model_settings(temperature, self.opponent_uniform_share)
        except ValueError as error:
            raise ValueError(f"opponent_{error}") from None


@dataclass(frozen=True)
class SmallSets:
    """The deeper information-set search on small sets."""

    small_set_depth: int = 3
    """On sets of at most ``small_set_boards`` boards, search this deep instead, within
    ``small_set_seconds`` a turn (0: never): in the ``"set"`` judgement, and for the
    ``"boards"`` judgement's minimum when ``mean_weight`` is below 1."""
    small_set_boards: int = 32
    small_set_seconds: float = 8.0

    def __post_init__(self) -> None:
        _check_limit(self, "small_set_depth", "search_depth", 0)
        _check_int(self, "small_set_boards", 1)
        _check_seconds(self, "small_set_seconds")
        if self.small_set_seconds <= 0:
            raise ValueError(f"small_set_seconds must be positive, got {self.small_set_seconds!r}")


@dataclass(frozen=True)
class SetLimits:
    """How many boards the search sees and the tracker keeps."""

    max_search_boards: int = 256
    """Above this many boards the search works on a seeded uniform sample; tracking stays exact
    (up to ``max_tracked_boards``)."""
    max_tracked_boards: int = 4_000_000
    """Memory bound of the tracked set: an expansion peaks at about 420 bytes per board it makes
    (``bench/rbc_memory.py``), so up to about 1.6 GiB at this default.
    Tracking is exact below it; an opponent move that would expand the set past it (or whose
    expansion would take more than ``ClockPlan.tracking_share`` of the clock) is applied to a
    seeded sample of the boards instead (counted in ``approximations``), which may lose the true
    board (an observation then finds no board and the set is rebuilt from the log)."""

    def __post_init__(self) -> None:
        _check_int(self, "max_search_boards", 1)
        _check_int(self, "max_tracked_boards", 256, MAX_TRACKED_BOARDS)


@dataclass(frozen=True)
class TieBreak:
    """How requests tie and how a tie is broken."""

    tie_margin_cp: int = 50
    """Requests within this many centipawns of the best worst-case value tie (every request ties
    when the best one still loses our king on some board); a tie goes to the best mean over the
    boards of the one-reply outcome."""
    mate_threats: bool = True
    """In that tie-break, a request after which some reply leaves our king attacked with no move
    of ours saving it scores ``-MATE / 2`` on that board
    (:func:`fogsearch.search.mean_reply_values`)."""

    def __post_init__(self) -> None:
        _check_int(self, "tie_margin_cp", 0)
        if not isinstance(self.mate_threats, bool):
            raise ValueError(f"mate_threats must be a bool, got {self.mate_threats!r}")


@dataclass(frozen=True)
class OpeningLine:
    """The line the bot plays as Black on its first turns."""

    opening_as_black: str = "g8f6 e7e6 f8e7 e8g8"
    """Requests (UCI, space-separated) played as Black on the first turns, each while the search
    values it within ``opening_margin_cp`` of the best request, not losing, and every earlier one
    was taken as requested (empty: no line)."""
    opening_margin_cp: int = 200
    """The worst case over a set is pessimistic about quiet developing moves, so an opening held to
    ``tie_margin_cp`` would end on its first move."""
    opening_safety_cp: int | None = 100
    """A line's request is also played only while its worst value over the boards is within this
    of the best worst value of any request, and leaving the line the bot plays the best of the
    requests so safe (``None``: no such check). The margin above is on a weighted mean, in which
    a piece lost on one board of sixteen costs 20 centipawns, and so without the check the line
    gave up the knight on f6 to 2. e5 in five of six games against StrangeFish2. 100 passed its
    SPRT against ``None`` from 1. e4 (bench/RESULTS.md, "The opening line's worst board")."""

    def __post_init__(self) -> None:
        _check_int(self, "opening_margin_cp", 0)
        if self.opening_safety_cp is not None:
            _check_int(self, "opening_safety_cp", 0)
        opening_moves(self.opening_as_black, "opening_as_black")


@dataclass(frozen=True)
class FogsearchBotConfig:
    """Settings of :class:`fogsearch.bot.FogsearchBot` (all have tournament-ready defaults)."""

    search: SearchConfig = field(default_factory=_bot_search)
    """How each turn's information-set search runs (its ``time_limit`` is set per turn by the
    clock plan; its ``seed`` also seeds the bot's samples of large sets; its ``threads``, every
    core by default, are also the threads of the per-board search and the set's expansions)."""
    judge: str = "boards"
    """How a request is valued: ``"boards"``, by its perfect-information value on each board
    (:func:`fogsearch.search.board_table`, deepened within the turn's time), a mix of the
    weighted mean and the minimum over the boards (``mean_weight``), the minimum taken from the
    information-set search on sets of at most ``small_set_boards``; ``"engine"``, the same mix
    with each board judged by a UCI engine instead (:class:`fogsearch.search.EngineJudge`:
    ``uci_engine`` at ``uci_depth`` plies and ``uci_nodes`` nodes a position, the likeliest
    boards first; those the turn's time cut keep static values); ``"set"``, by the
    information-set search's worst case alone, ties broken by the mean one-reply outcome."""
    mean_weight: float = 1.0
    """In the ``"boards"`` judgement: the weight of the mean over boards; the rest goes to the
    minimum. The whole weight on the mean measured strongest (bench/NOTEBOOK.md, "The mix of mean
    and minimum"): at 30 s + 1 s it beat 0.5 by 11-0-1, which beat the minimum alone by 10-1-1.
    What the minimum still did better, vetoing a king lost on an unlikely board, ``king_loss_cp``
    does within the mean."""
    king_loss_cp: float = 3000.0
    """In the ``"boards"`` judgement and the decision sense: what a board where the request
    loses our king costs, kept outside the squash that caps every other value at ±1000
    (:mod:`fogsearch.bot.judgement`). At 1000 (the squash alone) the mean lost 2 of 20 to
    AttackerBot's unseen knight check, on under 1 % of the set; at 3000 it lost none, beat 1000
    by 13-7 and scored 18-0-2 against ``trout-set`` where 1000 scored 16-0-4 (bench/RESULTS.md,
    "A lost king outside the squash")."""
    board_plies: int = 6
    """The deepest per-board search, in plies after our request (``"boards"`` judgement)."""
    sensing: SenseRule = field(default_factory=SenseRule)
    opponent: OpponentModel = field(default_factory=OpponentModel)
    depth: int = 2
    """Deepest search depth (our moves); iterative deepening stops earlier when time runs out."""
    small_sets: SmallSets = field(default_factory=SmallSets)
    set_limits: SetLimits = field(default_factory=SetLimits)
    clock: ClockPlan = field(default_factory=ClockPlan)
    tie_break: TieBreak = field(default_factory=TieBreak)
    progress: ProgressRule = field(default_factory=ProgressRule)
    opening: OpeningLine = field(default_factory=OpeningLine)

    def __post_init__(self) -> None:
        for name, kind in (
            ("search", SearchConfig),
            ("sensing", SenseRule),
            ("opponent", OpponentModel),
            ("small_sets", SmallSets),
            ("set_limits", SetLimits),
            ("clock", ClockPlan),
            ("tie_break", TieBreak),
            ("progress", ProgressRule),
            ("opening", OpeningLine),
        ):
            if not isinstance(getattr(self, name), kind):
                raise ValueError(f"{name} must be a {kind.__name__}, got {getattr(self, name)!r}")
        _check_limit(self, "depth", "search_depth", 1)
        _check_limit(self, "board_plies", "board_plies", 1)
        _check_number(self, "mean_weight", 0.0, 1.0)
        _check_number(self, "king_loss_cp", 1000.0, 1_000_000.0)
        if self.judge not in JUDGES:
            raise ValueError(f"judge must be one of {JUDGES}, got {self.judge!r}")
        if self.judge == "engine":
            # Found now, not on the first turn: a missing engine would make every turn a fallback.
            search = self.search
            try:
                EngineJudge(search.uci_engine, search.uci_depth, search.uci_nodes)
            except SearchError as error:
                raise ValueError(f'judge "engine": {error}') from None


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


NOT_SETTINGS = frozenset({("search", "time_limit")})
"""Fields that are no player settings: the clock plan sets the search's time limit every turn."""


def flat_settings() -> dict[str, tuple[tuple[str, ...], Any]]:
    """Every setting of the bot by its own name, nested configs (``search``, ``clock``,
    ``small_sets`` and the other groups) flattened: ``name -> (path, type)``. Names are unique across the nesting, so a
    player spec can say ``fogsearch:depth=3,mode=exact,plan_turns=30``."""
    return {
        name: (setting.path, setting.type)
        for name, setting in settings_of(FogsearchBotConfig, NOT_SETTINGS).items()
        if "." not in name
    }


def from_settings(settings: Mapping[str, Any]) -> FogsearchBotConfig:
    """The default config with ``settings`` (flat names, see :func:`flat_settings`, or dotted
    ones such as ``search.mode``) applied; a ValueError naming an unknown setting (with the valid
    ones), a value of the wrong type, or a value the config refuses."""
    return config_from_settings(FogsearchBotConfig, settings, "fogsearch", NOT_SETTINGS)
