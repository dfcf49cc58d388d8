"""What the other seats' arms in the causal model (workbench/analysis/causal.py) buy: design
runs of one content on other seeds, each estimated twice, with the other seats' arms and
without them (each seat made a game of its own, so the other seats' sums are 0). Per run the
median ratio of the standard errors (below 1: narrower intervals for the same games, whose
square is the share of the games the same width needs); over the pairs of runs, whether each
estimator's intervals still hold: (effect one - effect two) / sqrt(se one² + se two²) is a
standard normal when the standard errors are right (bench_interval_calibration's test).

    .venv/bin/python benchmarks/bench_rival_arms.py /work/runs/cal-a.duckdb /work/runs/cal-b.duckdb
"""

from __future__ import annotations

import argparse
import itertools
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

import polars as pl
from bench_interval_calibration import row

from workbench.analysis.causal import design_frames, estimate
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db


def both(db: Path) -> tuple[pl.DataFrame, pl.DataFrame]:
    """The design runs of `db` estimated with the other seats' arms and without them."""
    con = open_db(db)
    try:
        runs = [
            int(r[0]) for r in con.execute("SELECT DISTINCT run_id FROM assignments").fetchall()
        ]
        seats, arms = design_frames(Runs(con, runs))
    finally:
        con.close()
    arms = arms.select("game_id", "seat", "card", "forced")
    alone = pl.col("game_id") * 16 + pl.col("seat")
    return estimate(seats, arms), estimate(
        seats.with_columns(alone.alias("game_id")), arms.with_columns(alone.alias("game_id"))
    )


def z_scores(a: pl.DataFrame, b: pl.DataFrame) -> list[float]:
    """Per card estimated in both: the difference of the estimates over its standard error."""
    j = a.join(b, on="card", suffix="_b").drop_nulls(["effect", "effect_b"])
    z = (pl.col("effect") - pl.col("effect_b")) / (pl.col("se") ** 2 + pl.col("se_b") ** 2).sqrt()
    return [float(v) for v in j.select(z).to_series()]


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("dbs", type=Path, nargs="+", help="design runs' databases, one content")
    opts = parser.parse_args(argv)
    estimated = {db.stem: both(db) for db in opts.dbs}
    print("| run | cards | median se with / without the other seats' arms |")
    print("|---|---:|---:|")
    for name, (with_, without) in estimated.items():
        j = with_.join(without, on="card", suffix="_w").drop_nulls(["se", "se_w"])
        ratio = statistics.median(j.select(pl.col("se") / pl.col("se_w")).to_series())
        print(f"| {name} | {j.height} | {ratio:.3f} |")
    if len(estimated) < 2:
        return 0
    print("\n| estimator | cards | spread of z | mean of z | beyond +-1.96 [95%] |")
    print("|---|---:|---:|---:|---|")
    for k, label in ((0, "with the other seats' arms"), (1, "without")):
        zs = [
            z
            for (_, a), (_, b) in itertools.combinations(estimated.items(), 2)
            for z in z_scores(a[k], b[k])
        ]
        print(row(label, zs))
    return 0


if __name__ == "__main__":
    sys.exit(main())
