"""Training the fast agent: optuna searches the heuristic agent's weights
(`engine.agents.weights.SPACE`) for the set that scores best against an opponent over every
shipped board, and the result is written as data the `tuned` agent loads (`engine.agents.tuned`).

A trial plays `games` matches a board: the candidate in half the seats and the opponent in the
other half, seats swapped every other game, each side drafting with its own drafter; the four
shipped sets rotate in pairs by game index. On the Tyrant board, where the players are one team
against the game, one seed is played by a table of candidates and a table of opponents and the
better table scores (a win beats the round limit, which beats a loss; the sooner win is the
better). A game scores 1 for a win, 1/2 for a draw, 0 for a loss; a trial's value is the mean
over boards of the boards' mean scores, so every board counts the same. Every trial plays the
same seeds (common random numbers: trials differ by their weights, not their luck).

The best trials are then played again on seeds no trial saw (`confirm` games a board, the hand-
set weights among them as a yardstick) and the best of those is written: the winner's curse of
picking the luckiest of many noisy trials falls on the confirmation, not on the result.
"""

from __future__ import annotations

import itertools
import os
import statistics
import subprocess
from collections.abc import Callable, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass
from datetime import date
from pathlib import Path

from engine.agents.heuristic import HeuristicAgent
from engine.agents.weights import DEFAULT, SPACE, Weights
from engine.board import VictoryKind
from engine.play import Agent, derive_seed, play_game
from engine.record import GameRecord
from workbench.analysis.stats import proportion_ci
from workbench.content.setup import Setup, load_setup
from workbench.play.agents import make_agent

BOARDS = (
    "kings-crossing",
    "gold-rush",
    "three-hills",
    "four-banners",
    "zwei-burgen",
    "drowned-sanctum",
    "tyrants-throne",
)
SETS = ("iron-legion", "tide-callers", "pestgericht", "sky-wardens")
SET_PAIRS = tuple(itertools.combinations(SETS, 2))

Job = tuple[tuple[tuple[str, float], ...], str, str, int, int]
"""(weights as pairs, opponent spec, board, game index, seed)"""

_SETUPS: dict[tuple[str, tuple[str, ...]], Setup] = {}


def setup_for(board: str, i: int) -> Setup:
    """The setup of game i on a board: the set pairs rotate by game index (cached per process)."""
    sets = SET_PAIRS[i % len(SET_PAIRS)]
    key = (board, sets)
    if key not in _SETUPS:
        _SETUPS[key] = load_setup(list(sets), board)
    return _SETUPS[key]


def table_rank(r: GameRecord) -> tuple[int, int]:
    """How well a Tyrant table did, for breaking ties between two tables on one seed: a win
    beats no winner (the round limit), which beats a loss; among wins the sooner is better.
    Losses are not ordered: holding out longer is no sign of better play (a table that never
    goes near the Tyrant loses late)."""
    if any(w >= 0 for w in r.winners):
        return (2, -r.rounds)
    return (1, 0) if not r.winners else (0, 0)


def play_one(job: Job) -> float:
    """The candidate's score in one game (1 win, 0.5 draw, 0 loss); see the module docstring."""
    pairs, opponent, board, i, seed = job
    setup = setup_for(board, i)
    cfg = setup.config
    n = cfg.players
    cand: Agent = HeuristicAgent(weights=Weights.from_dict(dict(pairs)), name="candidate")
    opp = make_agent(opponent)
    if cfg.board.victory.kind is VictoryKind.TYRANT:
        ra = table_rank(play_game(cfg, seed, [cand] * n))
        rb = table_rank(play_game(cfg, seed, [opp] * n))
        return 0.5 if ra == rb else float(ra > rb)
    mine = {s for s in range(n) if (s + i) % 2 == 0}
    r = play_game(cfg, seed, [cand if s in mine else opp for s in range(n)])
    won = set(r.winners)
    return 0.5 if not won else float(bool(won & mine))


