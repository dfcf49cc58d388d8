"""Every rule id of RULES.md has at least one test (see tests/rules_coverage.py)."""

from __future__ import annotations

import pytest

from tests.rules_coverage import collect_tests, coverage, rule_ids, rules_file


def test_every_rule_id_has_a_test():
    rules = rules_file()
    if rules is None:
        pytest.skip("../shared/rules/RULES.md is not beside this clone")
    ids = rule_ids(rules.read_text(encoding="utf-8"))
    assert len(ids) > 100 and ids[0] == "R1.1" and "R21.18" in ids
    table = coverage(ids, collect_tests())
    missing = [r for r, refs in table.items() if not refs]
    assert not missing, f"rule ids without a test: {missing}"


NOT_RULE_TESTS = ("test_agents.py", "test_replay.py", "test_runner.py", "test_design",
                  "test_metrics", "test_report.py", "test_play_human.py")


def test_rule_ids_map_only_to_tests_of_the_rules():
    """A rule id in a test's name claims that the test sets up the rule's situation and asserts
    its outcome: agent look-ahead, replay, determinism and report tests make no such claim."""
    table = coverage([f"R{a}.{b}" for a in range(1, 22) for b in range(1, 40)], collect_tests())
    wrong = sorted({ref for refs in table.values() for ref in refs
                    if any(part in ref for part in NOT_RULE_TESTS)
                    or any(w in ref.split("::")[1] for w in ("replay", "determinis", "search",
                                                             "evaluate"))})
    assert not wrong, f"rule ids named in tests that do not check a rule: {wrong}"
