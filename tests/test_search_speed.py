"""The search agent's shortcuts change its speed, never its decisions: a
stage-2 rollout from a position an earlier rollout of the turn started from (re-dealt the
same, the same seed) takes that one's value, which is what a fresh rollout finds; the reach and
goal-distance answers kept across states equal freshly computed ones; searching leaves the game
untouched."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine import legal
from engine.actions import Action
from engine.agents import search as search_module
from engine.agents.heuristic import choose
from engine.agents.registry import make_agent
from engine.agents.search import Answers, SearchAgent, _clear, determinize, fingerprint
from engine.agents.values import View
from engine.behaviours import destinations
from engine.cards import CardType
from engine.copying import PLAYER_FIELDS
from engine.game import Game
from engine.play import derive_seed, play_game
from engine.state import GameConfig, Player
from workbench.content.setup import load_setup

SETS = ["iron-legion", "tide-callers"]


def short_config(board: str, rounds: int) -> GameConfig:
    cfg = load_setup(SETS, board).config
    b = dataclasses.replace(cfg.board, round_limit=rounds)
    return GameConfig(cfg.pool, cfg.catalog, b, players=cfg.players)


def midgame_states(board: str, seed: int, rounds: int = 6) -> list[Game]:
    """Clones of a heuristic game at its action-phase decisions from round 3 on."""
    game = Game(load_setup(SETS, board).config, seed)
    h = make_agent("heuristic")
    rng = random.Random(seed)
    out = []
    while not game.is_terminal() and game.state.round <= rounds:
        s = game.state
        if s.phase == "main" and s.round >= 3 and not (s.pending or s.priority):
            out.append(game.clone())
        game.apply(h.act(game, game.legal_actions(), rng))
    return out


class NoAnswers(SearchAgent):
    """The search without stage 2's kept values: every rollout played."""

    def _answer(
        self, end: Game, seat: int, seed: int, stop: int, eps: float, answers: Answers | None
    ) -> float:
        return super()._answer(end, seat, seed, stop, eps, None)


def play(config: GameConfig, seed: int, search: SearchAgent) -> list[str]:
    """A game of `search` against the heuristic (heuristic drafters); its action log."""
    game = Game(config, seed)
    h = make_agent("heuristic")
    agents = [search if s % 2 == 0 else h for s in range(config.players)]
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(config.players)]
    while not game.is_terminal():
        seat = game.current_player()
        who = h if game.state.phase == "draft" else agents[seat]
        game.apply(who.act(game, game.legal_actions(), rngs[seat]), check=False)
    return game.state.action_log


@pytest.mark.parametrize("board", ["zwei-burgen", "four-banners"])
def test_search_decides_the_same_with_and_without_kept_values(board: str) -> None:
    """Whole games: the same actions, in fewer rollouts (the kept values were used), and the
    same again when replayed (the search is deterministic per seed)."""
    cfg = short_config(board, 4)
    fast, slow = SearchAgent(budget=16), NoAnswers(budget=16)
    log = play(cfg, 5, fast)
    assert play(cfg, 5, slow) == log
    assert fast.rollouts < slow.rollouts
    assert play(cfg, 5, SearchAgent(budget=16)) == log


def test_search_rollouts_leave_the_game_untouched() -> None:
    """The rollouts play on clones: the searched game's state, records included, is as
    before."""
    agent = SearchAgent(budget=16)
    for game in midgame_states("kings-crossing", 7)[::6]:
        s = game.state
        before = (
            fingerprint(s),
            s.steps,
            len(s.events),
            list(s.action_log),
            s.snapshots.rows(),
            [vars_of(p) for p in s.players],
        )
        agent.act(game, game.legal_actions(), random.Random(1))
        assert (
            fingerprint(s),
            s.steps,
            len(s.events),
            list(s.action_log),
            s.snapshots.rows(),
            [vars_of(p) for p in s.players],
        ) == before


def vars_of(player: Player) -> tuple[object, ...]:
    return tuple(getattr(player, n) for n in PLAYER_FIELDS)


