"""Agents and drafters by name, with parameters: `random`, `heuristic`, `search:budget=200`.

An agent is anything with `act(game, legal, rng) -> Action`; a drafter is an agent asked only
for draft picks. New kinds register a factory in `FACTORIES` and their parameters in `PARAMS`:
a spec is checked against them before the agent is built, so a typo (`search:budgt=4`) or a
value out of range (`heuristic:eps=2`) is refused before any game is played instead of being
silently ignored or clamped.
"""

from __future__ import annotations

import difflib
import math
from collections.abc import Callable
from dataclasses import dataclass
from typing import TYPE_CHECKING

from engine.agents.drafters import Picker
from engine.agents.explorer import ExplorerAgent
from engine.agents.factorial import FactorialAgent
from engine.agents.random_agent import RandomAgent
from engine.play import Agent

if TYPE_CHECKING:
    from engine.agents.valued import ValuedAgent

Factory = Callable[[dict[str, str]], Agent]


def _heuristic(params: dict[str, str]) -> Agent:
    from engine.agents.heuristic import HeuristicAgent

    return HeuristicAgent(eps=float(params.get("eps", 0.0)))


def _tuned(params: dict[str, str]) -> Agent:
    from engine.agents.heuristic import HeuristicAgent
    from engine.agents.tuned import WEIGHTS
    from engine.agents.weights import Weights

    return HeuristicAgent(
        eps=float(params.get("eps", 0.0)), weights=Weights.from_dict(WEIGHTS), name="tuned"
    )


def _learned(params: dict[str, str]) -> Agent:
    from engine.agents.learned import WIDTH, LearnedAgent
    from engine.agents.learned_model import COEF

    return LearnedAgent(COEF, width=int(params.get("width", WIDTH)))


def _valued(params: dict[str, str]) -> ValuedAgent:
    from engine.agents.buy_values import FALLBACK, VALUES
    from engine.agents.valued import ValuedAgent, taken_counts, unpack

    cap = params.get("cap")
    return ValuedAgent(
        unpack(VALUES),
        FALLBACK,
        cap=None if cap is None else float(cap),
        taken=taken_counts(VALUES),
        sample=float(params.get("sample", 0.0)),
    )


def _lookahead(params: dict[str, str]) -> Agent:
    from engine.agents.lookahead import LookaheadAgent

    return LookaheadAgent.from_params(params)


def _search(params: dict[str, str]) -> Agent:
    from engine.agents.search import SearchAgent

    policy = _valued({}) if params.get("policy") == "valued" else None
    return SearchAgent.from_params(params, policy)


def _numbers(params: dict[str, str]) -> Agent:
    from engine.agents.drafters import NumbersDrafter
    from engine.agents.heuristic import HeuristicAgent

    return HeuristicAgent(name="numbers", drafter=NumbersDrafter())


def _ratings(params: dict[str, str]) -> Agent:
    from engine.agents.drafters import make_ratings_drafter

    return with_drafter(make_ratings_drafter(params))


def with_drafter(drafter: Picker) -> Agent:
    """A drafter as a whole agent: it drafts, and plays the match as the heuristic agent."""
    from engine.agents.heuristic import HeuristicAgent

    return HeuristicAgent(name=getattr(drafter, "name", "heuristic"), drafter=drafter)


FACTORIES: dict[str, Factory] = {
    "random": lambda params: RandomAgent(),
    # agents (they draft with the heuristic drafter when used as drafters)
    "heuristic": _heuristic,
    "tuned": _tuned,  # the heuristic with the weights `workbench train-agent` found
    "learned": _learned,  # the heuristic re-ranked by a model of search's choices
    "valued": _valued,  # the heuristic buying by values learned from what wins
    "lookahead": _lookahead,  # the heuristic with a look-ahead on its close calls
    "search": _search,
    "explorer": ExplorerAgent.from_params,  # the heuristic agent with random buys
    "factorial": FactorialAgent.from_params,  # the heuristic buying by a randomised design
    # drafters (they play the match as the heuristic agent when used as agents)
    "ratings": _ratings,
    "numbers": _numbers,  # the older heuristic drafter (card numbers alone)
}


