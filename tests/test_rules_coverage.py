"""Every rule id of RULES.md has at least one test and is cited in the engine where it is carried
out; tests name rule ids only with `@rules(...)`, spelled as RULES.md spells them, so
`grep -rn "R7.2"` finds the rule's code and its tests (see tests/rules_coverage.py)."""

from __future__ import annotations

import re

import pytest

from tests.rules_coverage import (
    chapters,
    cites,
    collect_tests,
    coverage,
    engine_citations,
    rule_ids,
    rules_file,
)


def rules_text() -> str:
    rules = rules_file()
    if rules is None:
        pytest.skip("shared/rules/RULES.md is not beside this clone")
    return rules.read_text(encoding="utf-8")


def test_every_rule_id_has_a_test():
    ids = rule_ids(rules_text())
    assert len(ids) > 100 and ids[0] == "R1.1" and "R21.18" in ids
    table = coverage(ids, collect_tests())
    missing = [r for r, refs in table.items() if not refs]
    assert not missing, f"rule ids without a test: {missing}"


NOT_RULE_TESTS = (
    "test_agents.py",
    "test_replay.py",
    "test_runner.py",
    "test_design",
    "test_metrics",
    "test_report.py",
    "test_play_human.py",
    "test_check.py",
)


def test_rule_ids_map_only_to_tests_of_the_rules():
    """A rule id on a test claims that the test sets up the rule's situation and asserts its
    outcome: agent look-ahead, replay, determinism, referee and report tests make no such claim.
    The ids are those of RULES.md (a rule or a chapter), and test names carry none: the old
    spelling `R7_2` in a name would hide the test from `grep R7.2`."""
    text = rules_text()
    known = set(rule_ids(text)) | set(chapters(text))
    tests = collect_tests()
    marked = [(ref, ids) for ref, ids in tests if ids]
    assert len(marked) > 200
    wrong = sorted(
        ref
        for ref, _ in marked
        if any(part in ref.split("::")[0] for part in NOT_RULE_TESTS)
        or any(w in ref.split("::")[1] for w in ("replay", "determinis", "search", "evaluate"))
    )
    assert not wrong, f"rule ids on tests that do not check a rule: {wrong}"
    unknown = sorted({i for _, ids in marked for i in ids} - known)
    assert not unknown, f"@rules ids that RULES.md does not have: {unknown}"
    named = [ref for ref, _ in tests if re.search(r"(?:^|_)R\d+_", ref.split("::")[1])]
    assert not named, (
        "rule ids in test names (move them to @rules; python -m "
        f"tests.rules_rename does it): {named}"
    )


def test_every_rule_id_is_cited_in_the_engine():
    """Each id in a docstring or comment of engine/*.py (the agents carry out no rule), spelled
    as in RULES.md and not as part of a longer id."""
    ids = rule_ids(rules_text())
    uncited = [rid for rid, where in engine_citations(ids).items() if not where]
    assert not uncited, f"rule ids cited nowhere in engine/*.py: {uncited}"


def test_a_citation_is_the_id_itself():
    assert cites("R7.2: one a turn", "R7.2") and cites("(R6.4, R7.2)", "R7.2")
    assert cites("R7.2.", "R7.2") and cites("R7.1-R7.2", "R7.2")
    assert not cites("R7.21", "R7.2") and not cites("R17.2", "R7.2")
    assert not cites("R7_2", "R7.2") and not cites("R7.1-R7.3", "R7.2")
