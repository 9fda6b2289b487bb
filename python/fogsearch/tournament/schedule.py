"""Tournament formats: which games to play, with colours alternating and a seed per game."""

from __future__ import annotations

from dataclasses import dataclass
from itertools import combinations

from fogsearch.tournament.players import PlayerSpec


@dataclass(frozen=True)
class GameTask:
    """One game to play: everything a worker needs, and nothing it has to look up."""

    index: int
    white: PlayerSpec
    black: PlayerSpec
    seed: int
    seconds_per_player: float = 900.0
    seconds_increment: float = 5.0


def _pairing_games(a: PlayerSpec, b: PlayerSpec, games: int):
    for g in range(games):
        yield (a, b) if g % 2 == 0 else (b, a)


def round_robin(
    players: list[PlayerSpec], games_per_pairing: int
) -> list[tuple[PlayerSpec, PlayerSpec]]:
    """Every pair plays ``games_per_pairing`` games, colours alternating."""
    _check(players, games_per_pairing, minimum=2)
    return [
        pair
        for a, b in combinations(players, 2)
        for pair in _pairing_games(a, b, games_per_pairing)
    ]


def gauntlet(
    hero: PlayerSpec, opponents: list[PlayerSpec], games_per_pairing: int
) -> list[tuple[PlayerSpec, PlayerSpec]]:
    """``hero`` plays each opponent ``games_per_pairing`` games, colours alternating."""
    _check([hero, *opponents], games_per_pairing, minimum=2)
    return [pair for opp in opponents for pair in _pairing_games(hero, opp, games_per_pairing)]


def make_tasks(
    pairings: list[tuple[PlayerSpec, PlayerSpec]],
    seed: int,
    seconds_per_player: float = 900.0,
    seconds_increment: float = 5.0,
) -> list[GameTask]:
    return [
        GameTask(i, white, black, seed * 1_000_003 + i, seconds_per_player, seconds_increment)
        for i, (white, black) in enumerate(pairings)
    ]


def _check(players: list[PlayerSpec], games_per_pairing: int, minimum: int) -> None:
    if len(players) < minimum:
        raise ValueError(f"a tournament needs at least {minimum} players, got {len(players)}")
    names = [p.name for p in players]
    if len(set(names)) != len(names):
        raise ValueError(f"player names must be unique, got {names} (give labels with @name)")
    if games_per_pairing < 1:
        raise ValueError(f"games_per_pairing must be at least 1, got {games_per_pairing}")
