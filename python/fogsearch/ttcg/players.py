"""Card players from specs: ``random``, ``if``, ``greed`` (Gongzhu), ``search[:key=value,...]``
and ``openspiel-ismcts[:key=value,...]`` (OpenSpiel's ISMCTS bot, oh_hell only), each optionally
``@label``-ed, in the grammar of :class:`fogsearch.tournament.PlayerSpec`.

``search`` settings (unset ones take the game's defaults, which the core holds and ``fogsearch
cards games`` prints: :meth:`fogsearch.ttcg.search_config.CardSearchConfig.defaults`):
``sampler`` (us, ss, us+iec, ss+iec, gibbs, pairs), ``deals`` (sampled per move), ``iterations``
(UCB-MCTS iterations per deal), ``c`` (UCB's exploration constant, the core's ``exploration``;
``c=30`` is the paper's, tuned for its network's values rather than random playouts),
``threads`` (default: every core), ``beta`` (IEC's, 0.015), ``model_beta`` (the Greed model of
play of Gongzhu's Gibbs sampler), ``key_cards`` (SS), ``strata`` (SS's probability of each
stratum: ``exact``, its share of the consistent deals; ``equal``, the paper's zeroth-order 1/t),
``chains``, ``burn_in``, ``thin`` (Gibbs), ``tree`` (``deals``: a perfect-information tree per
sampled deal, searched in parallel; ``shared``, the core's ``shared_tree``: one information-set
tree over all of them, single-observer ISMCTS, on one thread; its budget is ``iterations`` per
deal, 8,388,608 in all at most).
``openspiel-ismcts`` settings: ``simulations`` (1,000), ``c`` (UCT's, 2), ``rollouts`` (1),
``resampler``: ``openspiel`` (the default, the bot as shipped) or ``fogsearch``. OpenSpiel's
oh_hell resampler re-deals the other seats' hands but never the undealt pile, so every world the
bot samples holds the true pile, which no seat may know. With ``resampler=fogsearch`` the bot is
handed, each move, a state re-dealt by fogsearch's exact resampler for its seat
(:func:`fogsearch.ttcg.resample_from_infostate`): the pile it then keeps through that move's
simulations is a draw consistent with what it saw, not the true one. ``redeals=K`` (1 to 64; 1
by default) splits the move's time or simulations over K such states and plays the action with
the largest sum of visit shares over the K searches, so that no single drawn pile decides the
move; each search needs at least 5 ms. With a time
per move, both searches stop when it is up.
"""

from __future__ import annotations

from dataclasses import dataclass
from typing import Any

import pyspiel

from fogsearch._core import FogsearchError
from fogsearch._core.ttcg import GAMES, Player, game_info
from fogsearch.tournament.players import PlayerSpec
from fogsearch.ttcg.openspiel import resample_from_infostate
from fogsearch.ttcg.search_config import CardSearchConfig

__all__ = ["KINDS", "CardPlayer", "SpecError", "build_player", "parse_spec"]

KINDS = ("random", "if", "greed", "search", "openspiel-ismcts")

_SEARCH_SETTINGS = {
    "sampler": str,
    "deals": int,
    "iterations": int,
    "c": float,
    "threads": int,
    "beta": float,
    "model_beta": float,
    "key_cards": int,
    "strata": str,
    "chains": int,
    "burn_in": int,
    "thin": int,
    "tree": str,
}
_ISMCTS_SETTINGS = {
    "simulations": int,
    "c": float,
    "rollouts": int,
    "resampler": str,
    "redeals": int,
}
MAX_REDEALS = 64
MIN_REDEAL_SECONDS = 0.005
"""The least time one re-dealt search may have: at 3 ms, searches on a loaded machine sometimes
ended before their first simulation."""
_SEEDS = 1 << 63
_ISMCTS_RESAMPLERS = ("openspiel", "fogsearch")


class SpecError(FogsearchError):
    """A player spec that names no player, or settings it does not take."""


def parse_spec(text: str, game: str) -> PlayerSpec:
    """Parses and checks ``text`` for ``game`` (a name of the core's registry), raising
    :class:`SpecError` with what is allowed."""
    try:
        spec = PlayerSpec.parse(text)
    except ValueError as e:
        raise SpecError(str(e)) from None
    if spec.kind not in KINDS:
        raise SpecError(f"unknown player kind {spec.kind!r}; kinds: {', '.join(KINDS)}")
    info = game_info(game)
    if spec.kind in ("if", "greed") and not info["greed_players"]:
        raise SpecError(f"{spec.kind!r} plays Gongzhu only")
    if spec.kind == "openspiel-ismcts" and not info["openspiel_ismcts"]:
        games = ", ".join(g for g in GAMES if game_info(g)["openspiel_ismcts"])
        raise SpecError(
            f"openspiel-ismcts plays {games} only (fogsearch resamples no other game's "
            "pyspiel states)"
        )
    allowed = {"search": _SEARCH_SETTINGS, "openspiel-ismcts": _ISMCTS_SETTINGS}.get(spec.kind, {})
    for key, value in spec.settings.items():
        if key not in allowed:
            known = ", ".join(f"{k} ({t.__name__})" for k, t in allowed.items()) or "none"
            raise SpecError(f"{spec.kind} takes no setting {key!r}; settings: {known}")
        want = allowed[key]
        if want is float and isinstance(value, int) and not isinstance(value, bool):
            continue
        if not isinstance(value, want) or isinstance(value, bool):
            raise SpecError(f"{spec.kind} setting {key} must be {want.__name__}, got {value!r}")
    resampler = spec.settings.get("resampler", "openspiel")
    if spec.kind == "openspiel-ismcts" and resampler not in _ISMCTS_RESAMPLERS:
        raise SpecError(
            f"openspiel-ismcts setting resampler must be openspiel or fogsearch, got {resampler!r}"
        )
    if "redeals" in spec.settings:
        if resampler != "fogsearch":
            raise SpecError("openspiel-ismcts setting redeals needs resampler=fogsearch")
        if not 1 <= spec.settings["redeals"] <= MAX_REDEALS:
            raise SpecError(f"openspiel-ismcts setting redeals must be 1 to {MAX_REDEALS}")
    return spec


