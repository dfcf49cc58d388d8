"""Learning the valued agent's buy values from what wins: `workbench train-agent
--buying` (app/cmd_train_buying.py) writes them as `engine/agents/buy_values.py`.

A buy step (R7) offers the cards of the seat's store it can afford, one per name, and passing.
Where that choice is made at random, the seats that took a card and the seats that were offered
it and took something else (or passed) differ by the choice alone, so the difference of their
results (1 a win, 1/2 a draw, 0 a loss) is the card's effect on winning at that buy step: its
price, upkeep, what the resource would have bought instead and what the game made of it, all
counted by the outcome (a randomised design, not the agent's judgement: a strong card that
is always bought, or an expensive card bought only by the seat that is ahead, confounds a
comparison of buyers and non-buyers).

Rounds of the training:
1. the explorer's buying: every buy step at random (the heuristic's play otherwise, the
   `numbers` drafter for every seat);
2. then the valued agent with the values so far, a share `explore` of its buy steps at random,
   the estimate made again from those random steps: a value is what a card is worth when the
   rest of the game is played by the valued agent itself, so each round re-measures the values
   under the buying they produced, until they settle (the change between rounds is reported).
Each round plays `games` games on every board, the shipped sets rotating in pairs (every card
is offered in half the games); every seat drafts with the `numbers` drafter, so that every card
reaches stores whatever the buying thinks of it. With `start` (`--start`, the values of an
earlier training) every round is of the second kind, so a training can be carried on.

The estimate per board, stage of the game (`engine.agents.valued.STAGES`) and card name: the
mean result of the seats that took it less that of the seats that were offered it and did not,
shrunk toward the value pooled over every board with the weight of `prior` decisions (few
observations say little), the pooled value toward the previous round's (or 0 in the first);
the card's value is then its estimate less passing's at the same board and stage. Cards never
taken at a random step get no entry: the agent values them by the heuristic's value for money
mapped by the board's line, fitted (weighted least squares) over the cards it knows.
"""

from __future__ import annotations

import json
import random
import statistics
from collections.abc import Callable, Mapping, Sequence
from concurrent.futures import ProcessPoolExecutor
from dataclasses import dataclass, field
from datetime import date

from engine.actions import Action
from engine.agents.buy_policy import buy_value
from engine.agents.drafters import NumbersDrafter
from engine.agents.explorer import ExplorerAgent
from engine.agents.heuristic import HeuristicAgent
from engine.agents.valued import POOLED, SCALE, STAGES, Table, ValuedAgent, stage
from engine.board import VictoryKind
from engine.cards import Card
from engine.game import Game
from engine.play import Agent, derive_seed, play_game
from engine.vocab import ActionKind, Phase
from workbench.training.train_agent import BOARDS, _wrap, commit, setup_for

PASS = ""
"""Passing the buy step, as an option's name."""

Decision = tuple[int, tuple[str, ...], str]
"""A random buy step: (stage, the names offered with PASS, the name taken)."""

Observed = tuple[str, int, tuple[str, ...], str, float]
"""A random buy step with its board and the seat's result: (board name, stage, offered, taken,
result)."""


class RandomBuys:
    """An agent whose buy steps are random with probability `p` (recorded in `log`), every other
    decision its inner agent's."""

    def __init__(self, inner: Agent, p: float) -> None:
        self.inner = inner
        self.p = p
        self.log: list[Decision] = []

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action:
        s = game.state
        if (
            s.phase == Phase.BUY
            and not s.pending
            and not s.priority
            and len(legal) > 1
            and (self.p >= 1.0 or rng.random() < self.p)
        ):
            a = legal[rng.randrange(len(legal))]
            names = tuple(s.cards[b.card].name if b.kind is ActionKind.BUY else PASS for b in legal)
            self.log.append(
                (stage(s.round), names, s.cards[a.card].name if a.kind is ActionKind.BUY else PASS)
            )
            return a
        return self.inner.act(game, legal, rng)


_WORKER: dict[str, object] = {}


def _init(values: Mapping[str, Table] | None, fallback: Mapping[str, tuple[float, float]]) -> None:
    _WORKER["values"] = values
    _WORKER["fallback"] = fallback


