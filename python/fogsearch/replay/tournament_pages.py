"""``fogsearch tournament ... --html DIR``: a replay page per stored game of the tournament and
``DIR/index.html`` with the standings, the Elo plot and a link per game."""

from __future__ import annotations

from pathlib import Path

from fogsearch.arguments import UsageError
from fogsearch.replay.command import save_replay
from fogsearch.tournament import ResultStore, plot_standings, standings, summary_table
from fogsearch.tournament.report import colour_split
from fogsearch.tournament.resume import match_games

PLOT_NAME = "standings.png"


def check_folder(folder: str | Path) -> Path:
    """The folder for the pages: made if missing (its parent must exist)."""
    folder = Path(folder)
    if folder.exists() and not folder.is_dir():
        raise UsageError(f"--html {folder} is a file; name a folder for the game pages")
    if not folder.exists():
        if not folder.parent.is_dir():
            raise UsageError(f"--html {folder}: its folder {folder.parent} does not exist")
        folder.mkdir()
    return folder


def write_tournament_pages(db: str, tournament_id: int, folder: str | Path) -> Path:
    """The pages of tournament ``tournament_id`` in ``db``; the index's path."""
    from fogsearch.replay.page import write_index

    folder = check_folder(folder)
    with ResultStore(db) as store:
        games = match_games(store, tournament_id)
        histories = {g["id"]: store.history_json(g["id"]) for g in games}
        logs = {g["id"]: store.turn_logs(g["id"]) for g in games}
    links = []
    for g in games:
        name = f"game-{g['id']}.html"
        # The fogsearch bot's logs: its values, depths and weighed requests, weighted beliefs.
        save_replay(histories[g["id"]], folder / name, logs[g["id"]] or None)
        links.append((f"{g['white']} vs {g['black']}: {g['winner']} ({g['reason']})", name))
    plot = None
    text = "no game finished: no standings"
    if games:
        ranked, pairs = standings(games)
        text = "\n".join([summary_table(ranked, pairs), "", *colour_split(games)])
        try:
            plot_standings(ranked, pairs, folder / PLOT_NAME)
            plot = PLOT_NAME
        except ImportError:  # matplotlib is optional; the index then has no plot
            plot = None
    return write_index(folder, f"tournament {tournament_id}", text, links, plot)
