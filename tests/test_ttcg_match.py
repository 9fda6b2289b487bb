"""``fogsearch cards match``: duplicate deals with seats rotated, the JSON summary, results in
SQLite, parallel workers giving the same results, and one-line errors with exit status 2 for every
mistake on the command line, before any game is played."""

import json
import sqlite3

import pytest

from fogsearch.cli import main as cli_main
from fogsearch.ttcg.match import deal_actions, make_tasks, run_match, summary_table
from fogsearch.ttcg.match.report import interval
from fogsearch.ttcg.players import parse_spec


def test_json_summary_has_exactly_the_specified_keys_and_duplicate_returns(capsys):
    code = cli_main(["cards", "match", "--game", "gongzhu", "--players", "if", "random",
                     "--deals", "6", "--seed", "3", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert set(out) == {"players", "mean_return", "ci95", "deals"}
    assert out["players"] == ["if", "random"] and out["deals"] == 6
    # Gongzhu is zero-sum between the teams: the two means mirror each other.
    assert out["mean_return"][0] == pytest.approx(-out["mean_return"][1])
    for mean, (low, high) in zip(out["mean_return"], out["ci95"], strict=True):
        assert low < mean < high


def test_one_deal_gives_strict_json_with_null_intervals(capsys):
    code = cli_main(["cards", "match", "--game", "gongzhu", "--players", "if", "greed",
                     "--deals", "1", "--seed", "3", "--json"])  # fmt: skip
    assert code == 0

    def refuse(constant):
        raise AssertionError(f"{constant} is not JSON")

    out = json.loads(capsys.readouterr().out, parse_constant=refuse)
    assert out["ci95"] == [[None, None], [None, None]]
    assert out["mean_return"][0] == -out["mean_return"][1]


def test_seats_and_teams_are_summarised_with_intervals_from_the_stored_games(tmp_path):
    db = tmp_path / "cards.sqlite"
    players = ["if", "random", "greed", "random@r2"]
    s = run_match("gongzhu", players, deals=4, seed=1, db=db)
    rows = (
        sqlite3.connect(db)
        .execute(
            "SELECT deal_index, seat_player_ids_json, returns_json, points_json FROM card_games"
        )
        .fetchall()
    )
    ids = {n: i for i, n in sqlite3.connect(db).execute("SELECT id, name FROM players")}
    index = {ids[n.split("@")[-1]]: k for k, n in enumerate(players)}
    seat_by_deal: dict = {}
    team_points: dict = {}
    for deal, seat_ids, returns, points in rows:
        seat_ids, returns, points = json.loads(seat_ids), json.loads(returns), json.loads(points)
        for seat in range(4):
            seat_by_deal.setdefault((seat, deal), []).append(returns[seat])
        for pair in ((0, 2), (1, 3)):
            who = tuple(sorted(index[seat_ids[p]] for p in pair))
            team_points.setdefault(who, {}).setdefault(deal, []).append(
                points[pair[0]] + points[pair[1]]
            )
    for seat in range(4):
        per_deal = [sum(v) / len(v) for (s_, _), v in seat_by_deal.items() if s_ == seat]
        mean, low, high = interval(per_deal)
        assert s.seat_mean_return[seat] == pytest.approx(mean)
        assert s.seat_ci95[seat] == pytest.approx([low, high])
    # Partners sit across the table: players 0 and 2 are one team, 1 and 3 the other.
    assert [t.players for t in s.teams] == [[0, 2], [1, 3]]
    for team in s.teams:
        per_deal = [sum(v) / len(v) for v in team_points[tuple(team.players)].values()]
        mean, low, high = interval(per_deal)
        assert team.mean_points == pytest.approx(mean)
        assert team.points_ci95 == pytest.approx([low, high])
        # A team's return is either partner's.
        assert team.mean_return == pytest.approx(s.mean_return[team.players[0]])
        assert team.mean_return == pytest.approx(s.mean_return[team.players[1]])
    assert s.teams[0].mean_return == pytest.approx(-s.teams[1].mean_return)
    text = summary_table(s, "gongzhu")
    assert "seat 3" in text and "if + greed" in text and "random + r2" in text
    # Oh Hell has no teams.
    assert run_match("oh_hell", ["random", "random@b", "random@c"], 2, seed=1).teams == []


def test_every_deal_is_played_in_every_rotation_with_the_same_cards():
    specs = [
        parse_spec(s, "oh_hell") for s in ("random", "search:deals=2,iterations=20", "random@r2")
    ]
    tasks = make_tasks("oh_hell", {"num_tricks_fixed": 2}, specs, deals=2, seed=5)
    assert len(tasks) == 6
    for d in range(2):
        mine = [t for t in tasks if t.deal_index == d]
        assert len({t.deal for t in mine}) == 1
        # Each player sits in each seat once per deal.
        for seat in range(3):
            assert sorted(t.seats[seat] for t in mine) == [0, 1, 2]
    gongzhu = make_tasks(
        "gongzhu", {}, [parse_spec("if", "gongzhu"), parse_spec("greed", "gongzhu")], 1, 0
    )
    assert [t.seats for t in gongzhu] == [(0, 1, 0, 1), (1, 0, 1, 0)]
    assert deal_actions("gongzhu", {}, 7) == deal_actions("gongzhu", {}, 7)


def test_results_are_stored_and_workers_do_not_change_them(tmp_path):
    db = tmp_path / "cards.sqlite"
    one = run_match("gongzhu", ["greed", "if"], deals=3, seed=2, db=db)
    two = run_match("gongzhu", ["greed", "if"], deals=3, seed=2, workers=2)
    assert one.mean_return == two.mean_return
    conn = sqlite3.connect(db)
    rows = conn.execute(
        "SELECT deal_index, rotation, returns_json, error FROM card_games"
    ).fetchall()
    assert len(rows) == 6 and all(error is None for *_, error in rows)
    formats = conn.execute("SELECT format FROM tournaments").fetchall()
    assert formats == [("cards:gongzhu",)]
    names = {n for (n,) in conn.execute("SELECT name FROM players")}
    assert names == {"greed", "if"}


def test_openspiel_ismcts_plays_oh_hell_against_our_players(capsys):
    code = cli_main(["cards", "match", "--game", "oh_hell", "--players",
                     "search:sampler=gibbs,deals=2,iterations=20", "openspiel-ismcts:simulations=20",
                     "random", "--deals", "1", "--param", "num_tricks_fixed=2", "--json"])  # fmt: skip
    assert code == 0
    out = json.loads(capsys.readouterr().out)
    assert len(out["mean_return"]) == 3 and out["deals"] == 1


_OH_HELL = ["--game", "oh_hell", "--players", "random", "random@b"]


@pytest.mark.parametrize(
    ("args", "needle"),
    [
        (["--players", "if", "radnom"], "unknown player kind 'radnom'; kinds: random, if"),
        (["--players", "if", "search:depth=3"], "search takes no setting 'depth'"),
        (["--players", "if", "search:deals=abc"], "deals must be int"),
        (["--players", "if", "search:deals=0"], "deals must be 1 to"),
        (["--players", "if", "search:threads=100000"], "threads"),
        (["--players", "if", "search:sampler=magic"], "sampler must be"),
        (["--players", "if"], "gongzhu takes 2 or 4 players"),
        (["--players", "if", "if"], "player names must differ"),
        (["--players", "if", "openspiel-ismcts"], "oh_hell only"),
        ([*_OH_HELL, "openspiel-ismcts:resampler=x"], "resampler must be openspiel or fogsearch"),
        ([*_OH_HELL, "openspiel-ismcts:redeals=2"], "redeals needs resampler=fogsearch"),
        ([*_OH_HELL, "openspiel-ismcts:resampler=fogsearch,redeals=0"], "redeals must be 1 to 64"),
        (
            [
                *_OH_HELL,
                "openspiel-ismcts:resampler=fogsearch,redeals=16",
                "--move-seconds",
                "0.05",
            ],
            "redeals=16 leaves 3.1 ms a search",
        ),  # fmt: skip
        (["--players", "if", "greed", "--deals", "0"], "--deals must be 1 to"),
        (["--players", "if", "greed", "--move-seconds", "-5"], "--move-seconds must be above 0"),
        (["--players", "if", "greed", "--workers", "0"], "--workers must be 1 to"),
        (["--players", "if", "greed", "--param", "players=4"], "--param is for oh_hell"),
        (["--players", "if", "greed", "--db", "/no/such/folder/x.sqlite"], "does not exist"),
    ],
)
def test_command_line_mistakes_get_one_line_and_exit_status_2(capsys, args, needle):
    base = ["cards", "match", "--game", "gongzhu", "--deals", "2"]
    code = cli_main(base + args)
    err = capsys.readouterr().err
    assert code == 2
    assert err.count("\n") == 1 and needle in err, err
    assert "Traceback" not in err


def test_a_database_that_is_not_sqlite_or_a_renamed_player_stops_the_match_first(tmp_path, capsys):
    junk = tmp_path / "notes.txt"
    junk.write_text("not a database " * 100)
    base = ["cards", "match", "--game", "gongzhu", "--deals", "1"]
    assert cli_main(base + ["--players", "if", "greed", "--db", str(junk)]) == 2
    assert capsys.readouterr().err.startswith(f"fogsearch cards match: --db {junk}:")
    db = tmp_path / "r.sqlite"
    assert cli_main(base + ["--players", "if", "greed", "--db", str(db), "--json"]) == 0
    capsys.readouterr()
    # The same name with other settings would mix two players' results under one name.
    assert cli_main(base + ["--players", "search:deals=2@if", "greed", "--db", str(db)]) == 2
    assert "already stored" in capsys.readouterr().err


def test_oh_hell_parameters_and_player_counts_are_checked(capsys):
    base = ["cards", "match", "--game", "oh_hell", "--deals", "1"]
    assert cli_main(base + ["--players", "random", "random@b", "greed"]) == 2
    assert "Gongzhu only" in capsys.readouterr().err
    assert cli_main(base + ["--players", "random", "random@b", "--param", "players=2"]) == 2
    assert "oh_hell parameters: players must be in 3..=7" in capsys.readouterr().err
    assert cli_main(base + ["--players", "random", "random@b"]) == 2
    assert "oh_hell takes 3 players" in capsys.readouterr().err


def test_the_ray_backend_plays_the_same_games_as_local_processes():
    ray = pytest.importorskip("ray")
    try:
        local = run_match("gongzhu", ["greed", "random"], deals=2, seed=4)
        remote = run_match("gongzhu", ["greed", "random"], deals=2, seed=4, backend="ray")
    finally:
        ray.shutdown()
    assert remote.mean_return == local.mean_return
    assert remote.per_deal == local.per_deal


def _dealt_cards(state, tricks: int) -> set[int]:
    # oh_hell's history: trick count, dealer, then the 3 x tricks dealt cards and the trump card;
    # every other card is the undealt pile.
    return set(state.history()[2 : 2 + 3 * tricks + 1])


class _RecordingBot:
    """Stands in for OpenSpiel's bot: records the state it is handed and plays its first action."""

    def __init__(self):
        self.seen = []

    def step(self, state):
        self.seen.append(state.clone())
        return state.legal_actions()[0]

    def step_with_policy(self, state):
        # Visit shares that favour the last legal action on the first re-deal only, and the
        # first on every other: summed, the first wins.
        self.seen.append(state.clone())
        legal = state.legal_actions()
        favourite = legal[-1] if len(self.seen) == 1 else legal[0]
        policy = [(a, 0.9 if a == favourite else 0.1 / (len(legal) - 1)) for a in legal]
        return policy, favourite


def test_ismcts_with_the_fogsearch_resampler_never_sees_the_true_undealt_pile():
    import random

    import pyspiel

    from fogsearch.ttcg.players import build_player

    tricks = 5
    game = pyspiel.load_game("oh_hell", {"num_tricks_fixed": tricks})
    state, rng = game.new_initial_state(), random.Random(4)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    state.apply_action(state.legal_actions()[1])  # the first bid
    seat, true_dealt = state.current_player(), _dealt_cards(state, tricks)
    # The premise: OpenSpiel's own resampler keeps the true pile in every world it draws.
    for _ in range(5):
        world = state.resample_from_infostate(seat, rng.random)
        assert _dealt_cards(world, tricks) == true_dealt

    spec = parse_spec("openspiel-ismcts:resampler=fogsearch,simulations=10", "oh_hell")
    player = build_player(spec, "oh_hell")
    player.ismcts = recorder = _RecordingBot()
    for seed in range(5):
        action = player.act(None, state, seed)
        assert action in state.legal_actions()
    for handed in recorder.seen:
        assert handed.information_state_string(seat) == state.information_state_string(seat)
        # 36 undealt of the 46 cards the seat has not seen: a consistent re-deal moves some.
        assert _dealt_cards(handed, tricks) != true_dealt
    # As shipped, the bot is handed the true state.
    shipped = build_player(parse_spec("openspiel-ismcts:simulations=10", "oh_hell"), "oh_hell")
    shipped.ismcts = recorder = _RecordingBot()
    shipped.act(None, state, 0)
    assert _dealt_cards(recorder.seen[0], tricks) == true_dealt


def test_only_redeals_split_the_move_time_so_only_they_need_five_ms_a_search():
    from fogsearch.ttcg.players import SpecError, build_player

    for text in ("openspiel-ismcts", "openspiel-ismcts:resampler=fogsearch"):
        build_player(parse_spec(text, "oh_hell"), "oh_hell", move_seconds=0.002)
    spec = parse_spec("openspiel-ismcts:resampler=fogsearch,redeals=2", "oh_hell")
    build_player(spec, "oh_hell", move_seconds=0.01)
    with pytest.raises(SpecError, match="redeals=2 leaves 1.0 ms a search"):
        build_player(spec, "oh_hell", move_seconds=0.002)


def test_ismcts_redeals_sum_visit_shares_over_consistent_states():
    import random

    import pyspiel

    from fogsearch.ttcg.players import build_player

    game = pyspiel.load_game("oh_hell", {"num_tricks_fixed": 4})
    state, rng = game.new_initial_state(), random.Random(9)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    seat = state.current_player()
    spec = parse_spec("openspiel-ismcts:resampler=fogsearch,redeals=3,simulations=30", "oh_hell")
    player = build_player(spec, "oh_hell")
    player.ismcts = recorder = _RecordingBot()
    assert player.act(None, state, 11) == state.legal_actions()[0]
    assert len(recorder.seen) == 3
    infostates = {w.information_state_string(seat) for w in recorder.seen}
    assert infostates == {state.information_state_string(seat)}
    assert len({tuple(w.history()) for w in recorder.seen}) == 3


def test_a_redealt_search_without_visits_is_left_out_of_the_sum():
    import random

    import pyspiel

    from fogsearch.ttcg.players import build_player

    class _FirstSearchEmpty(_RecordingBot):
        def step_with_policy(self, state):
            if not self.seen:
                self.seen.append(state.clone())
                raise pyspiel.SpielError("node->total_visits > 0")
            return super().step_with_policy(state)

    game = pyspiel.load_game("oh_hell", {"num_tricks_fixed": 4})
    state, rng = game.new_initial_state(), random.Random(9)
    while state.is_chance_node():
        state.apply_action(rng.choice([a for a, _ in state.chance_outcomes()]))
    spec = parse_spec("openspiel-ismcts:resampler=fogsearch,redeals=2,simulations=30", "oh_hell")
    player = build_player(spec, "oh_hell")
    player.ismcts = _FirstSearchEmpty()
    # The second search alone decides: its favourite (the recorder's second call) is the first.
    assert player.act(None, state, 3) == state.legal_actions()[0]