def play_one(job: tuple[str, int, int, float]) -> list[Observed]:
    """One game of the round on `board`: every seat buys at random with probability `p`, the
    explorer (values None) or the valued agent otherwise; returns its random buy steps."""
    board, i, seed, p = job
    cfg = setup_for(board, i).config
    n = cfg.players
    values = _WORKER.get("values")
    seats: list[RandomBuys] = []
    for _ in range(n):
        inner: Agent = (
            ExplorerAgent(0.0) if values is None else ValuedAgent(values, _WORKER["fallback"])  # type: ignore[arg-type]
        )
        seats.append(RandomBuys(inner, p))
    drafters = [HeuristicAgent(name="numbers", drafter=NumbersDrafter()) for _ in range(n)]
    r = play_game(cfg, seed, seats, drafters)  # type: ignore[arg-type]
    won = set(r.winners)
    team_game = cfg.board.victory.kind is VictoryKind.TYRANT
    out: list[Observed] = []
    for seat, agent in enumerate(seats):
        if team_game:
            y = 1.0 if any(w >= 0 for w in won) else 0.5 if not won else 0.0
        else:
            y = 0.5 if not won else float(seat in won)
        out.extend((cfg.board.name, st, names, took, y) for st, names, took in agent.log)
    return out


@dataclass
class Tally:
    """Per option: how often taken and the results then; how often offered but not taken."""

    taken: int = 0
    taken_sum: float = 0.0
    left: int = 0
    left_sum: float = 0.0

    def add(self, took: bool, y: float) -> None:
        if took:
            self.taken += 1
            self.taken_sum += y
        else:
            self.left += 1
            self.left_sum += y

    def effect(self) -> float:
        """Mean result when taken less when offered and not taken (0 without both)."""
        if not self.taken or not self.left:
            return 0.0
        return self.taken_sum / self.taken - self.left_sum / self.left


@dataclass
class Estimate:
    """One round's values and what they rest on."""

    values: dict[str, dict[str, tuple[float, ...]]]
    taken: dict[str, dict[str, int]]
    """per board, card name: random steps that took it (over the stages)"""
    decisions: int
    games: int
    mean_result: dict[str, float] = field(default_factory=dict)


def estimate(
    observed: Sequence[Observed],
    prior: float,
    previous: Mapping[str, Table] | None = None,
) -> Estimate:
    """The values per board and stage (see the module docstring) from random buy steps."""
    tallies: dict[tuple[str, int, str], Tally] = {}
    for board, st, names, took, y in observed:
        for name in set(names):
            for key in ((board, st, name), (POOLED, st, name)):
                t = tallies.get(key)
                if t is None:
                    t = tallies[key] = Tally()
                t.add(name == took, y)
    stages = len(STAGES) + 1
    boards = sorted({b for b, *_ in observed})
    offered = sorted({n for _, _, ns, _, _ in observed for n in ns} - {PASS})

    def shrunk(board: str, st: int, name: str, toward: float) -> float:
        """The card's effect less passing's, shrunk toward `toward` by `prior` steps."""
        t = tallies.get((board, st, name))
        p = tallies.get((board, st, PASS))
        if t is None or p is None:
            return toward
        return (t.taken * (t.effect() - p.effect()) + prior * toward) / (t.taken + prior)

    values: dict[str, dict[str, tuple[float, ...]]] = {}
    taken: dict[str, dict[str, int]] = {}
    for board in [POOLED, *boards]:
        rows: dict[str, tuple[float, ...]] = {}
        counts: dict[str, int] = {}
        for name in offered:
            n = sum(tallies[k].taken for st in range(stages) if (k := (board, st, name)) in tallies)
            if n == 0:
                continue
            before = (previous or {}).get(POOLED, {}).get(name)
            per_stage = []
            for st in range(stages):
                pooled = shrunk(POOLED, st, name, before[st] if before else 0.0)
                per_stage.append(pooled if board == POOLED else shrunk(board, st, name, pooled))
            rows[name] = tuple(round(v, 4) for v in per_stage)
            counts[name] = n
        values[board] = rows
        taken[board] = counts
    for board, rows_before in (previous or {}).items():
        # a card this round did not offer keeps the value it had
        kept = values.setdefault(board, {})
        for name, v in rows_before.items():
            kept.setdefault(name, tuple(v))
            taken.setdefault(board, {}).setdefault(name, 0)
    mean_result = {b: statistics.fmean(y for bb, _, _, _, y in observed if bb == b) for b in boards}
    return Estimate(values, taken, len(observed), 0, mean_result)