@dataclass(frozen=True)
class Param:
    """One parameter of a spec: a whole number, a number or a text; the allowed range
    (inclusive); `file`: the text names a file (whose existence the workbench checks, since the
    engine touches no files: workbench.play.agents); `choices`: the texts allowed, if only
    some are."""

    kind: type[int | float | str]
    low: float | None = None
    high: float | None = None
    file: bool = False
    choices: tuple[str, ...] = ()

    def problem(self, text: str) -> str | None:
        """Why `text` is not an allowed value, or None."""
        if self.kind is str:
            if self.choices and text not in self.choices:
                return f"must be one of {', '.join(self.choices)}, not {text!r}"
            return None
        try:
            value = float(int(text)) if self.kind is int else float(text)
        except ValueError:
            return f"must be {'a whole number' if self.kind is int else 'a number'}, not {text!r}"
        if not math.isfinite(value):
            return f"must be a finite number, not {text!r}"
        if self.low is not None and self.high is not None and not self.low <= value <= self.high:
            return f"must lie in [{self.low:g}, {self.high:g}], not {text}"
        if self.low is not None and value < self.low:
            return f"must be at least {self.low:g}, not {text}"
        return None


_SHARE = Param(float, 0.0, 1.0)
PARAMS: dict[str, dict[str, Param]] = {
    "random": {},
    "heuristic": {"eps": _SHARE},
    "tuned": {"eps": _SHARE},
    "learned": {"width": Param(int, 1)},
    "valued": {"cap": Param(float, 0.0), "sample": Param(float, 0.0, 10.0)},
    "lookahead": {
        "margin": Param(float, 0.0),
        "width": Param(int, 1),
        "horizon": Param(int, 0),
        "focus": Param(int, 0, 1),
        "steps": Param(int, 1),
    },
    "search": {
        "budget": Param(int, 1),
        "horizon": Param(int, 0),
        "eps": _SHARE,
        "width": Param(int, 1),
        "steps": Param(int, 1),
        "margin": Param(float, 0.0),
        "policy": Param(str, choices=("heuristic", "valued")),
    },
    "explorer": {"p": _SHARE},
    "factorial": {"p": _SHARE},
    "numbers": {},
    "ratings": {
        "ratings_file": Param(str, file=True),
        "db": Param(str, file=True),
        "weight": Param(float),
        "board": Param(str),
        "prior": Param(float, 0.0),
        "min_games": Param(int, 0),
    },
}
"""The parameters each kind takes (every key of FACTORIES has an entry)."""


def _did_you_mean(word: str, known: list[str]) -> str:
    close = difflib.get_close_matches(word, known, n=1, cutoff=0.5)
    return f"did you mean {close[0]}? " if close else ""


def check_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The parsed spec; ValueError in one line naming the unknown kind or parameter (with the
    known ones and the closest match) or the value out of range."""
    name, params = parse_spec(spec)
    if name not in FACTORIES:
        raise ValueError(
            f"unknown agent {name!r} in {spec!r}; {_did_you_mean(name, list(PARAMS))}"
            f"known: {', '.join(sorted(FACTORIES))}"
        )
    known = PARAMS.get(name, {})
    for key, text in params.items():
        if key not in known:
            takes = f"{name} takes {', '.join(known)}" if known else f"{name} takes no parameters"
            raise ValueError(
                f"{spec!r}: {name} has no parameter {key!r}; "
                f"{_did_you_mean(key, list(known))}{takes}"
            )
        why = known[key].problem(text)
        if why:
            raise ValueError(f"{spec!r}: {key} {why}")
    return name, params


def parse_spec(spec: str) -> tuple[str, dict[str, str]]:
    """`search:budget=200+horizon=1` -> ("search", {"budget": "200", "horizon": "1"}).

    Parameters are joined by `+` (or `;`): a comma already separates the seats on the
    command line (`--agents heuristic,search:budget=200`).
    """
    name, _, rest = spec.strip().partition(":")
    params: dict[str, str] = {}
    for part in filter(None, rest.split(";") if ";" in rest else rest.split("+")):
        key, eq, value = part.partition("=")
        if not eq:
            raise ValueError(f"agent parameter {part!r} in {spec!r} is not KEY=VALUE")
        params[key.strip()] = value.strip()
    return name.strip().casefold(), params


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec, checked first (`check_spec`)."""
    name, params = check_spec(spec)
    return FACTORIES[name](params)
