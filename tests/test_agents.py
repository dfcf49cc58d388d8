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
from engine.vocab import Phase
from workbench.content.setup import load_setup
from workbench.play import agents as workbench_agents

BOARDS = [
    "kings-crossing",
    "gold-rush",
    "three-hills",
    "four-banners",
    "zwei-burgen",
    "drowned-sanctum",
    "tyrants-throne",
]
SETS = (["iron-legion", "tide-callers"], ["pestgericht", "sky-wardens"])


def short_config(board: str, sets: list[str], rounds: int) -> GameConfig:
    """The board with a lower round limit, so tests stay fast."""
    cfg = load_setup(sets, board).config
    b = dataclasses.replace(cfg.board, round_limit=rounds)
    return GameConfig(cfg.pool, cfg.catalog, b, players=cfg.players)


def play_checked(
    config: GameConfig, seed: int, specs: list[str], drafters: list[str] | None = None
) -> Game:
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
@pytest.mark.parametrize("spec,rounds", [("search:budget=2", 4), ("search:budget=16", 2)])
def test_search_finishes_every_board(board: str, spec: str, rounds: int) -> None:
    """Budget 16 also runs stage 2, whose rollouts pass the other seats' (and the Tyrant's)
    turns."""
    game = play_checked(
        short_config(board, SETS[board.startswith("t")], rounds),
        5,
        [spec, "heuristic"],
        ["heuristic"],
    )
    assert game.is_terminal()


@pytest.mark.parametrize("board", BOARDS)
def test_drafters_finish_every_board(board: str) -> None:
    game = play_checked(
        short_config(board, SETS[1], 3), 3, ["random"], ["ratings", "heuristic", "random"]
    )
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
    for x, (p0, p1) in enumerate(zip(s0.players, s1.players, strict=True)):
        assert len(p0.hand) == len(p1.hand) and len(p0.deck) == len(p1.deck)
        assert (
            sorted(p0.deck + (p0.hand if x != seat else []))
            == sorted(p1.deck + (p1.hand if x != seat else []))
            or x != seat
        )
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
    agent = workbench_agents.make_agent(f"ratings:ratings_file={f}")
    d2 = agent.drafter()  # the heuristic agent drafting with the ratings (registry.with_drafter)
    assert isinstance(d2, RatingsDrafter)
    assert s.cards[d2.pick(s, legal).card].name == target
    assert agent.act(game, legal, random.Random(0)) == d2.pick(s, legal)
    # the engine opens no files: it takes ratings as data and refuses a file it would have to read
    with pytest.raises(ValueError, match="engine opens no files"):
        make_ratings_drafter({"ratings_file": str(f)})
    with pytest.raises(ValueError, match="engine opens no files"):
        make_agent(f"ratings:ratings_file={f}")
    # without ratings it drafts like the heuristic drafter
    plain = make_ratings_drafter({})
    assert plain.pick(s, legal) == HeuristicDrafter().pick(s, legal)


def test_ratings_from_duckdb(tmp_path) -> None:
    duckdb = pytest.importorskip("duckdb")
    from workbench.play.ratings import load_ratings

    db = tmp_path / "runs.duckdb"
    con = duckdb.connect(str(db))
    con.execute("CREATE TABLE games (game_id BIGINT, board VARCHAR)")
    con.execute("CREATE TABLE game_seats (game_id BIGINT, seat INTEGER, won BOOLEAN)")
    con.execute("CREATE TABLE picks (game_id BIGINT, player INTEGER, card VARCHAR)")
    for g in range(10):
        con.execute("INSERT INTO games VALUES (?, 'kings-crossing')", [g])
        con.execute("INSERT INTO game_seats VALUES (?, 0, true), (?, 1, false)", [g, g])
        con.execute(
            "INSERT INTO picks VALUES (?, 0, 'Good'), (?, 0, 'Good'), (?, 1, 'Bad')", [g, g, g]
        )
    con.close()
    r = load_ratings(str(db), {"prior": "0"})
    assert r == {"Good": 1.0, "Bad": 0.0}
    drafter = workbench_agents.make_agent(f"ratings:db={db}+prior=0").drafter()
    assert isinstance(drafter, RatingsDrafter) and drafter.ratings["good"] == 1.0
    assert load_ratings(str(db))["Good"] == pytest.approx(0.75)  # smoothed toward the mean


def _held_staff(enemy_x: int) -> float:
    """evaluate() for seat 0 holding the staff at (1, 0), one enemy unit at (enemy_x, 0), the
    enemy to move."""
    from engine.agents.evaluation import evaluate
    from tests.builder import Keywords, Position, Victory, board, equipment, unit

    staff = equipment("Staff", durability=9, keywords=Keywords(staff=True))
    holder = unit("Holder", life=2, attack=1)
    brute = unit("Brute", life=3, move=2, attack=4)
    pos = Position(
        board("0 . . . . . . . . 1", victory=Victory(VictoryKind.STAFF)), [staff, holder, brute]
    )
    u = pos.put(holder, 0, 1, 0)
    pos.stack_on(u, staff, -1)
    pos.put(brute, 1, enemy_x, 0)
    pos.state.active = 1  # the end of seat 0's turn: the enemy moves next
    return evaluate(pos.state, 0)


