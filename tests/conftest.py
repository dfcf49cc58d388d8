"""Shared test setup: hypothesis profiles and the shipped content, loaded once per session.

HYPOTHESIS_PROFILE selects the profile: "ci" (default, bounded: ~10 examples per property) or
"long" (200 examples; meant for `pytest -m slow`).
"""

from __future__ import annotations

import os
from pathlib import Path

import pytest
from hypothesis import HealthCheck, settings

from tests.rules import marked_ids

settings.register_profile(
    "ci", max_examples=10, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.register_profile(
    "long", max_examples=200, deadline=None, suppress_health_check=[HealthCheck.too_slow]
)
settings.load_profile(os.environ.get("HYPOTHESIS_PROFILE", "ci"))

REPO = Path(__file__).resolve().parent.parent


class Shipped:
    """The shipped card sets and boards; setups are loaded lazily and cached."""

    def __init__(self) -> None:
        from engine.cards import CardType
        from workbench.content.card_sets import shipped_cardsets

        sets = shipped_cardsets()
        # draftable sets: those with cards that have a buy price (not starter/tyrant)
        self.sets = sorted(
            s.name
            for s in sets
            if any(c.buy is not None and c.type is not CardType.INTENTION for c in s.cards)
            and s.name not in ("starter", "tyrant")
        )
        self.boards = sorted(
            {
                p.name.split(".")[0]
                for p in (REPO / "cardsets" / "boards").iterdir()
                if p.suffix in (".xlsx", ".ods", ".csv")
            }
        )
        self._cache: dict[tuple[tuple[str, ...], str], object] = {}

    def setup(self, sets, board):
        key = (tuple(sets), board)
        if key not in self._cache:
            from workbench.content.setup import load_setup

            self._cache[key] = load_setup(list(sets), board)
        return self._cache[key]


@pytest.fixture(scope="session")
def shipped() -> Shipped:
    return Shipped()


def pytest_configure(config: pytest.Config) -> None:
    """`pytest -m slow` without HYPOTHESIS_PROFILE runs the long profile."""
    if "HYPOTHESIS_PROFILE" not in os.environ and config.getoption("markexpr", "") == "slow":
        settings.load_profile("long")


def pytest_addoption(parser: pytest.Parser) -> None:
    parser.addoption(
        "--rule",
        action="append",
        default=[],
        metavar="ID",
        help="run only the tests marked @rules(ID) (R7.2; R7 takes the chapter)",
    )


def pytest_collection_modifyitems(config: pytest.Config, items: list[pytest.Item]) -> None:
    """`--rule R7.2` keeps the tests whose `rules` mark names R7.2 (exactly: not R7.21 nor
    R17.2); `--rule R7` keeps those of any rule of chapter R7."""
    wanted: list[str] = config.getoption("rule")
    if not wanted:
        return

    def selected(item: pytest.Item) -> bool:
        return any(i == w or i.split(".")[0] == w for i in marked_ids(item) for w in wanted)

    keep = [item for item in items if selected(item)]
    config.hook.pytest_deselected(items=[item for item in items if not selected(item)])
    items[:] = keep


ONE_WORKER = "tests/test_shards.py"  # its tests share one Ray cluster, started once per worker


def pytest_xdist_make_scheduler(config: pytest.Config, log: object) -> object | None:
    """Under `-n N` (`--dist load`): the tests of ONE_WORKER as one work unit, so one worker
    runs them and starts their cluster once; every other test a unit of its own, as `load`
    deals them. `--dist loadgroup` with an `xdist_group` mark would say it, but with pytest
    9.2's node ids xdist 3.8 drops the groups silently (pytest-xdist#1386)."""
    if config.getvalue("dist") != "load":
        return None
    from xdist.scheduler import LoadScopeScheduling

    class OneWorkerScheduling(LoadScopeScheduling):
        def _split_scope(self, nodeid: str) -> str:
            return ONE_WORKER if nodeid.startswith(ONE_WORKER + "::") else nodeid

    return OneWorkerScheduling(config, log)