@dataclass(frozen=True)
class Score:
    """A weight set's result: (wins, draws, losses) per board."""

    counts: dict[str, tuple[int, int, int]]

    @property
    def per_board(self) -> dict[str, float]:
        """The mean score per board (draws count half)."""
        return {b: (w + d / 2) / max(1, w + d + lo) for b, (w, d, lo) in self.counts.items()}

    @property
    def value(self) -> float:
        """The mean over boards of the boards' mean scores: every board counts the same."""
        return statistics.fmean(self.per_board.values())

    @property
    def games(self) -> int:
        return sum(map(sum, self.counts.values()))


class Arena:
    """Plays weight sets against the opponent on a pool of worker processes kept for the whole
    training (no start-up per trial)."""

    def __init__(self, opponent: str, boards: Sequence[str], workers: int) -> None:
        make_agent(opponent)  # a bad spec fails here, before any game
        for b in boards:
            setup_for(b, 0)  # a bad board name fails here
        self.opponent = opponent
        self.boards = tuple(boards)
        self.workers = workers
        self.pool = ProcessPoolExecutor(workers) if workers > 1 else None

    def score(self, w: Weights, games: int, seed: int | str) -> Score:
        pairs = tuple(sorted(w.to_dict().items()))
        jobs: list[Job] = [
            (pairs, self.opponent, b, i, derive_seed(seed, b, i))
            for b in self.boards
            for i in range(games)
        ]
        chunk = max(1, len(jobs) // (4 * self.workers))
        results = (
            list(self.pool.map(play_one, jobs, chunksize=chunk))
            if self.pool
            else [play_one(j) for j in jobs]
        )
        counts = {}
        for k, b in enumerate(self.boards):
            mine = results[k * games : (k + 1) * games]
            counts[b] = (mine.count(1.0), mine.count(0.5), mine.count(0.0))
        return Score(counts)

    def close(self) -> None:
        if self.pool is not None:
            self.pool.shutdown(cancel_futures=True)


@dataclass(frozen=True)
class Trained:
    """The training's outcome: the chosen weights, their confirmation score and the yardstick's
    (the hand-set weights) on the same seeds, and every trial's value."""

    weights: Weights
    commit: str
    """the code's commit when the training began (the games' rules and agents)"""
    confirmed: Score
    default: Score
    trials: tuple[float, ...]


def train(
    opponent: str,
    trials: int,
    games: int,
    confirm: int,
    top: int,
    seed: int,
    boards: Sequence[str] = BOARDS,
    workers: int = 1,
    names: Sequence[str] = tuple(SPACE),
    progress: Callable[[str], None] = lambda line: None,
) -> Trained:
    """Search the weights `names` (the others keep their hand-set values) with optuna's TPE
    sampler (seeded), then confirm the `top` best trials and the hand-set weights on fresh
    seeds and keep the best."""
    unknown = sorted(set(names) - set(SPACE))
    if unknown:
        raise ValueError(f"unknown weights: {', '.join(unknown)}; known: {', '.join(SPACE)}")
    import optuna

    optuna.logging.set_verbosity(optuna.logging.WARNING)
    started = commit()
    arena = Arena(opponent, boards, workers)
    try:
        sampler = optuna.samplers.TPESampler(seed=seed, multivariate=True)
        study = optuna.create_study(direction="maximize", sampler=sampler)
        study.enqueue_trial({k: getattr(DEFAULT, k) for k in names})  # hand-set: trial 0
        found: dict[int, Weights] = {}
        for n in range(trials):
            trial = study.ask()
            w = Weights(
                **{**DEFAULT.to_dict(), **{k: trial.suggest_float(k, *SPACE[k]) for k in names}}
            )
            sc = arena.score(w, games, f"{seed}:train")
            study.tell(trial, sc.value)
            found[trial.number] = w
            progress(f"trial {n + 1}/{trials}: {sc.value:.3f} (best {study.best_value:.3f})")
        done = [t for t in study.trials if t.value is not None]
        best = sorted(done, key=lambda t: -float(t.value or 0.0))[:top]
        default = arena.score(DEFAULT, confirm, f"{seed}:confirm")
        chosen, chosen_score = DEFAULT, default
        for t in best:
            if found[t.number] == DEFAULT:
                continue
            sc = arena.score(found[t.number], confirm, f"{seed}:confirm")
            progress(f"confirm trial {t.number}: {sc.value:.3f} (hand-set {default.value:.3f})")
            if sc.value > chosen_score.value:
                chosen, chosen_score = found[t.number], sc
        return Trained(
            chosen, started, chosen_score, default, tuple(float(t.value or 0.0) for t in done)
        )
    finally:
        arena.close()


def commit() -> str:
    """The repository's commit (with `+` when the tree has changes), or `unknown`."""
    root = Path(__file__).resolve().parents[2]
    try:
        head = subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=root,
            text=True,
            capture_output=True,
            check=True,
        ).stdout.strip()
        dirty = subprocess.run(
            ["git", "status", "--porcelain", "--untracked-files=no"],
            cwd=root,
            text=True,
            capture_output=True,
            check=True,
        ).stdout
    except (OSError, subprocess.CalledProcessError):
        return "unknown"
    return head + ("+" if dirty.strip() else "")


