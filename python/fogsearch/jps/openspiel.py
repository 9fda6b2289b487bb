"""The four games of paper 002 as ``pyspiel`` Python games, and policies to and from OpenSpiel.

Importing this module registers ``fogsearch_comm(l=L)``, ``fogsearch_mini_hanabi``,
``fogsearch_simple_bidding(n=N)`` and ``fogsearch_mini_bridge(n=N)`` with ``pyspiel``; every state
of a game is the core's enumerated state, so OpenSpiel's algorithms (CFR, exploitability, random
simulation) run on exactly the trees fogsearch searches. Utilities are identical (both players
receive the common payoff); chance is explicit (one chance node deals both private values).

A player's information state is what it saw of the deal and every move since (all moves are
public): ``p1:s3 p0:a2 p1:a0`` reads "player 1, dealt 3, then player 0 played action 2 and player 1
action 0". In Mini-Hanabi these are OpenSpiel ``tiny_hanabi``'s own strings (``p1:d0 p0:a2``).

>>> import pyspiel
>>> from fogsearch.jps import openspiel
>>> game = pyspiel.load_game("fogsearch_simple_bidding(n=4)")
>>> game.new_initial_state().chance_outcomes()[:2]
[(0, 0.0625), (1, 0.0625)]
"""

from __future__ import annotations

import functools
from typing import Any

import numpy as np
import pyspiel

from fogsearch._core.jps import Game, JpsError
from fogsearch.jps.game import Policy, load_game

__all__ = [
    "FAMILIES",
    "from_tabular_policy",
    "infoset_of",
    "pyspiel_game",
    "to_tabular_policy",
]

#: pyspiel short name -> (fogsearch family, parameter name or None, default value).
FAMILIES: dict[str, tuple[str, str | None, int]] = {
    "fogsearch_comm": ("comm", "l", 3),
    "fogsearch_mini_hanabi": ("mini_hanabi", None, 0),
    "fogsearch_simple_bidding": ("simple_bidding", "n", 4),
    "fogsearch_mini_bridge": ("mini_bridge", "n", 3),
}


def _name(family: str, param: str | None, value: int) -> str:
    return family if param is None else f"{family}:{param}={value}"


class _Tree:
    """The core's tree as plain Python lists (indexing numpy scalars is slow in a game loop)."""

    def __init__(self, game: Game) -> None:
        a = game.arrays()
        self.player = a["player"].tolist()
        self.first_child = a["first_child"].tolist()
        self.num_children = a["num_children"].tolist()
        self.action = a["action"].tolist()
        self.infoset = a["infoset"].tolist()
        self.utility = a["utility"].tolist()
        self.chance_prob = a["chance_prob"].tolist()
        self.parent = a["parent"].tolist()
        self.labels = [label for label, _, _, _ in game.infosets()]
        # What each player sees of each deal, and a state of each information set.
        self.views = [
            [game.deal_view(p, d) or "" for d in range(game.max_chance_outcomes)] for p in (0, 1)
        ]
        self.representative = [-1] * len(self.labels)
        for node, i in enumerate(self.infoset):
            if i >= 0 and self.representative[i] < 0:
                self.representative[i] = node
        utilities = a["utility"][a["player"] == pyspiel.PlayerId.TERMINAL]
        self.min_utility = float(utilities.min())
        self.max_utility = float(utilities.max())
        depth = np.zeros(len(self.player), dtype=np.int64)
        parent = a["parent"]
        for h in range(1, len(self.player)):
            depth[h] = depth[parent[h]] + 1
        self.max_length = int(depth.max()) - 1  # chance's deal is not a move

    def __deepcopy__(self, memo: dict[int, Any]) -> _Tree:
        return self  # immutable and shared: pyspiel clones states by deepcopy

    def children(self, node: int) -> range:
        first = self.first_child[node]
        return range(first, first + self.num_children[node])

    def information_state(self, node: int, player: int) -> str:
        """``p<player>:<its view of the deal>`` then `` p<mover>:a<action>`` per move."""
        moves = []
        while self.parent[node] > 0:  # stop at the deal, the root's child
            parent = self.parent[node]
            moves.append(f" p{self.player[parent]}:a{self.action[node]}")
            node = parent
        if self.parent[node] < 0:
            return f"p{player}:"  # the root: nothing dealt yet
        return f"p{player}:{self.views[player][self.action[node]]}" + "".join(reversed(moves))


