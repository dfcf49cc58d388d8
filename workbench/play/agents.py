"""Agents by spec for the workbench: the engine's registry (engine/agents/registry.py) with the
part that touches files, which the engine leaves to its caller.

A parameter that names a file (`Param.file`) must name one that exists, and the ratings drafter
gets its ratings read here (workbench.play.ratings: a JSON file or the run store) and handed to it
as data. Every command and worker builds its agents through `make_agent`, so a spec means the
same in every process (spawned workers included) without anything registered on import.
"""

from __future__ import annotations

import os

from engine.agents import registry
from engine.agents.drafters import make_ratings_drafter
from engine.play import Agent
from workbench.play.ratings import ratings_of


def check_spec(spec: str) -> tuple[str, dict[str, str]]:
    """The engine's check (`registry.check_spec`), then every file parameter's file: ValueError
    in one line naming it."""
    name, params = registry.check_spec(spec)
    for key, text in params.items():
        if registry.PARAMS[name][key].file and not os.path.isfile(text):
            raise ValueError(f"{spec!r}: {key} must name an existing file; there is no {text!r}")
    return name, params


def make_agent(spec: str) -> Agent:
    """Build an agent from its spec, checked first; a `ratings` drafter with its ratings."""
    name, params = check_spec(spec)
    if name == "ratings":
        return registry.with_drafter(make_ratings_drafter(params, ratings_of(params)))
    return registry.FACTORIES[name](params)
