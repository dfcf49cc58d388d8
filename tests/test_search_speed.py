"""The search agent's shortcuts change its speed, never its decisions (issue 16 item 2): a
stage-2 rollout that reaches a position another candidate's rollout reached takes that one's
value only when the rest would be played identically; the reach and goal-distance answers kept
across states equal freshly computed ones; searching leaves the game untouched."""

from __future__ import annotations

import dataclasses
import random

import pytest

from engine.actions import Action
from engine.agents import search as search_module
from engine.agents.registry import make_agent
from engine.agents.search import SearchAgent, Transposition, fingerprint
from engine.agents.values import View
from engine.behaviours import destinations
from engine.cards import CardType
from engine.game import Game
from engine.play import derive_seed
from engine.state import GameConfig
from workbench.config import load_setup

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


class NoShortcut(SearchAgent):
    """The search without the stage-2 transposition shortcut."""

    def _rollout(
        self,
        game: Game,
        seat: int,
        first: Action,
        seed: int,
        horizon: int,
        eps: float,
        memo: list[Transposition] | None = None,
    ) -> float:
        return super()._rollout(game, seat, first, seed, horizon, eps)


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
def test_search_decides_the_same_with_and_without_the_transposition_shortcut(
    board: str, monkeypatch: pytest.MonkeyPatch
) -> None:
    """Whole games: the same actions, and the shortcut was taken (the test is not vacuous)."""
    hits = []
    value_for = Transposition.value_for

    def counted(self: Transposition, *args: int | tuple[object, ...]) -> float | None:
        v = value_for(self, *args)  # type: ignore[arg-type]
        hits.append(v is not None)
        return v

    monkeypatch.setattr(Transposition, "value_for", counted)
    cfg = short_config(board, 4)
    fast = play(cfg, 5, SearchAgent(budget=16))
    assert any(hits)
    assert play(cfg, 5, NoShortcut(budget=16)) == fast


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


def vars_of(obj: object) -> tuple[object, ...]:
    return tuple(getattr(obj, n) for n in type(obj).__slots__)  # type: ignore[attr-defined]


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


def test_transposition_reuses_only_what_would_be_played_the_same() -> None:
    """R21.18's game guard and the rollout's step cap (300) stop a rollout by its count of
    steps: a stored value serves another count only when neither would stop it earlier."""
    t = Transposition(
        key=("k",), steps=10, game_steps=1000, used=50, game_used=400, capped=False, value=0.25
    )
    assert t.value_for(("k",), 10, 1000, 300, 100_000) == 0.25
    assert t.value_for(("k",), 250, 1000, 300, 100_000) == 0.25  # 250 + 50 <= 300
    assert t.value_for(("k",), 251, 1000, 300, 100_000) is None  # the cap would stop it
    assert t.value_for(("x",), 10, 1000, 300, 100_000) is None
    assert t.value_for(("k",), 10, 99_700, 300, 100_000) is None  # the guard would stop it
    capped = t._replace(capped=True)
    assert capped.value_for(("k",), 10, 1000, 300, 100_000) == 0.25
    assert capped.value_for(("k",), 9, 1000, 300, 100_000) is None


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
    assert {"SearchAgent", "Transposition", "determinize", "fingerprint"} <= set(
        search_module.__all__
    )
