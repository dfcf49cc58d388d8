"""Distilling the search agent into the fast `learned` agent.

Three steps, each a function here, run together by `workbench train-agent --learned`:
1. `record_game`: a teacher (by default search:budget=16) plays an opponent (the heuristic) on
   a shipped board, seats swapped by game index, the four sets rotating in pairs
   (`workbench.training.train_agent.setup_for`); the game is kept as its seed and action texts,
   with the steps at which the teacher chose in its action phase (R6.8: a main decision with
   more than one legal action, the decisions the search agent searches).
2. `decisions`: every such game is replayed from its seed and actions (no search again), and
   at each recorded step the candidates the learned agent would weigh
   (`engine.agents.learned.candidates`) get their feature vectors
   (`engine.agents.learned.features`), with which candidate the teacher took.
3. `fit`: a conditional logit (a softmax over each decision's candidates, linear in the
   features, L2-penalised; fitted with scipy's L-BFGS) that makes the teacher's choice likely.
   Its coefficients are written as data (`module_text`) into `engine/agents/learned_model.py`.
Games are split by index into training and held-out games (every `holdout`-th game), and the
agreement with the teacher is measured on the held-out ones, beside the heuristic's own
agreement (its best-scored action).
"""

from __future__ import annotations

import contextlib
import json
import math
from collections.abc import Callable, Iterable, Iterator, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path
from typing import Any

import numpy as np

from engine.actions import Action, parse_action
from engine.agents.learned import FEATURES, candidates, features
from engine.game import Game
from engine.play import Agent, derive_seed, play_game
from workbench.play.agents import make_agent
from workbench.training.train_agent import BOARDS, _wrap, setup_for

Job = tuple[str, str, str, int, int]
"""(teacher spec, opponent spec, board, game index, run seed)"""


def is_search_decision(game: Game, legal: list[Action]) -> bool:
    """A decision the search agent searches: its own action phase, more than one choice."""
    s = game.state
    return len(legal) > 1 and s.phase == "main" and not s.pending and not s.priority


class _Recorder:
    """Wraps the teacher and notes the step of each of its searched decisions."""

    def __init__(self, agent: Agent, steps: list[int]) -> None:
        self.agent = agent
        self.name = agent.name
        self.steps = steps

    def act(self, game: Game, legal: list[Action], rng: Any) -> Action:
        if is_search_decision(game, legal):
            self.steps.append(len(game.state.action_log))
        return self.agent.act(game, legal, rng)


def record_game(job: Job) -> dict[str, Any]:
    """One game of the teacher against the opponent, as data (see the module docstring). The
    teacher takes the even seats in even games and the odd seats in odd games (on the Tyrant
    board, where the players are one team, that mixes the table)."""
    teacher, opponent, board, i, run_seed = job
    cfg = setup_for(board, i).config
    n = cfg.players
    seed = derive_seed(run_seed, "distill", board, i)
    steps: list[int] = []
    t, o = _Recorder(make_agent(teacher), steps), make_agent(opponent)
    mine = [s for s in range(n) if (s + i) % 2 == 0]
    r = play_game(cfg, seed, [t if s in mine else o for s in range(n)])
    return {
        "board": board,
        "i": i,
        "seed": seed,
        "teacher": teacher,
        "opponent": opponent,
        "teacher_seats": mine,
        "winners": list(r.winners),
        "actions": list(r.actions),
        "steps": steps,
    }


@dataclass(frozen=True)
class Decision:
    """One recorded decision: its candidates' features (rows in `FEATURES` order), the index of
    the teacher's choice among them (-1: the teacher chose an action outside them), and the
    game it came from."""

    x: np.ndarray
    chosen: int
    board: str
    game: int


def decisions(game: dict[str, Any]) -> Iterator[Decision]:
    """The recorded game replayed from its seed and actions; at each recorded step the
    candidates' features and the teacher's choice."""
    cfg = setup_for(game["board"], game["i"]).config
    g = Game(cfg, game["seed"])
    wanted = set(game["steps"])
    for step, text in enumerate(game["actions"]):
        action = parse_action(text, cfg.board.width)
        if step in wanted:
            legal = g.legal_actions()
            cands = candidates(g.state, legal)
            rows = features(g.state, cands)
            chosen = next((k for k, (_, a) in enumerate(cands) if a == action), -1)
            yield Decision(np.array(rows, dtype=float), chosen, game["board"], game["i"])
        g.apply(action, check=False)