@functools.lru_cache(maxsize=16)
def _tree_of(name: str) -> _Tree:
    return _Tree(load_game(name))


def _game_type(short_name: str) -> pyspiel.GameType:
    family, param, default = FAMILIES[short_name]
    return pyspiel.GameType(
        short_name=short_name,
        long_name=f"fogsearch {family} (paper 002)",
        dynamics=pyspiel.GameType.Dynamics.SEQUENTIAL,
        chance_mode=pyspiel.GameType.ChanceMode.EXPLICIT_STOCHASTIC,
        information=pyspiel.GameType.Information.IMPERFECT_INFORMATION,
        utility=pyspiel.GameType.Utility.IDENTICAL,
        reward_model=pyspiel.GameType.RewardModel.TERMINAL,
        max_num_players=2,
        min_num_players=2,
        provides_information_state_string=True,
        provides_information_state_tensor=False,
        provides_observation_string=False,
        provides_observation_tensor=False,
        parameter_specification={} if param is None else {param: default},
    )


class _SpielGame(pyspiel.Game):
    short_name = ""

    def __init__(self, params: dict[str, Any] | None = None) -> None:
        short_name = self.short_name
        family, param, default = FAMILIES[short_name]
        value = int((params or {}).get(param, default)) if param else 0
        self.fogsearch_game = load_game(_name(family, param, value))
        self.tree = _tree_of(self.fogsearch_game.name)
        info = pyspiel.GameInfo(
            num_distinct_actions=self.fogsearch_game.num_distinct_actions,
            max_chance_outcomes=self.fogsearch_game.max_chance_outcomes,
            num_players=2,
            min_utility=self.tree.min_utility,
            max_utility=self.tree.max_utility,
            utility_sum=None,
            max_game_length=self.tree.max_length,
        )
        super().__init__(_game_type(short_name), info, {param: value} if param else {})

    def new_initial_state(self) -> _SpielState:
        return _SpielState(self)

    def make_py_observer(self, iig_obs_type: Any = None, params: Any = None) -> _Observer:
        if iig_obs_type is not None and not iig_obs_type.perfect_recall:
            raise JpsError("fogsearch's pyspiel games provide information states only")
        return _Observer(self.tree)


class _SpielState(pyspiel.State):
    def __init__(self, game: _SpielGame) -> None:
        super().__init__(game)
        self.tree = game.tree
        self.node = 0

    def current_player(self) -> int:
        return self.tree.player[self.node]

    def _legal_actions(self, player: int) -> list[int]:
        return [self.tree.action[c] for c in self.tree.children(self.node)]

    def chance_outcomes(self) -> list[tuple[int, float]]:
        t = self.tree
        return [(t.action[c], t.chance_prob[c]) for c in t.children(self.node)]

    def _apply_action(self, action: int) -> None:
        for c in self.tree.children(self.node):
            if self.tree.action[c] == action:
                self.node = c
                return
        raise JpsError(f"action {action} is not legal here")

    def _action_to_string(self, player: int, action: int) -> str:
        label = self.get_game().fogsearch_game.action_label(player, action)
        return label if label is not None else str(action)

    def is_terminal(self) -> bool:
        return self.tree.player[self.node] == pyspiel.PlayerId.TERMINAL

    def returns(self) -> list[float]:
        u = self.tree.utility[self.node] if self.is_terminal() else 0.0
        return [u, u]

    def __str__(self) -> str:
        i = self.tree.infoset[self.node]
        return f"state {self.node}" + (f" ({self.tree.labels[i]})" if i >= 0 else "")