def fallback_lines(
    values: Mapping[str, Table], taken: Mapping[str, Mapping[str, int]], cards: Mapping[str, Card]
) -> dict[str, tuple[float, float]]:
    """Per board, the line (slope, intercept) from the heuristic's value for money of a card on
    that board to its learned middle-stage value, weighted least squares by the random steps
    that took it, for the cards the data does not know."""
    lines: dict[str, tuple[float, float]] = {}
    kinds = {c.name: c for c in cards.values()}
    for board, rows in values.items():
        kind = _KINDS.get(board, VictoryKind.VIP)
        pts = [
            (buy_value(kinds[n], kind, 0, 2), v[1], float(taken[board][n]))
            for n, v in rows.items()
            if n in kinds
        ]
        sw = sum(w for *_, w in pts)
        if sw <= 0:
            lines[board] = (0.0, 0.0)
            continue
        mx = sum(x * w for x, _, w in pts) / sw
        my = sum(y * w for _, y, w in pts) / sw
        sxx = sum(w * (x - mx) ** 2 for x, _, w in pts)
        sxy = sum(w * (x - mx) * (y - my) for x, y, w in pts)
        slope = sxy / sxx if sxx > 0 else 0.0
        lines[board] = (round(slope, 5), round(my - slope * mx, 5))
    return lines


_KINDS: dict[str, VictoryKind] = {}
"""Board name -> victory kind of the boards played (filled by `train`)."""


@dataclass
class Trained:
    """The training's outcome: the last round's values, their fallback lines, and per round how
    far the values moved from the round before."""

    values: dict[str, dict[str, tuple[float, ...]]]
    taken: dict[str, dict[str, int]]
    fallback: dict[str, tuple[float, float]]
    commit: str
    rounds: list[str]