def test_fingerprint_sees_what_steers_play_and_not_the_records() -> None:
    game = midgame_states("gold-rush", 3)[0]
    s = game.state
    key = fingerprint(s)
    assert fingerprint(game.clone().state) == key
    # the records and the snapshot counters are not part of it, nor the game guard's count
    g = game.clone()
    g.state.steps += 5
    g.state.action_log.append("pass")
    g.state.players[0].spend_play += 3
    assert fingerprint(g.state) == key
    # what steers play is
    for change in (
        lambda t: t.players[1].discard.reverse(),
        lambda t: setattr(next(iter(t.perms.values())), "damage", 9),
        lambda t: t.rng.random(),
        lambda t: setattr(t.players[0], "resource", t.players[0].resource + 1),
        lambda t: t.perms.update({k: t.perms.pop(k) for k in list(t.perms)[:1]}),
    ):
        g = game.clone()
        change(g.state)
        assert fingerprint(g.state) != key
    assert len(s.players[1].discard) > 1 and len(s.perms) > 1  # the changes above are changes


def hidden_shuffled(game: Game, seat: int) -> Game:
    """A clone in which only the order of what `seat` cannot see differs: the other players'
    hands and decks, its own deck, the Tyrant's deck."""
    g = game.clone()
    s = g.state
    for x, p in enumerate(s.players):
        p.deck.reverse()
        if x != seat:
            p.hand.reverse()
    s.tyrant_deck.reverse()
    return g


def test_determinize_deals_by_what_is_hidden_not_its_order() -> None:
    """Two states that differ only in the order of hidden cards get the same deal from the
    same seed; another seed deals otherwise."""
    checked = 0
    for game in midgame_states("zwei-burgen", 4)[::5]:
        seat = game.current_player()
        twin = hidden_shuffled(game, seat)
        if fingerprint(twin.state) == fingerprint(game.state):
            continue  # nothing hidden to put in another order
        a = determinize(game, seat, random.Random(3)).state
        assert fingerprint(determinize(twin, seat, random.Random(3)).state) == fingerprint(a)
        assert fingerprint(determinize(game, seat, random.Random(4)).state) != fingerprint(a)
        checked += 1
    assert checked >= 2


def test_kept_answer_equals_a_fresh_rollout() -> None:
    """Stage 2 takes a kept value only for the same re-dealt position and seed: it is the value
    a fresh rollout finds; a public difference (one more resource) or another seed plays
    anew."""
    agent = SearchAgent(budget=16)
    checked = 0
    for game in midgame_states("kings-crossing", 7)[::8]:
        seat = game.current_player()
        end = agent._own_turn(game, seat, game.legal_actions()[0])
        stop = game.state.turn + 1 + agent.turns_ahead(game.state)
        answers: Answers = {}
        value = agent._answer(end, seat, 11, stop, 0.1, answers)
        played = agent.rollouts
        twin = hidden_shuffled(end, seat)
        assert agent._answer(twin, seat, 11, stop, 0.1, answers) == value
        assert agent.rollouts == played  # kept
        assert agent._answer(twin, seat, 11, stop, 0.1, None) == value  # fresh
        richer = end.clone()
        richer.state.players[seat].resource += 1
        agent._answer(richer, seat, 11, stop, 0.1, answers)
        agent._answer(end, seat, 12, stop, 0.1, answers)
        assert agent.rollouts == played + 3
        checked += 1
    assert checked >= 2


def test_candidates_keep_the_heuristics_choice() -> None:
    """At most 8 candidates at budget 16 (was 10), the heuristic's own choice always first."""
    agent = SearchAgent(budget=16)
    assert agent.width == 8 and SearchAgent(budget=4).width == 4
    for game in midgame_states("three-hills", 2)[::4]:
        legal = game.legal_actions()
        cands = agent.candidates(game.state, legal)
        assert len(cands) == min(8, len(legal))
        assert cands[0] == choose(game.state, legal, random.Random(0))


