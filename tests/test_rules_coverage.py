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
