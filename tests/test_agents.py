"""Match agents and drafters: they finish games on every shipped board and victory condition,
never choose an illegal action (apply with check=True), are deterministic for a seed, and the
search agent only re-deals what its seat cannot see."""

from __future__ import annotations

import dataclasses
import json
import random

import pytest

from engine.agents.drafters import HeuristicDrafter, RatingsDrafter, make_ratings_drafter
from engine.agents.registry import make_agent
from engine.agents.search import determinize
from engine.board import VictoryKind
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameConfig
from workbench.config import load_setup

BOARDS = ["kings-crossing", "gold-rush", "three-hills", "four-banners", "zwei-burgen",
          "drowned-sanctum", "tyrants-throne"]
SETS = (["iron-legion", "tide-callers"], ["pestgericht", "sky-wardens"])


def short_config(board: str, sets: list[str], rounds: int) -> GameConfig:
    """The board with a lower round limit, so tests stay fast."""
    cfg = load_setup(sets, board).config
    b = dataclasses.replace(cfg.board, round_limit=rounds)
    return GameConfig(cfg.pool, cfg.catalog, b, players=cfg.players)


def play_checked(config: GameConfig, seed: int, specs: list[str],
                 drafters: list[str] | None = None) -> Game:
    """Play a whole game; every chosen action is checked against the legal actions."""
    game = Game(config, seed)
    n = config.players
    agents = [make_agent(specs[s % len(specs)]) for s in range(n)]
    drafts = [make_agent((drafters or specs)[s % len(drafters or specs)]) for s in range(n)]
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(n)]
    while not game.is_terminal():
        seat = game.current_player()
        legal = game.legal_actions()
        who = drafts[seat] if game.state.phase == "draft" else agents[seat]
        game.apply(who.act(game, legal, rngs[seat]), check=True)
    return game


def test_every_victory_condition_is_shipped() -> None:
    kinds = {load_setup(SETS[0], b).board.victory.kind for b in BOARDS}
    assert kinds == set(VictoryKind)


@pytest.mark.parametrize("board", BOARDS)
def test_heuristic_finishes_every_board(board: str) -> None:
    for k, sets in enumerate(SETS):
        game = play_checked(short_config(board, sets, 30), 11 + k, ["heuristic", "random"])
        assert game.is_terminal()
        assert not game.state.guard_stopped


@pytest.mark.parametrize("board", BOARDS)
def test_search_finishes_every_board(board: str) -> None:
    game = play_checked(short_config(board, SETS[board.startswith("t")], 4), 5,
                        ["search:budget=2", "heuristic"], ["heuristic"])
    assert game.is_terminal()


@pytest.mark.parametrize("board", BOARDS)
def test_drafters_finish_every_board(board: str) -> None:
    game = play_checked(short_config(board, SETS[1], 3), 3, ["random"],
                        ["ratings", "heuristic", "random"])
    assert game.is_terminal()
    assert all(len(p.store) + 0 > 0 for p in game.state.players)


@pytest.mark.parametrize("spec", ["heuristic", "search:budget=3", "ratings"])
def test_agents_are_deterministic(spec: str) -> None:
    cfg = short_config("kings-crossing", SETS[0], 3)
    a = play_checked(cfg, 7, [spec, "heuristic"]).state.action_log
    b = play_checked(cfg, 7, [spec, "heuristic"]).state.action_log
    assert a == b


def test_heuristic_beats_random_quickly() -> None:
    cfg = short_config("three-hills", SETS[0], 25)
    wins = 0
    for i in range(4):
        seat = i % 2
        specs = ["heuristic", "random"] if seat == 0 else ["random", "heuristic"]
        game = play_checked(cfg, 100 + i, specs)
        wins += seat in (game.state.winners or ())
    assert wins >= 3


def test_determinize_keeps_what_the_seat_sees() -> None:
    cfg = load_setup(SETS[0], "kings-crossing").config
    game = Game(cfg, 3)
    h = make_agent("heuristic")
    rng = random.Random(1)
    while game.state.phase == "draft" or game.state.round < 3:
        game.apply(h.act(game, game.legal_actions(), rng))
    seat = game.current_player()
    before = game.observation(seat)
    d = determinize(game, seat, random.Random(9))
    after = d.observation(seat)
    assert after == before
    s0, s1 = game.state, d.state
    for x, (p0, p1) in enumerate(zip(s0.players, s1.players)):
        assert len(p0.hand) == len(p1.hand) and len(p0.deck) == len(p1.deck)
        assert sorted(p0.deck + (p0.hand if x != seat else [])) == sorted(
            p1.deck + (p1.hand if x != seat else [])) or x != seat
    pool0 = sorted(c for x, p in enumerate(s0.players) if x != seat for c in p.hand + p.deck)
    pool1 = sorted(c for x, p in enumerate(s1.players) if x != seat for c in p.hand + p.deck)
    assert pool0 == pool1
    assert s1.players[seat].hand == s0.players[seat].hand
    # the original game is untouched
    assert game.observation(seat) == before


def test_ratings_drafter_prefers_rated_cards(tmp_path) -> None:
    cfg = load_setup(SETS[0], "kings-crossing").config
    game = Game(cfg, 1)
    s = game.state
    legal = game.legal_actions()
    names = [s.cards[a.card].name for a in legal]
    target = names[-1]
    drafter = RatingsDrafter({target: 0.9, names[0]: 0.1})
    assert s.cards[drafter.pick(s, legal).card].name == target
    f = tmp_path / "r.json"
    f.write_text(json.dumps({"ratings": {target: 0.8, names[0]: {"score": 0.2}}}))
    d2 = make_ratings_drafter({"ratings_file": str(f)})
    assert s.cards[d2.pick(s, legal).card].name == target
    # without ratings it drafts like the heuristic drafter
    plain = make_ratings_drafter({})
    assert plain.pick(s, legal) == HeuristicDrafter().pick(s, legal)


def test_ratings_from_duckdb(tmp_path) -> None:
    duckdb = pytest.importorskip("duckdb")
    from workbench.ratings import load_ratings
    db = tmp_path / "runs.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE games (game_id BIGINT, board VARCHAR)")
    con.execute("CREATE TABLE game_seats (game_id BIGINT, seat INTEGER, won BOOLEAN)")
    con.execute("CREATE TABLE picks (game_id BIGINT, player INTEGER, card VARCHAR)")
    for g in range(10):
        con.execute("INSERT INTO games VALUES (?, 'kings-crossing')", [g])
        con.execute("INSERT INTO game_seats VALUES (?, 0, true), (?, 1, false)", [g, g])
        con.execute("INSERT INTO picks VALUES (?, 0, 'Good'), (?, 0, 'Good'), (?, 1, 'Bad')",
                    [g, g, g])
    con.close()
    r = load_ratings(str(db), {"prior": "0"})
    assert r == {"Good": 1.0, "Bad": 0.0}
    drafter = make_agent(f"ratings:db={db}+prior=0")
    assert drafter.ratings["good"] == 1.0
    assert load_ratings(str(db))["Good"] == pytest.approx(0.75)  # smoothed toward the mean