def module_text(
    result: Trained,
    command: str,
    opponent: str,
    trials: int,
    games: int,
    confirm: int,
    seed: int,
    boards: Sequence[str],
    names: Sequence[str] = tuple(SPACE),
) -> str:
    """The Python module holding the tuned weights and how they were produced."""
    per_game = result.confirmed.games // max(1, len(result.confirmed.counts))
    lines = [
        '"""The tuned heuristic agent\'s weights (the agent `tuned`), written by `workbench',
        "train-agent`: do not edit by hand, train again.",
        "",
        f"Command: {command}",
        f"Commit: {result.commit}, {date.today().isoformat()}",
        (
            f"Search: {trials} optuna TPE trials (seed {seed}), {games} games a board each, "
            f"against {opponent} on {', '.join(boards)}, over "
            f"{'every weight' if set(names) == set(SPACE) else ', '.join(names)}."
        ),
        (
            f"Confirmation on unseen seeds ({per_game} games a board): mean score "
            f"{result.confirmed.value:.3f}; the hand-set weights scored {result.default.value:.3f}"
            " on the same seeds."
        ),
        (
            "Wins-draws-losses and the share of decided games won (95% Wilson interval) per board: "
            + "; ".join(f"{b} {decided(c)}" for b, c in result.confirmed.counts.items())
            + "."
        ),
        '"""',
        "",
        "WEIGHTS: dict[str, float] = {",
    ]
    lines += [f"    {k!r}: {v!r}," for k, v in result.weights.to_dict().items()]
    lines += ["}", ""]
    return "\n".join(_wrap(line) for line in lines)


def decided(c: tuple[int, int, int]) -> str:
    """`w-d-l, 62% (0.51-0.72)`: the share of decided games won with its Wilson interval."""
    w, d, lo = c
    if w + lo == 0:
        return f"{w}-{d}-{lo}"
    a, b = proportion_ci(w, w + lo)
    return f"{w}-{d}-{lo}, {w / (w + lo):.0%} ({a:.2f}-{b:.2f})"


def _wrap(line: str, width: int = 99) -> str:
    """Docstring lines of the generated module stay within the project's line length."""
    if len(line) <= width or line.startswith("    '"):
        return line
    words, out, cur = line.split(" "), [], ""
    for word in words:
        if cur and len(cur) + 1 + len(word) > width:
            out.append(cur)
            cur = word
        else:
            cur = f"{cur} {word}" if cur else word
    return "\n".join([*out, cur])


def write_module(path: Path, text: str) -> None:
    """Write the module whole or not at all (a temporary file renamed into place)."""
    tmp = path.with_name(path.name + ".tmp")
    tmp.write_text(text, encoding="utf-8")
    os.replace(tmp, path)


__all__ = ["BOARDS", "Arena", "Score", "Trained", "decided", "module_text", "train", "write_module"]
