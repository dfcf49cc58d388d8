"""The rule ids a test checks, spelled as RULES.md spells them, so `grep R7.2` finds the test.

    @rules("R7.2", "R21.16")
    def test_one_card_per_turn_into_the_discard_pile(): ...

An id is a rule (`R7.2`) or a whole chapter (`R15`). The decorator is the pytest mark `rules`
(registered in pyproject.toml): `pytest -m rules` runs every rule test, `pytest --rule R7.2` the
tests of one rule (tests/conftest.py), and tests/rules_coverage.py reads the ids from the source.
"""

from __future__ import annotations

import re

import pytest

RULE_ID = re.compile(r"R\d+(?:\.\d+)?")


def rules(*ids: str) -> pytest.MarkDecorator:
    """Mark a test as checking the rules `ids` (at least one, each `R<n>` or `R<n>.<m>`)."""
    bad = [i for i in ids if not RULE_ID.fullmatch(i)]
    if not ids or bad:
        raise ValueError(f"rule ids are spelled as in RULES.md (R7.2 or R15), not {bad or ids}")
    return pytest.mark.rules(*ids)


def marked_ids(item: pytest.Item) -> set[str]:
    """The rule ids on a collected test (empty when it has no `rules` mark)."""
    return {i for mark in item.iter_markers("rules") for i in mark.args}
