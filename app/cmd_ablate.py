"""`workbench ablate`: a card's causal value, the change in its holders' win rate when it is
replaced by a plain baseline card of the same costs on the same seeds."""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

import polars as pl
from rich.console import Console

from app.console import consoles
from app.errors import run_command
from app.study_args import add_run_options, base_spec
from reports import balance, html
from reports.html import Section, Table
from workbench.analysis.source import open_db
from workbench.content.variants import Change
from workbench.studies import findings as study_findings
from workbench.studies.ablation import Ablation, ablate
from workbench.studies.study import Study, Variant, record_results, run_study
from workbench.studies.sweep import card_metrics

RATES = {
    "pick_rate": "seen",
    "buy_rate": "in_store",
    "wr_in_store": "in_store",
    "wr_bought": "bought",
    "bought_gain": "bought",
}


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "ablate",
        help="a card against a plain baseline on the same seeds",
        description="Play the setup twice on the same seeds, once as it is and once with --card "
        "replaced by a plain card of the same type and costs (a unit gets the median body of "
        "the pool's units at its buy price; a spell gains its play cost plus one). Reports the "
        "win rate of the seats that drafted the card against the same seats and seeds with the "
        "baseline: a causal measure beside the observational improvement when bought.",
    )
    parser.add_argument("--card", required=True, help="the card to replace")
    add_run_options(parser)


def study(args: argparse.Namespace, console: Console) -> tuple[int, Ablation, pl.DataFrame]:
    """Play the card and its baseline on the same seeds, record the change and write the page;
    the study's id, the ablation and the card's metrics in both runs."""
    base = base_spec(args)
    variants = [Variant("original"), Variant("baseline", (Change(card=args.card, baseline=True),))]
    st = run_study(args.db, base, "ablate", args.card, "baseline", variants, args.workers, console)
    con = open_db(args.db)
    try:
        result = ablate(con, st.run_ids[0], st.run_ids[1], args.card)
        metrics = card_metrics(con, st, args.card)
    finally:
        con.close()
    record_results(
        args.db,
        st.sweep_id,
        [
            (
                args.card,
                "ablation_win_rate_change",
                result.change,
                result.low,
                result.high,
                f"{result.seats} seat-games: win rate {result.with_card:.3f} with the card, "
                f"{result.with_baseline:.3f} with the baseline; results changed in "
                f"{result.gained + result.lost} (sign test p = {result.p_value:.3g})",
            )
        ],
    )
    _write_page(args, st, base.seed, result, metrics)
    return st.sweep_id, result, metrics


def _summary(card: str, result: Ablation) -> pl.DataFrame:
    """The ablation as the page's one-row table."""
    return pl.DataFrame(
        [
            {
                "card": card,
                "seats": result.seats,
                "win_rate_with_card": result.with_card,
                "win_rate_with_baseline": result.with_baseline,
                "change": result.change,
                "change_low": result.low,
                "change_high": result.high,
                "won_only_with_card": result.gained,
                "won_only_with_baseline": result.lost,
                "sign_test_p": result.p_value,
            }
        ]
    )


FINDINGS_INTRO = (
    "What to look at first: the card's causal effect on its holders' win rate (high: the whole "
    "95% interval lies more than 5 points from no change; medium: the estimate does and the "
    "interval excludes no change; low: no clear effect). n counts the seat-games."
)


def _write_page(
    args: argparse.Namespace, st: Study, seed: int, result: Ablation, metrics: pl.DataFrame
) -> None:
    """The page: the findings, then the change in win rate and the card's metrics per run."""
    found = study_findings.ablation_findings(args.card, result)
    html.write(
        Path(args.out),
        f"Ablation of {args.card}",
        [
            (
                "study",
                f"{st.sweep_id} in {args.db}: run {st.run_ids[0]} original, run "
                f"{st.run_ids[1]} baseline, seed {seed} for both",
            )
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, "No effect to report."),
            Section(
                "ablation",
                f"{args.card} against its baseline",
                "Seats that drafted the card "
                "in the original run, compared with the same seats and seeds when the card is "
                "a plain baseline of the same costs. The change is causal up to the agents' "
                "play: everything else in those games started the same. Interval: 95% paired "
                "bootstrap over games.",
                [
                    Table("ablation", "Win rate change", _summary(args.card, result)),
                    Table(
                        "ablation_metrics",
                        "The card's metrics in both runs",
                        metrics,
                        RATES,
                        ["variant", "run_id", *RATES],
                    ),
                ],
            ),
        ],
    )


def run(args: argparse.Namespace) -> int:
    console, err = consoles()
    return run_command(
        "ablate", err, lambda: study(args, err), lambda done: _show(args, done[1], console)
    )


def _show(args: argparse.Namespace, r: Ablation, console: Console) -> int:
    """The change in one line, and where the page is."""
    console.print(
        f"{args.card}: win rate of its holders {r.with_card:.1%} with it, "
        f"{r.with_baseline:.1%} with the baseline; change {r.change:+.1%} "
        f"(95% {r.low:+.1%} .. {r.high:+.1%}, {r.seats} seat-games)",
        markup=False,
        highlight=False,
    )
    console.print(str(Path(args.out) / "index.html"), markup=False, highlight=False)
    return 0