def load_games(path: Path) -> list[dict[str, Any]]:
    """The recorded games of a JSON-lines file."""
    with path.open(encoding="utf-8") as f:
        return [json.loads(line) for line in f if line.strip()]


def gather(
    teacher: str,
    opponent: str,
    boards: Sequence[str],
    games: int,
    seed: int,
    workers: int = 1,
    data: Path | None = None,
    progress: Callable[[str], None] = lambda line: None,
) -> list[dict[str, Any]]:
    """The recorded games of `games` a board: those already in `data` (a JSON-lines file of
    `record_game` results, kept across runs: a search game takes seconds) with the same
    teacher, opponent and seeds, and the missing ones played and appended to it."""
    for b in boards:
        setup_for(b, 0)  # an unknown board fails here, before any game or file
    have: dict[tuple[str, int], dict[str, Any]] = {}
    if data is not None and data.is_file():
        for g in load_games(data):
            if (g["teacher"], g["opponent"]) == (teacher, opponent) and g["seed"] == derive_seed(
                seed, "distill", g["board"], g["i"]
            ):
                have[(g["board"], g["i"])] = g
    jobs: list[Job] = [
        (teacher, opponent, b, i, seed) for i in range(games) for b in boards if (b, i) not in have
    ]
    with contextlib.ExitStack() as stack:
        out = stack.enter_context(data.open("a", encoding="utf-8")) if data else None
        played: Iterable[dict[str, Any]] = map(record_game, jobs)
        if workers > 1 and len(jobs) > 1:
            played = stack.enter_context(ProcessPoolExecutor(workers)).map(record_game, jobs)
        for n, g in enumerate(played):
            have[(g["board"], g["i"])] = g
            if out is not None:
                out.write(json.dumps(g) + "\n")
                out.flush()
            progress(
                f"game {n + 1}/{len(jobs)}: {g['board']} {g['i']}, {len(g['steps'])} decisions"
            )
    return [have[(b, i)] for i in range(games) for b in boards]


# --- the model ----------------------------------------------------------------------------------


@dataclass(frozen=True)
class Model:
    """A fitted conditional logit: the features' scaling (mean, scale) and coefficients on the
    scaled features; a candidate's score is `coef @ ((x - mean) / scale)`."""

    mean: tuple[float, ...]
    scale: tuple[float, ...]
    coef: tuple[float, ...]

    def raw(self) -> tuple[tuple[float, ...], float]:
        """Coefficients on the unscaled features (and the constant, equal for every candidate
        and so without effect on the choice)."""
        w = tuple(c / s for c, s in zip(self.coef, self.scale, strict=True))
        return w, -sum(wi * m for wi, m in zip(w, self.mean, strict=True))


def fit(train: Sequence[Decision], l2: float = 1.0) -> Model:
    """The conditional logit over the decisions whose choice is among the candidates."""
    from scipy.optimize import minimize

    used = [d for d in train if d.chosen >= 0 and len(d.x) > 1]
    if not used:
        raise ValueError("no decisions to learn from")
    allx = np.vstack([d.x for d in used])
    mean = allx.mean(axis=0)
    scale = allx.std(axis=0)
    scale[scale < 1e-9] = 1.0
    xs = (allx - mean) / scale
    sizes = np.array([len(d.x) for d in used])
    starts = np.concatenate([[0], np.cumsum(sizes)[:-1]])
    picked = starts + np.array([d.chosen for d in used])
    group = np.repeat(np.arange(len(used)), sizes)

    def loss(w: np.ndarray) -> tuple[float, np.ndarray]:
        z = xs @ w
        zmax = np.maximum.reduceat(z, starts)
        e = np.exp(z - zmax[group])
        tot = np.add.reduceat(e, starts)
        p = e / tot[group]
        nll = float(np.sum(np.log(tot) + zmax - z[picked]))
        grad = xs.T @ p - xs[picked].sum(axis=0)
        return (
            nll / len(used) + 0.5 * l2 * float(w @ w) / len(used),
            grad / len(used) + l2 * w / len(used),
        )

    res = minimize(
        loss, np.zeros(xs.shape[1]), jac=True, method="L-BFGS-B", options={"maxiter": 2000}
    )
    return Model(tuple(map(float, mean)), tuple(map(float, scale)), tuple(map(float, res.x)))


