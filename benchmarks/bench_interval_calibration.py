"""Do the causal effects' 95% intervals hold at their stated rate in real games? Two
independent design runs of one content (bench_recovery's truth, `NAME.json`, and its second
truth on fresh seeds, `NAME.again.json`) estimate the same effects, so for each card the
difference of the two estimates over the root of the sum of their squared standard errors is
a standard normal when the standard errors are right: its spread should be 1 and about 5% of
the cards should lie beyond +-1.96. tests/test_causal.py checks the coverage on simulated
seats; this reads games the engine played, with their zero-sum seats and their strata.

    .venv/bin/python benchmarks/bench_interval_calibration.py /work/runs/rec-d/confirm
"""

from __future__ import annotations

import argparse
import json
import math
import statistics
import sys
from collections.abc import Sequence
from pathlib import Path

from scipy import stats

from workbench.analysis.stats import LEVEL, proportion_ci

Z = float(stats.norm.ppf(0.5 + LEVEL / 2))


def standardised(first: Path, again: Path) -> list[float]:
    """Per card estimated in both runs: (effect one - effect two) / sqrt(se one² + se two²)."""
    one, two = (json.loads(p.read_text(encoding="utf-8"))["cards"] for p in (first, again))
    out = []
    for card, a in one.items():
        b = two.get(card)
        if b is None or a["effect"] is None or b["effect"] is None:
            continue
        out.append((a["effect"] - b["effect"]) / math.hypot(a["se"], b["se"]))
    return out


def row(name: str, zs: Sequence[float]) -> str:
    """A table row: cards, the spread of z, the share beyond +-Z with its interval."""
    beyond = sum(abs(z) > Z for z in zs)
    low, high = proportion_ci(beyond, len(zs))
    return (
        f"| {name} | {len(zs)} | {statistics.pstdev(zs):.2f} | {statistics.fmean(zs):+.2f} "
        f"| {beyond} ({beyond / len(zs):.1%}) [{low:.1%}, {high:.1%}] |"
    )


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("confirm", type=Path, help="a folder of NAME.json and NAME.again.json")
    opts = parser.parse_args(argv)
    pairs = [
        (p.with_name(p.name.replace(".again.json", ".json")), p)
        for p in sorted(opts.confirm.glob("*.again.json"))
    ]
    pairs = [(a, b) for a, b in pairs if a.is_file()]
    if not pairs:
        raise SystemExit(f"{opts.confirm}: no NAME.json with a NAME.again.json beside it")
    print("| content | cards | spread of z | mean of z | beyond +-1.96 [95%] |")
    print("|---|---:|---:|---:|---|")
    pooled: list[float] = []
    for a, b in pairs:
        zs = standardised(a, b)
        pooled += zs
        print(row(a.stem, zs))
    print(row("**all**", pooled))
    return 0


if __name__ == "__main__":
    sys.exit(main())