@dataclass
class CardPlayer:
    """A built player: ``native`` (a ``fogsearch._core.ttcg.Player``) acts on native states;
    ``ismcts`` (OpenSpiel's bot) on pyspiel states: the true state if ``redeals`` is 0, else
    that many states re-dealt for its seat by fogsearch's exact resampler, their visit shares
    summed."""

    name: str
    native: Any = None
    ismcts: Any = None
    redeals: int = 0

    @property
    def needs_pyspiel(self) -> bool:
        return self.ismcts is not None

    def act(self, native_state: Any, pyspiel_state: Any, seed: int) -> int:
        if self.native is not None:
            return int(self.native.act(native_state, seed))
        if not self.redeals:
            return int(self.ismcts.step(pyspiel_state))
        # Each re-deal keeps the seat's information state, so the same legal actions; only the
        # hidden cards, the pile among them, are drawn anew.
        seat = pyspiel_state.current_player()
        if self.redeals == 1:
            return int(self.ismcts.step(resample_from_infostate(pyspiel_state, seat, seed)))
        shares: dict[int, float] = {}
        for i in range(self.redeals):
            world = resample_from_infostate(pyspiel_state, seat, (seed * MAX_REDEALS + i) % _SEEDS)
            try:
                policy, _ = self.ismcts.step_with_policy(world)
            except pyspiel.SpielError:
                # A search whose process was descheduled past its short deadline before its
                # first simulation has no visits to share (OpenSpiel refuses the policy).
                continue
            for action, share in policy:
                shares[action] = shares.get(action, 0.0) + share
        if not shares:
            raise RuntimeError(f"{self.name}: no re-dealt search completed a simulation")
        return max(sorted(shares), key=shares.__getitem__)


def _tree(name: str | None) -> bool | None:
    if name not in (None, "deals", "shared"):
        raise SpecError(f"search setting tree must be deals or shared, got {name!r}")
    return None if name is None else name == "shared"


def build_player(
    spec: PlayerSpec,
    game: str,
    params: dict | None = None,
    move_seconds: float | None = None,
    seed: int = 0,
) -> CardPlayer:
    """The player of ``spec`` (checked by :func:`parse_spec`), with ``move_seconds`` as its time
    per move if it searches."""
    s = spec.settings
    if spec.kind == "random":
        return CardPlayer(spec.name, native=Player.random())
    if spec.kind == "if":
        return CardPlayer(spec.name, native=Player.mr_if())
    if spec.kind == "greed":
        return CardPlayer(spec.name, native=Player.greed())
    if spec.kind == "search":
        native = CardSearchConfig(
            sampler=s.get("sampler"),
            deals=s.get("deals"),
            iterations=s.get("iterations"),
            seconds=move_seconds,
            exploration=None if "c" not in s else float(s["c"]),
            threads=s.get("threads"),
            model_beta=None if "model_beta" not in s else float(s["model_beta"]),
            iec_beta=None if "beta" not in s else float(s["beta"]),
            key_cards=s.get("key_cards"),
            strata=s.get("strata"),
            chains=s.get("chains"),
            burn_in=s.get("burn_in"),
            thin=s.get("thin"),
            shared_tree=_tree(s.get("tree")),
        ).player(game, params)
        return CardPlayer(spec.name, native=native)
    redeals = int(s.get("redeals", 1)) if s.get("resampler") == "fogsearch" else 0
    searches = max(redeals, 1)
    if searches > 1 and move_seconds is not None and move_seconds / searches < MIN_REDEAL_SECONDS:
        raise SpecError(
            f"redeals={redeals} leaves {move_seconds / searches * 1e3:.1f} ms a search; "
            f"each needs at least {MIN_REDEAL_SECONDS * 1e3:.0f} ms (move seconds / redeals)"
        )
    bot = pyspiel.ISMCTSBot(
        seed,
        pyspiel.RandomRolloutEvaluator(int(s.get("rollouts", 1)), seed),
        float(s.get("c", 2.0)),
        max(int(s.get("simulations", 1000)) // searches, 1) if move_seconds is None else 10**9,
        -1,
        # Visit shares to sum over re-deals; one search plays its most visited action itself.
        pyspiel.ISMCTSFinalPolicyType.MAX_VISIT_COUNT
        if searches == 1
        else pyspiel.ISMCTSFinalPolicyType.NORMALIZED_VISIT_COUNT,
        False,
        False,
        -1.0 if move_seconds is None else float(move_seconds) / searches,
    )
    return CardPlayer(spec.name, ismcts=bot, redeals=redeals)
