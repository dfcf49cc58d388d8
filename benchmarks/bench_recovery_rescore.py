"""Score a recovery run (bench_recovery.py --out) again under today's verdict rule, without
playing a game: each stored report's `tables/card_verdicts.csv` keeps the design run's effect
and 95% interval per card, which is all the band test and Benjamini-Hochberg's correction
read, so a change of the test (workbench/analysis/verdicts.band_test) is measured on the very
games the run played. Prints the summary table as bench_recovery does.

    .venv/bin/python benchmarks/bench_recovery_rescore.py --out /work/runs/rec-d
"""

from __future__ import annotations

import argparse
import csv
import json
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

import polars as pl
from scipy import stats

from workbench.analysis.severity import Thresholds
from workbench.analysis.stats import LEVEL
from workbench.analysis.verdicts import causal_verdicts
from workbench.studies import recovery as rc
from workbench.studies.plants import Direction
from workbench.studies.recovery_cases import content_key

Z = float(stats.norm.ppf(0.5 + LEVEL / 2))
"""The stored intervals are the effect +- this many standard errors (causal.estimate)."""
NUMBERS = ("n", "n_forced", "n_banned", "bought_forced", "played_forced")
RATES = ("effect", "low", "high", "wr_forced", "wr_banned")


def named_again(tables: Path, band: float) -> rc.Named:
    """The cards a stored report names when its design run's effects (each row's effect,
    interval and arms) go through today's verdict rule, verdicts.causal_verdicts."""
    with (tables / "card_verdicts.csv").open(newline="", encoding="utf-8") as fh:
        rows = list(csv.DictReader(fh))

    def value(r: dict[str, str], key: str) -> float | None:
        return float(r[key]) if r.get(key) else None

    effects = pl.DataFrame(
        [
            {
                "card": r["card"],
                **{k: int(value(r, k) or 0) for k in NUMBERS},
                **{k: value(r, k) for k in RATES},
                "se": None if not r["low"] else (float(r["high"]) - float(r["low"])) / (2 * Z),
            }
            for r in rows
        ]
    )
    pool = pl.DataFrame({k: [r[k] for r in rows] for k in ("card", "set", "type")})
    verdicts = causal_verdicts(effects, pool, Thresholds(card_band=band), 0, [0])
    found: dict[str, frozenset[Direction]] = {}
    for card, verdict in verdicts.select("card", "verdict").iter_rows():
        way = rc.direction_of(verdict)
        if way is not None:
            found[card] = frozenset({way})
    return found


def rescored(out: Path, band: float) -> list[dict[str, Any]]:
    """The run's cases with their recall, names and false alarms scored again."""
    cases: dict[str, dict[str, Any]] = json.loads((out / "results.json").read_text())["cases"]
    cards: dict[str, list[str]] = {}
    for c in cases.values():
        cards.setdefault(c["run"], []).append(c["plant"]["card"])
    again = []
    for c in cases.values():
        planted = named_again(out / "cases" / c["run"] / "report" / "tables", band)
        unplanted = out / "unplanted" / content_key(c["board"], c["sets"])
        before = named_again(unplanted / "report" / "tables", band)
        card = c["plant"]["card"]
        others = [x for x in cards[c["run"]] if x != card]
        s = rc.score(card, Direction(c["plant"]["direction"]), planted, before, others)
        again.append(
            {
                **c,
                "recalled": s.recalled,
                "named_count": s.named,
                "false_alarms": list(s.false_alarms),
                "named_before": s.named_before,
            }
        )
    return again


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--out", type=Path, required=True, help="a bench_recovery.py --out")
    parser.add_argument("--band", type=float, default=Thresholds().card_band)
    parser.add_argument("--cases", type=int, help="only cases c1 to cN (default: all scored)")
    opts = parser.parse_args(argv)
    if not (opts.out / "results.json").is_file():
        raise SystemExit(f"{opts.out}: no results.json (a bench_recovery.py --out folder?)")
    cases = sorted(rescored(opts.out, opts.band), key=lambda c: int(c["id"].lstrip("c")))
    cases = [c for c in cases if opts.cases is None or int(c["id"].lstrip("c")) <= opts.cases]
    for c in cases:
        if rc.is_confirmed(c):
            print(f"{c['id']} {c['plant']['card']}: recalled {'yes' if c['recalled'] else 'no'}")
    print(rc.markdown(rc.summary([rc.case_result(c) for c in cases])))
    return 0


if __name__ == "__main__":
    sys.exit(main())
