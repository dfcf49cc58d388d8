"""Agents and drafters by name, with parameters: `random`, `heuristic`, `search:budget=200`.

An agent is anything with `act(game, legal, rng) -> Action`; a drafter is an agent asked only
for draft picks. New kinds register a factory in `FACTORIES`.
"""

from __future__ import annotations

import random
from collections.abc import Callable
from typing import Protocol

from engine.actions import Action
from engine.agents.explorer import ExplorerAgent
from engine.agents.random_agent import RandomAgent
from engine.game import Game


class Agent(Protocol):
    name: str

    def act(self, game: Game, legal: list[Action], rng: random.Random) -> Action: ...


Factory = Callable[[dict[str, str]], Agent]

def _heuristic(params: dict[str, str]) -> Agent:
    from engine.agents.heuristic import HeuristicAgent
    return HeuristicAgent(eps=float(params.get("eps", 0.0)))


def _search(params: dict[str, str]) -> Agent:
    from engine.agents.search import SearchAgent
    return SearchAgent.from_params(params)


def _ratings(params: dict[str, str]) -> Agent:
    from engine.agents.drafters import make_ratings_drafter
    return make_ratings_drafter(params)


FACTORIES: dict[str, Factory] = {
    "random": lambda params: RandomAgent(),
    # agents (they draft with the heuristic drafter when used as drafters)
    "heuristic": _heuristic,
    "search": _search,
    "explorer": ExplorerAgent.from_params,  # the heuristic agent with random buys
    # drafters (they play the match as the heuristic agent when used as agents)
    "ratings": _ratings,
}


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
    """Build an agent from its spec; unknown names list the known ones."""
    name, params = parse_spec(spec)
    if name not in FACTORIES:
        raise ValueError(f"unknown agent {name!r}; known: {', '.join(sorted(FACTORIES))}")
    return FACTORIES[name](params)
