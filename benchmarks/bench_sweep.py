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
from workbench.store import RunSpec
from workbench.studies.fairvalue import card_counts, difference_interval, fair_value
from workbench.studies.study import run_study
from workbench.studies.sweep import card_variants

CARD, FIELD, VALUES = "Legionary", "buy", [1, 2, 3, 4]


Row = tuple[str, float, float, float | None, str, float]
"""One way of seeding: its name, the difference and its interval's width, the fair value and
its interval's width (or "open"), and the seconds the sweep took."""


def main() -> None:
    """Play the sweep paired and independent, then print the table that compares them."""
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
        rows = [_measure(db, spec, args.workers, independent) for independent in (False, True)]
    _print_table(rows, args.games, args.workers)


def _measure(db: Path, spec: RunSpec, workers: int, independent: bool) -> Row:
    """Play the sweep into `db` with shared or independent seeds, and measure its intervals."""
    start = time.perf_counter()
    study = run_study(
        db,
        spec,
        "sweep",
        CARD,
        FIELD,
        card_variants(CARD, FIELD, VALUES),
        workers,
        Console(quiet=True),
        independent=independent,
    )
    seconds = time.perf_counter() - start
    con = open_db(db)
    counts = card_counts(con, study.run_ids, CARD, spec.games)
    con.close()
    paired = not independent
    d, lo, hi = difference_interval(counts, 1, len(VALUES) - 1, paired)
    f = fair_value(VALUES, counts, paired=paired)
    width = f"{f.high - f.low:.2f}" if f.low is not None and f.high is not None else "open"
    return ("independent" if independent else "paired"), d, hi - lo, f.estimate, width, seconds


def _print_table(rows: list[Row], games: int, workers: int) -> None:
    """The two ways side by side in Markdown, and the ratio of their interval widths."""
    print(f"{CARD}.{FIELD} over {VALUES}, {games} heuristic games per value, {workers} workers")
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
