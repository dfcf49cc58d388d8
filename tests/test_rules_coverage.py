"""Every rule id of RULES.md has at least one test, and tests name rule ids only with
`@rules(...)`, spelled as RULES.md spells them (see tests/rules_coverage.py)."""

from __future__ import annotations

import re

import pytest

from tests.rules_coverage import chapters, collect_tests, coverage, rule_ids, rules_file


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


NOT_RULE_TESTS = ("test_agents.py", "test_replay.py", "test_runner.py", "test_design",
                  "test_metrics", "test_report.py", "test_play_human.py", "test_check.py")


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
    wrong = sorted(ref for ref, _ in marked
                   if any(part in ref.split("::")[0] for part in NOT_RULE_TESTS)
                   or any(w in ref.split("::")[1] for w in ("replay", "determinis", "search",
                                                            "evaluate")))
    assert not wrong, f"rule ids on tests that do not check a rule: {wrong}"
    unknown = sorted({i for _, ids in marked for i in ids} - known)
    assert not unknown, f"@rules ids that RULES.md does not have: {unknown}"
    named = [ref for ref, _ in tests if re.search(r"(?:^|_)R\d+_", ref.split("::")[1])]
    assert not named, ("rule ids in test names (move them to @rules; python -m "
                       f"tests.rules_rename does it): {named}")