def test_evaluate_a_staff_holder_the_enemy_can_reach_counts_little() -> None:
    """The search agent's leaf value: holding the staff wins only at the next upkeep (R21.12), so a
    holder that an enemy can bring down first is worth far less than a safe one."""
    safe, reachable = _held_staff(8), _held_staff(3)
    assert safe > 0.5
    assert safe - reachable > 0.4


def test_evaluate_a_hit_on_the_tyrant_is_worth_standing_next_to_it() -> None:
    """On a Tyrant board the players win by bringing the Tyrant down (R21.15): 2 damage dealt from
    the field next to it is worth more than keeping clear with the Tyrant untouched, and a fresh
    Tyrant leaves the value in tanh's steep middle (with its whole life counted, a position with
    the shipped Tyrant near full life scored below -0.95 and search tables kept clear of it)."""
    from engine.agents.evaluation import evaluate
    from engine.board import TYRANT
    from tests.builder import Keywords, Position, Victory, VictoryKind, board, unit

    tyrant = unit("Tyrant", life=10, move=2, attack=3, keywords=Keywords(tyrant=True), buy=None)
    knight = unit("Knight", life=6, move=2, attack=3)
    values = {}
    for x, damage in ((1, 2), (4, 0)):
        pos = Position(
            board(". . . . . .\n. . . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=3)),
            [knight, tyrant],
        )
        pos.put(tyrant, TYRANT, 0, 0, owner=TYRANT, damage=damage)
        pos.put(knight, 0, x, 0)
        values[x] = evaluate(pos.state, 0)
    assert values[1] > values[4] + 0.03
    assert -0.5 < values[4] < 0.5


def test_evaluate_counts_the_areas_held_now() -> None:
    """On a capture board (R19.3) an area the seat holds now is worth about the point it brings at
    the next upkeep: the same units, the enemy's one in the seat's area (a tie, nobody holds it)
    or outside it, differ by about that much."""
    from engine.agents.evaluation import evaluate
    from tests.builder import Position, Victory, VictoryKind, board, unit

    guard = unit("Guard", life=3, move=1, attack=0)
    values = {}
    for enemy_x in (1, 5):
        pos = Position(
            board("0A A . . . 1", victory=Victory(VictoryKind.CAPTURE, target=9)), [guard]
        )
        pos.put(guard, 0, 0, 0)
        pos.put(guard, 1, enemy_x, 0)
        pos.state.active = 1
        values[enemy_x] = evaluate(pos.state, 0)
    assert values[5] > values[1] + 0.05


def test_heuristic_chooses_a_spell_push_origin_that_drowns_the_target() -> None:
    """A spell's push origin is the caster's choice (R14.1), offered with the play: of the
    eight origins around the enemy the heuristic takes the one pushing it into deep water."""
    from tests.builder import Position, board, eff, spell, tgt, unit

    soldier = unit("Soldier", life=3, attack=1)
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    pos = Position(board(". . .\n. . ~\n. . ."), [wave, soldier])
    pos.put(soldier, 0, 1, 0)
    e = pos.put(soldier, 1, 1, 1)
    w = pos.hand(0, wave)[0]
    g = pos.game()
    a = make_agent("heuristic").act(g, g.legal_actions(), random.Random(1))
    assert (a.kind, a.card, a.target, a.field) == ("play", w, e, pos.f(0, 1))


def test_evaluate_counts_the_exposed_units_of_the_side_not_to_move() -> None:
    """An enemy unit in reach of the seat's units is worth less to the enemy when the seat
    moves next, and the seat's own exposed unit costs it only when the enemy moves next."""
    from engine.agents.evaluation import evaluate
    from tests.builder import Position, board, unit

    hunter = unit("Hunter", life=3, move=2, attack=3)
    prey = unit("Prey", life=2, move=2, attack=1)
    values = {}
    for mover in (0, 1):
        pos = Position(board("0 . . . . . . . . 1"), [hunter, prey])
        pos.put(hunter, 0, 1, 0)
        pos.put(prey, 1, 3, 0)
        pos.state.active = mover
        values[mover] = evaluate(pos.state, 0)
    assert values[0] > values[1] + 0.02


def test_search_looks_through_its_own_next_turn() -> None:
    """On a VIP board (R19.1), from budget 16 the search plays a candidate on through the enemy's
    answer and the seat's own next turn: a runner two moves from the enemy VIP wins then if it
    moves now, which only that look-ahead sees (through the answer alone neither choice reaches
    the win)."""
    from engine.agents.search import SearchAgent
    from tests.builder import Position, Victory, board, unit

    king = unit("King", life=9, move=0, attack=0)
    prey = unit("Prey", life=1, move=0, attack=0)
    runner = unit("Runner", life=3, move=2, attack=3)
    pos = Position(
        board("0 . . . . . . . . . 1", victory=Victory(VictoryKind.VIP)), [king, prey, runner]
    )
    pos.state.vips = {0: pos.put(king, 0, 0, 0), 1: pos.put(prey, 1, 10, 0)}
    r = pos.put(runner, 0, 5, 0)
    game = pos.game()
    agent = SearchAgent(budget=16)
    move = next(a for a in game.legal_actions() if a.kind == "activate" and a.card == r)
    wait = next(a for a in game.legal_actions() if a.kind == "pass")
    turns = agent.turns_ahead(game.state)
    ahead = {a: agent._rollout(game, 0, a, 1, turns, 0.0) for a in (move, wait)}
    assert ahead[move] == 1.0 and ahead[wait] < 0.9
    answer = {a: agent._rollout(game, 0, a, 1, 1, 0.0) for a in (move, wait)}
    assert max(answer.values()) < 0.95
    assert game.state.turn == 1 and not game.is_terminal()


# --- the heuristic's upkeep (R5.3, R21.7, R21.21) ----------------------------------------------


def _upkeep_position(resource: int, units: list, hand: list):
    """Seat 0's upkeep with no income: `units` on the board, `hand` in hand, an empty deck."""
    from tests.builder import Position, board

    pos = Position(board("0 . . . . 1", income=0), [*units, *hand])
    ids = [pos.put(u, 0, x, 0) for x, u in enumerate(units)]
    pos.idle(0, 4, 0)
    pos.idle(1, 5, 0)
    pos.hand(0, *hand)
    pos.resource(0, resource)
    pos.state.phase = Phase.START
    game = pos.game(advance=True)
    assert game.state.phase == "upkeep_due"
    return game, ids


def _heuristic_upkeep(game: Game) -> list[str]:
    """The heuristic's choices until seat 0's action phase, as action texts."""
    from engine.agents.heuristic import HeuristicAgent

    agent, rng, out = HeuristicAgent(), random.Random(1), []
    while game.state.phase != "main" and not game.is_terminal():
        a = agent.act(game, game.legal_actions(), rng)
        out.append(a.text())
        game.apply(a)
    return out


KNIGHT = {"life": 6, "move": 2, "attack": 3, "upkeep": 1}


def test_heuristic_upkeep_converts_to_keep_a_valued_unit() -> None:
    """0 resource, a strong unit of upkeep 1 and two cards it cannot play soon: it discards 2
    for 1 (R8.6) during upkeep and keeps the unit."""
    from tests.builder import unit

    game, (k,) = _upkeep_position(
        0, [unit("Knight", **KNIGHT)], [unit("Pricey", play=9), unit("Dear", play=9)]
    )
    chosen = _heuristic_upkeep(game)
    assert chosen[0] == "convert" and chosen[-1] == f"pay c{k}"
    assert k in game.state.perms


def test_heuristic_upkeep_plays_a_resource_spell_to_keep_a_unit() -> None:
    from tests.builder import eff, spell, unit

    supply = spell("Supply", eff("gain", 1), play=0)
    game, (k,) = _upkeep_position(0, [unit("Knight", **KNIGHT)], [supply])
    chosen = _heuristic_upkeep(game)
    assert chosen[0].startswith("play") and chosen[-1] == f"pay c{k}"
    assert k in game.state.perms


def test_heuristic_upkeep_keeps_good_cards_rather_than_a_weak_unit() -> None:
    """Converting two strong playable cards for a unit worth little is not worth it."""
    from tests.builder import unit

    weak = unit("Weakling", life=1, move=1, attack=0, upkeep=1)
    strong = [unit("Titan", life=9, attack=5, play=1), unit("Giant", life=8, attack=5, play=1)]
    game, (w,) = _upkeep_position(0, [weak], strong)
    assert _heuristic_upkeep(game) == ["refuse"]
    assert w not in game.state.perms and len(game.state.players[0].hand) == 2


def test_heuristic_upkeep_pays_for_the_unit_it_values_most() -> None:
    """Resource for one of two units: it keeps the stronger (the weaker comes first in id)."""
    from tests.builder import unit

    weak = unit("Weakling", life=1, move=1, attack=0, upkeep=1)
    game, (w, k) = _upkeep_position(1, [weak, unit("Knight", **KNIGHT)], [])
    assert _heuristic_upkeep(game) == [f"pay c{k}"]
    assert k in game.state.perms and w not in game.state.perms