class _Observer:
    """Information states (perfect recall) of any player."""

    def __init__(self, tree: _Tree) -> None:
        self.tree = tree
        self.tensor = np.zeros(0, np.float32)
        self.dict: dict[str, Any] = {}

    def set_from(self, state: _SpielState, player: int) -> None:
        pass

    def string_from(self, state: _SpielState, player: int) -> str:
        return self.tree.information_state(state.node, player)


# pyspiel keeps the constructor for the life of the process: it must be a class (a closure is
# freed after the interpreter has shut down and aborts the exit).
class CommGame(_SpielGame):
    short_name = "fogsearch_comm"


class MiniHanabiGame(_SpielGame):
    short_name = "fogsearch_mini_hanabi"


class SimpleBiddingGame(_SpielGame):
    short_name = "fogsearch_simple_bidding"


class MiniBridgeGame(_SpielGame):
    short_name = "fogsearch_mini_bridge"


for _class in (CommGame, MiniHanabiGame, SimpleBiddingGame, MiniBridgeGame):
    if _class.short_name not in pyspiel.registered_names():
        pyspiel.register_game(_game_type(_class.short_name), _class)


def pyspiel_game(game: Game | str) -> pyspiel.Game:
    """The ``pyspiel`` game of a fogsearch game (or game name)."""
    name = game if isinstance(game, str) else game.name
    family, _, value = name.partition(":")
    short = f"fogsearch_{family}"
    if short not in FAMILIES:
        load_game(name)  # raises JpsError naming the games
    params = {}
    if value:
        key, _, number = value.partition("=")
        params[key] = int(number)
    return pyspiel.load_game(short, params)


def infoset_of(state: Any) -> int:
    """The core's information set of the player to move in a state of :func:`pyspiel_game`."""
    i = state.tree.infoset[state.node]
    if i < 0:
        raise JpsError("no player decides in this state")
    return i


def _strings(game: Game) -> list[str]:
    """The pyspiel information-state string of each of the core's information sets."""
    tree = _tree_of(game.name)
    return [tree.information_state(node, tree.player[node]) for node in tree.representative]


def from_tabular_policy(game: Game | str, tabular: Any) -> Policy:
    """A fogsearch policy from an OpenSpiel ``TabularPolicy`` of :func:`pyspiel_game` (or, for
    Mini-Hanabi, of OpenSpiel's own ``tiny_hanabi``: the information-state strings agree)."""
    g = load_game(game) if isinstance(game, str) else game
    probs = np.empty(g.num_policy_entries)
    strings = _strings(g)
    for i, (label, _, offset, n) in enumerate(g.infosets()):
        row = tabular.state_lookup[strings[i]]
        probs[offset : offset + n] = tabular.action_probability_array[row][_actions_of(g, label, n)]
    return Policy(g, probs)


def to_tabular_policy(policy: Policy, spiel_game: pyspiel.Game) -> Any:
    """An OpenSpiel ``TabularPolicy`` of ``spiel_game`` playing ``policy``."""
    from open_spiel.python import policy as openspiel_policy

    tabular = openspiel_policy.TabularPolicy(spiel_game)
    strings = _strings(policy.game)
    for i, (label, _, offset, n) in enumerate(policy.game.infosets()):
        row = tabular.state_lookup[strings[i]]
        tabular.action_probability_array[row][:] = 0.0
        tabular.action_probability_array[row][_actions_of(policy.game, label, n)] = policy.probs[
            offset : offset + n
        ]
    return tabular


def _actions_of(game: Game, label: str, n: int) -> list[int]:
    """The game's action ids of an information set's actions, in the policy's order."""
    tree = _tree_of(game.name)
    node = tree.representative[tree.labels.index(label)]
    actions = [tree.action[c] for c in tree.children(node)]
    assert len(actions) == n
    return actions
