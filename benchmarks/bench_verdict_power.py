"""How many games a run of the randomised buying design needs for verdicts a designer can bet on
(the default of `simulate --design causal`, app/cmd_simulate.DESIGN_GAMES).

Takes the card effects of a large design run (a truth file of benchmarks/bench_recovery.py,
`--out/confirm/BOARD.json`), shrinks them towards their mean by the share of their spread that
is not noise (the truth the simulation plays with), and simulates the verdicts of runs of N
games: each card's estimate drawn around its true effect with the standard error the large run
had, scaled by sqrt(games of the large run / N); the verdict rule of workbench/analysis/verdicts
(the band test, corrected over the cards by Holm or by Benjamini-Hochberg). It prints, per N and
correction, the cards named per run, the share of them that a second run of the same content
does not name the same way (the recovery benchmark's false alarms, from noise alone), and the
recall of one card set to a true effect of +12, +15 and +20 points.

    .venv/bin/python benchmarks/bench_verdict_power.py /tmp/recovery/confirm/kings-crossing.json
"""

from __future__ import annotations

import argparse
import json
import sys
from collections.abc import Callable, Sequence
from pathlib import Path

import numpy as np
import numpy.typing as npt

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

from workbench.analysis.stats import ALPHA, benjamini_hochberg, holm
from workbench.analysis.verdicts import band_test

Floats = npt.NDArray[np.float64]
CORRECTIONS: dict[str, Callable[[Sequence[float]], list[float]]] = {
    "holm": holm,
    "bh": benjamini_hochberg,
}
PLANTED = (0.12, 0.15, 0.20)


def truth(path: Path) -> tuple[Floats, float, int]:
    """The shrunk effects of the run's estimated cards, their median standard error, games."""
    data = json.loads(path.read_text(encoding="utf-8"))
    rows = [r for r in data["cards"].values() if r["effect"] is not None]
    effect = np.array([r["effect"] for r in rows])
    se = np.array([r["se"] for r in rows])
    noise = float(np.mean(se**2))
    spread = max(float(effect.var()) - noise, 1e-9)
    shrunk = effect.mean() + spread / (spread + noise) * (effect - effect.mean())
    return shrunk, float(np.median(se)), int(data["games"])


def named(
    effects: Floats, se: float, band: float, correct: Callable[[Sequence[float]], list[float]]
) -> Floats:
    """+1 / -1 for a card named too strong / too weak, 0 for none."""
    p = [band_test(float(e), se, band) for e in effects]
    return np.where(np.array(correct(p)) < ALPHA, np.sign(effects), 0.0)


def main(argv: Sequence[str] | None = None) -> int:
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("truth", type=Path, help="a truth file of bench_recovery (confirm/*.json)")
    parser.add_argument("--games", default="1000,2000,3000,6000,10000")
    parser.add_argument("--band", type=float, default=0.05)
    parser.add_argument("--runs", type=int, default=300, help="simulated runs per setting")
    parser.add_argument("--seed", type=int, default=1)
    parser.add_argument(
        "--planted",
        default=",".join(f"{x:g}" for x in PLANTED),
        help="true effects of the planted card whose recall is measured (win-rate points / 100)",
    )
    opts = parser.parse_args(argv)
    planted_effects = tuple(float(x) for x in opts.planted.split(","))
    true, se_large, games_large = truth(opts.truth)
    rng = np.random.default_rng(opts.seed)
    print(f"{opts.truth}: {len(true)} cards, {games_large} games, median se {100 * se_large:.1f}")
    print(
        "| games | correction | named a run | named again? no (share) | recall "
        + " | ".join(f"+{100 * x:.0f}" for x in planted_effects)
        + " |"
    )
    print("|---:|---|---:|---:|" + "---:|" * len(planted_effects))
    for games in (int(g) for g in opts.games.split(",")):
        se = se_large * (games_large / games) ** 0.5
        for name, correct in CORRECTIONS.items():
            count = flips = 0
            found = dict.fromkeys(planted_effects, 0)
            for _ in range(opts.runs):
                first = named(true + rng.normal(0, se, true.size), se, opts.band, correct)
                second = named(true + rng.normal(0, se, true.size), se, opts.band, correct)
                count += int((first != 0).sum())
                flips += int(((first != 0) & (first != second)).sum())
                for x in planted_effects:
                    planted = true.copy()
                    planted[0] = x
                    drawn = planted + rng.normal(0, se, true.size)
                    found[x] += int(named(drawn, se, opts.band, correct)[0] > 0)
            share = flips / count if count else 0.0
            recall = " | ".join(f"{found[x] / opts.runs:.2f}" for x in planted_effects)
            print(
                f"| {games:,} | {name} | {count / opts.runs:.1f} | {100 * share:.1f}% | {recall} |"
            )
    return 0


if __name__ == "__main__":
    sys.exit(main())
