"""Gongzhu as an OpenSpiel game: ``import fogsearch.ttcg.gongzhu_pyspiel`` registers
``pyspiel.load_game("gongzhu")``, whose states run on the Rust core's rules, so OpenSpiel's
algorithms (MCTS, ISMCTS with a resampler, CFR on tiny variants, random simulation tests) run on
Gongzhu.

Information states hold the seat's dealt hand and every play so far (perfect recall);
observations the seat's current hand, each seat's played cards and the trick in progress.
"""

from __future__ import annotations

import numpy as np
import pyspiel

from fogsearch.ttcg.gongzhu import CARD_NAMES, GongzhuState

_NUM_PLAYERS = 4

_GAME_TYPE = pyspiel.GameType(
    short_name="gongzhu",
    long_name="Gongzhu (fogsearch)",
    dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
    chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
    information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
    utility=pyspiel.GameType.Utility.ZERO_SUM,
    reward_model=pyspiel.GameType.RewardModel.TERMINAL,
    max_num_players=_NUM_PLAYERS,
    min_num_players=_NUM_PLAYERS,
    provides_information_state_string=True,
    provides_information_state_tensor=True,
    provides_observation_string=True,
    provides_observation_tensor=True,
    provides_factored_observation_string=False,
)

# A seat scores at most (200 + 100) x 2 and at least -(200 + 100) x 2; a team's difference stays
# within twice that.
_GAME_INFO = pyspiel.GameInfo(
    num_distinct_actions=52,
    max_chance_outcomes=52,
    num_players=_NUM_PLAYERS,
    min_utility=-2400.0,
    max_utility=2400.0,
    utility_sum=0.0,
    max_game_length=104,
)


class GongzhuGame(pyspiel.Game):
    """Gongzhu; no parameters."""

    def __init__(self, params=None):
        super().__init__(_GAME_TYPE, _GAME_INFO, params or {})

    def new_initial_state(self):
        return GongzhuPyState(self)

    def make_py_observer(self, iig_obs_type=None, params=None):
        return GongzhuObserver(
            iig_obs_type or pyspiel.IIGObservationType(perfect_recall=False), params
        )


class GongzhuPyState(pyspiel.State):
    """A pyspiel state over the core's ``GongzhuState``."""

    def __init__(self, game):
        super().__init__(game)
        self.native = GongzhuState()

    def current_player(self):
        if self.native.is_terminal():
            return pyspiel.PlayerId.TERMINAL
        if self.native.is_chance_node():
            return pyspiel.PlayerId.CHANCE
        return self.native.current_player()

    def _legal_actions(self, player):
        return self.native.legal_actions()

    def chance_outcomes(self):
        left = self.native.legal_actions()
        p = 1.0 / len(left)
        return [(a, p) for a in left]

    def _apply_action(self, action):
        self.native.apply_action(int(action))

    def _action_to_string(self, player, action):
        prefix = "Deal " if player == pyspiel.PlayerId.CHANCE else ""
        return prefix + CARD_NAMES[action]

    def is_terminal(self):
        return self.native.is_terminal()

    def returns(self):
        return self.native.returns()

    def __str__(self):
        hands = self.native.hands()
        lines = [
            f"seat {s}: " + " ".join(CARD_NAMES[c] for c in hands[s]) for s in range(_NUM_PLAYERS)
        ]
        trick = " ".join(CARD_NAMES[c] for c in self.native.current_trick())
        return "\n".join([*lines, f"trick: {trick}", f"points: {self.native.points()}"])


class GongzhuObserver:
    """Strings and tensors of what a seat knows (the PyObserver interface)."""

    def __init__(self, iig_obs_type, params):
        if params:
            raise ValueError(f"observation parameters are not supported, got {params}")
        self.perfect_recall = iig_obs_type.perfect_recall
        # own cards (dealt hand with perfect recall, else current hand), each seat's played cards,
        # the trick in progress.
        pieces = [("hand", 52, (52,)), ("played", 4 * 52, (4, 52)), ("trick", 52, (52,))]
        self.tensor = np.zeros(sum(size for _, size, _ in pieces), np.float32)
        self.dict = {}
        at = 0
        for name, size, shape in pieces:
            self.dict[name] = self.tensor[at : at + size].reshape(shape)
            at += size

    def set_from(self, state, player):
        self.tensor.fill(0)
        native = state.native
        if native.is_chance_node():
            return
        own = native.dealt_hands()[player] if self.perfect_recall else native.hands()[player]
        self.dict["hand"][own] = 1
        for seat, card in native.plays():
            self.dict["played"][seat, card] = 1
        for card in native.current_trick():
            self.dict["trick"][card] = 1

    def string_from(self, state, player):
        native = state.native
        if native.is_chance_node():
            return f"seat {player}, dealing"
        if self.perfect_recall:
            hand = native.dealt_hands()[player]
            plays = " ".join(CARD_NAMES[c] for c in native.history()[52:])
            return f"seat {player} dealt {' '.join(CARD_NAMES[c] for c in hand)} | {plays}"
        hand = native.hands()[player]
        taken = " / ".join(" ".join(CARD_NAMES[c] for c in t) for t in native.taken())
        trick = " ".join(CARD_NAMES[c] for c in native.current_trick())
        return (
            f"seat {player} holds {' '.join(CARD_NAMES[c] for c in hand)} | taken {taken} | "
            f"trick {trick}"
        )


pyspiel.register_game(_GAME_TYPE, GongzhuGame)