def test_two_seeds_settle_only_a_comparison_none_contradicts() -> None:
    """Stage 2 stops comparing two candidates when the paired differences so far have a
    non-zero total that none of them contradicts (ties allowed)."""
    assert _clear([0.06, 0.06]) and _clear([0.0, 0.036]) and _clear([-0.2, -0.01])
    assert not _clear([0.0, 0.0]) and not _clear([0.1, -0.05]) and not _clear([0.05, -0.05])


def test_searches_of_one_turn_share_their_random_numbers() -> None:
    """A seat's searches within one turn use the same world and seeds (drawn at the first),
    the next turn new ones."""
    game = midgame_states("gold-rush", 3)[0]
    agent = SearchAgent(budget=16)
    rng = random.Random(5)
    turn = agent._turn_of(game.state, rng)
    assert agent._turn_of(game.state, rng) is turn
    assert agent._turn_of(game.clone().state, rng) is not turn
    s = game.state
    s.turn += 1
    later = agent._turn_of(s, rng)
    assert later is not turn and later.seeds != turn.seeds and later.answers == {}


@pytest.mark.parametrize("board", ["kings-crossing", "drowned-sanctum", "four-banners"])
def test_kept_reach_and_goal_distances_equal_fresh_ones(board: str) -> None:
    """R10.3: the destinations kept across states are those a fresh search finds; the goal
    distances from the shared map are the distances to the nearest goal."""
    from engine.behaviours import _REACH

    checked = 0
    for game in midgame_states(board, 11):
        s = game.state
        for p in list(s.perms.values()):
            if s.cards[p.cid].type is not CardType.UNIT or p.field < 0:
                continue
            kept = destinations(s, p)
            _REACH.answers.clear()
            s.reach_cache = None
            assert destinations(s, p) == kept
            checked += 1
        v = View(s, s.active)
        goals = v.goals()
        for f in range(len(s.occ)):
            want = min((s.config.geometry.dist(f, g) for g in goals), default=0)
            assert v.goal_dist(f) == want
    assert checked > 20


def test_kept_answers_hold_one_board_at_a_time() -> None:
    """Answers kept across states are dropped when another board is asked about, or when the
    table is full: a long run over many boards (the fuzzer) keeps no old board alive."""
    from engine.behaviours import KeptAnswers

    kept = KeptAnswers(2)
    a, b = object(), object()
    kept.table(a)[(1,)] = "x"
    assert kept.table(a) == {(1,): "x"}
    assert kept.table(b) == {} and kept.board is b
    kept.table(b)[(1,)] = "y"
    kept.table(b)[(2,)] = "z"
    assert kept.table(b) == {}  # full: started afresh


def test_search_module_exports() -> None:
    assert {"SearchAgent", "determinize", "fingerprint"} <= set(search_module.__all__)


class FastChecked:
    """The explorer, checking at each of its decisions that the fast actions kept on the state
    are those listed afresh, and counting the decisions that found them kept."""

    def __init__(self) -> None:
        self.explorer = make_agent("explorer")
        self.kept = 0

    def act(self, game: Game, actions: list[Action], rng: random.Random) -> Action:
        state, seat = game.state, game.current_player()
        before = state.fast_cache
        out = legal.fast_actions(state, seat)
        self.kept += before is not None and before[1] is out
        assert out == legal._fast_actions(state, seat)
        return self.explorer.act(game, actions, rng)


@pytest.mark.parametrize("board", ["kings-crossing", "drowned-sanctum", "tyrants-throne"])
def test_kept_fast_actions_equal_fresh_ones(board: str) -> None:
    """R6.6, R6.7, R8.6, R16.1: the fast actions kept on the state across a unit's activation
    and tapping are those listed afresh, at every decision of whole games; and they are kept
    (a turn lists them before and after each activation)."""
    config = load_setup(SETS, board).config
    agent = FastChecked()
    for seed in range(3):
        play_game(config, seed, [agent] * config.players)
    assert agent.kept > 50