def agreement(ds: Iterable[Decision], score: Callable[[np.ndarray], np.ndarray]) -> float:
    """The share of decisions where the best-scored candidate is the teacher's choice (ties
    keep the first, as the agent does; a choice outside the candidates counts as missed)."""
    hit = n = 0
    for d in ds:
        n += 1
        hit += d.chosen >= 0 and int(np.argmax(score(d.x))) == d.chosen
    return hit / max(1, n)


def heuristic_agreement(ds: Sequence[Decision]) -> float:
    """The heuristic's own agreement: its best-scored candidate (the candidates come in its
    order, best first)."""
    return sum(d.chosen == 0 for d in ds) / max(1, len(ds))


def model_scores(model: Model) -> Callable[[np.ndarray], np.ndarray]:
    w = np.array(model.coef)
    mean, scale = np.array(model.mean), np.array(model.scale)
    return lambda x: ((x - mean) / scale) @ w


@dataclass(frozen=True)
class Distilled:
    """The training's outcome: the model and its agreement with the teacher on the training
    and the held-out games, beside the heuristic's on the same decisions."""

    model: Model
    train_decisions: int
    test_decisions: int
    train_agreement: float
    test_agreement: float
    heuristic_test_agreement: float
    outside: float
    """the share of held-out decisions whose teacher choice was not among the candidates"""


def distill(games: Sequence[dict[str, Any]], holdout: int = 5, l2: float = 1.0) -> Distilled:
    """Fit on the games whose index is not a multiple-of-`holdout` remainder `holdout - 1`,
    measure on the others."""
    train: list[Decision] = []
    test: list[Decision] = []
    for game in games:
        (test if holdout > 1 and game["i"] % holdout == holdout - 1 else train).extend(
            decisions(game)
        )
    model = fit(train, l2)
    score = model_scores(model)
    return Distilled(
        model,
        len(train),
        len(test),
        agreement(train, score),
        agreement(test, score),
        heuristic_agreement(test),
        sum(d.chosen < 0 for d in test) / max(1, len(test)),
    )


def module_text(
    result: Distilled, command: str, commit: str, games: int, boards: Sequence[str]
) -> str:
    """The Python module holding the learned coefficients and how they were produced."""
    w, _ = result.model.raw()
    pct = (
        f"{result.test_agreement:.1%} of {result.test_decisions} held-out decisions "
        f"(training {result.train_agreement:.1%} of {result.train_decisions}); the "
        f"heuristic's best action {result.heuristic_test_agreement:.1%}; the teacher's choice "
        f"outside the candidates {result.outside:.1%}"
    )
    lines = [
        '"""The learned agent\'s model (the agent `learned`), written by `workbench train-agent',
        "--learned`: do not edit by hand, train again.",
        "",
        f"Command: {command}",
        f"Commit: {commit}, {date.today().isoformat()}",
        f"Data: {games} recorded games on {', '.join(boards)}.",
        f"Agreement with the teacher: {pct}.",
        "",
        "COEF: a conditional logit's coefficient for each feature of",
        "`engine.agents.learned.FEATURES` (unscaled: a candidate's score is the sum of",
        "coefficient times feature).",
        '"""',
        "",
        "COEF: dict[str, float] = {",
    ]
    lines += [f"    {name!r}: {_num(c)}," for name, c in zip(FEATURES, w, strict=True)]
    lines += ["}", ""]
    return "\n".join(_wrap(line) for line in lines)


def _num(x: float) -> str:
    return repr(float(f"{x:.6g}")) if math.isfinite(x) else "0.0"


__all__ = [
    "BOARDS",
    "Decision",
    "Distilled",
    "Model",
    "agreement",
    "decisions",
    "distill",
    "fit",
    "gather",
    "heuristic_agreement",
    "load_games",
    "module_text",
    "record_game",
]