def train(
    rounds: int,
    games: int,
    explore: float,
    prior: float,
    seed: int,
    boards: Sequence[str] = BOARDS,
    workers: int = 1,
    progress: Callable[[str], None] = lambda line: None,
    done: Callable[[Trained], None] = lambda result: None,
    start: tuple[dict[str, dict[str, tuple[float, ...]]], dict[str, tuple[float, float]]]
    | None = None,
) -> Trained:
    """Play `rounds` rounds of `games` games a board (the first the explorer's, the later the
    valued agent's with `explore` of its buy steps random) and estimate the values after each
    (handed to `done`, so that a long training leaves each round's values behind). With
    `start` (values and fallback lines of an earlier training) every round is the valued
    agent's, from those values on."""
    started = commit()
    cards: dict[str, Card] = {}
    for b in boards:
        for i in range(6):
            cfg = setup_for(b, i).config
            _KINDS[cfg.board.name] = cfg.board.victory.kind
            for c in cfg.pool:
                cards[c.name] = c
    values, fallback = start if start is not None else (None, {})
    est: Estimate | None = None
    notes: list[str] = []
    for r in range(rounds):
        p = 1.0 if values is None else explore
        jobs = [
            (b, i, derive_seed(seed, "buying", r, b, i), p) for b in boards for i in range(games)
        ]
        with ProcessPoolExecutor(workers, initializer=_init, initargs=(values, fallback)) as pool:
            chunk = max(1, len(jobs) // (8 * workers))
            per_game = list(pool.map(play_one, jobs, chunksize=chunk))
        observed = [o for game in per_game for o in game]
        est = estimate(observed, prior, values)
        note = f"round {r + 1}: {len(observed):,} random buy steps in {len(jobs):,} games" + (
            f" (explore {p:g})" if p < 1.0 else " (the explorer's)"
        )
        if values is not None:
            note += f"; {_moved(values, est.values)}"
        note += f"; {split_halves(per_game, prior)}"
        notes.append(note)
        progress(note)
        values = est.values
        fallback = fallback_lines(values, est.taken, cards)
        done(Trained(values, est.taken, fallback, started, list(notes)))
    assert est is not None and values is not None
    return Trained(values, est.taken, fallback, started, notes)


def split_halves(per_game: Sequence[Sequence[Observed]], prior: float) -> str:
    """The round's own noise: the correlation of the values estimated from its odd and its even
    games alone (no earlier round to shrink toward, which both halves would share), and by
    Spearman-Brown the correlation two whole rounds would reach if the values did not move at
    all (their reliability). A change between rounds at that correlation is the estimate's
    noise, not the values moving: more games a round, not more rounds, then settle them."""
    halves = [[o for g in per_game[k::2] for o in g] for k in (0, 1)]
    a, b = (estimate(h, prior).values for h in halves)
    r = _correlation(a, b)
    if r is None:
        return "halves: too few values to compare"
    whole = 2 * r / (1 + r) if r > -1 else float("nan")
    return f"split halves agree at {r:.2f}, so two rounds at {whole:.2f} if nothing moved"


def _pairs(before: Mapping[str, Table], after: Mapping[str, Table]) -> tuple[list[float], ...]:
    """The values both tables hold (every board but the pooled one, every stage), paired."""
    xs: list[float] = []
    ys: list[float] = []
    for board, rows in after.items():
        if board == POOLED:
            continue
        for name, v in rows.items():
            old = before.get(board, {}).get(name)
            if old:
                xs.extend(old)
                ys.extend(v)
    return xs, ys


def _correlation(before: Mapping[str, Table], after: Mapping[str, Table]) -> float | None:
    xs, ys = _pairs(before, after)
    if len(xs) < 3 or len(set(xs)) < 2 or len(set(ys)) < 2:
        return None
    return statistics.correlation(xs, ys)


def _moved(before: Mapping[str, Table], after: Mapping[str, Table]) -> str:
    """How far the values moved: mean absolute change and the correlation over the cards both
    rounds value, per board pooled."""
    xs, ys = _pairs(before, after)
    rho = _correlation(before, after)
    if rho is None:
        return "too few values to compare"
    mad = statistics.fmean(abs(a - b) for a, b in zip(xs, ys, strict=True))
    return f"values moved by {mad:.3f} on average, correlation {rho:.2f} with the round before"


def _quoted(text: str) -> str:
    """A string literal in double quotes, as the formatter writes it (JSON's escapes are
    Python's for the names and packed values written here)."""
    return json.dumps(text, ensure_ascii=False)


def module_text(result: Trained, command: str) -> str:
    """The Python module holding the values and how they were produced."""
    lines = [
        '"""The valued agent\'s buy values (the agent `valued`, engine/agents/valued.py), written',
        "by `workbench train-agent --buying`: do not edit by hand, train again.",
        "",
        f"Command: {command}",
        f"Commit: {result.commit}, {date.today().isoformat()}",
        *result.rounds,
        "",
        "VALUES: per board name (and `*` pooled over the boards), its cards packed as",
        "`name=taken:early,middle,late|...` (engine.agents.valued.unpack): the random buy steps",
        "that took the card, and the win share buying it adds over passing at rounds 1-4, 5-9 and",
        "10 on, in ten-thousandths. FALLBACK: per board the line (slope, intercept) from the",
        "heuristic's value for money to the learned value, for cards not in VALUES.",
        '"""',
        "",
        "VALUES: dict[str, tuple[str, ...]] = {",
    ]
    for board, rows in sorted(result.values.items()):
        lines.append(f"    {_quoted(board)}: (")
        cur = ""
        for n, v in sorted(rows.items()):
            per = ",".join(str(round(x * SCALE)) for x in v)
            item = f"{n}={result.taken[board].get(n, 0)}:{per}"
            if cur and len(cur) + 1 + len(item) > 88:
                lines.append(f"        {_quoted(cur)},")
                cur = ""
            cur = f"{cur}|{item}" if cur else item
        if cur:
            lines.append(f"        {_quoted(cur)},")
        lines.append("    ),")
    lines += ["}", "", "FALLBACK: dict[str, tuple[float, float]] = {"]
    lines += [f"    {_quoted(b)}: {v!r}," for b, v in sorted(result.fallback.items())]
    lines += ["}", ""]
    return "\n".join(_wrap(line) for line in lines)
