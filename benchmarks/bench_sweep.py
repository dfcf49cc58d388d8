"""What pairing saves: a sweep played on shared seeds against the same sweep on independent
seeds; the 95% interval of the difference in improvement when bought between the extreme values
and of the fair value, each by bootstrap over games (paired: game indices resampled jointly).

    .venv/bin/python benchmarks/bench_sweep.py [--games 150] [--workers 2]
"""

from __future__ import annotations

import argparse
import tempfile
import time
from pathlib import Path

from rich.console import Console

from workbench.analysis.source import open_db
from workbench.fairvalue import card_counts, difference_interval, fair_value
from workbench.store import RunSpec
from workbench.study import run_study
from workbench.sweep import card_variants

CARD, FIELD, VALUES = "Legionary", "buy", [1, 2, 3, 4]


def main() -> None:
    parser = argparse.ArgumentParser()
    parser.add_argument("--games", type=int, default=150)
    parser.add_argument("--workers", type=int, default=2)
    args = parser.parse_args()
    spec = RunSpec(
        ("iron-legion", "tide-callers"),
        ("kings-crossing",),
        args.games,
        2,
        ("heuristic",) * 2,
        ("heuristic",) * 2,
        seed=11,
    )
    with tempfile.TemporaryDirectory() as tmp:
        db = Path(tmp) / "bench.duckdb"
        rows = []
        for independent in (False, True):
            start = time.perf_counter()
            study = run_study(
                db,
                spec,
                "sweep",
                CARD,
                FIELD,
                card_variants(CARD, FIELD, VALUES),
                args.workers,
                Console(quiet=True),
                independent=independent,
            )
            seconds = time.perf_counter() - start
            con = open_db(db)
            counts = card_counts(con, study.run_ids, CARD, args.games)
            con.close()
            paired = not independent
            d, lo, hi = difference_interval(counts, 1, len(VALUES) - 1, paired)
            f = fair_value(VALUES, counts, paired=paired)
            width = f"{f.high - f.low:.2f}" if f.low is not None and f.high is not None else "open"
            rows.append(
                (
                    ("independent" if independent else "paired"),
                    d,
                    hi - lo,
                    f.estimate,
                    width,
                    seconds,
                )
            )
    print(
        f"{CARD}.{FIELD} over {VALUES}, {args.games} heuristic games per value, "
        f"{args.workers} workers"
    )
    print(
        "| seeds | improvement(4) - improvement(2) | 95% interval width | fair value | "
        "its interval width | seconds |"
    )
    print("|---|---|---|---|---|---|")
    for name, d, w, est, fw, s in rows:
        print(
            f"| {name} | {d:+.3f} | {w:.3f} | "
            f"{'none' if est is None else f'{est:.2f}'} | {fw} | {s:.0f} |"
        )
    print(f"paired / independent interval width: {rows[0][2] / rows[1][2]:.2f}")


if __name__ == "__main__":
    main()
