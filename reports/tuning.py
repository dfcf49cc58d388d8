"""The page of `workbench tune`: the findings, each proposal with its effects before and after
and every probe, and the set's cards judged; and a card's outcome in words."""

from __future__ import annotations

import dataclasses
from pathlib import Path

import polars as pl

from reports import balance, html
from reports.html import Section, Table
from workbench.studies import findings as study_findings
from workbench.studies.tune import NOT_USED, CardTuning
from workbench.studies.tune_set import SetTuning


def move(t: CardTuning) -> str:
    """`Windfall (too strong): buy 1 -> 5`, or `... buy 1, no proposal`."""
    return f"{t.card} ({t.verdict}): " + (
        f"{t.field} {t.current} -> {t.proposed}"
        if t.proposed is not None
        else f"{t.field} {t.current}, no proposal"
    )


def line(t: CardTuning) -> str:
    """One card's outcome in words: the move, and its effect or why no price gets there."""
    return f"{move(t)} ({t.note})"


CARD_COLUMNS = [
    "card",
    "verdict",
    "effect",
    "low",
    "high",
    "n",
    "n_forced",
    "n_banned",
    "wr_forced",
    "wr_banned",
    "bought_forced",
    "played_forced",
]
"""The columns of the judged cards' table."""
FINDINGS_INTRO = (
    "What to look at first, the largest effects first: each proposal with the causal effect "
    "that flagged the card (high: its effect's interval reaches into the band on the judging "
    "seeds and on fresh ones, so no run tells it from a balanced card; medium: not confirmed "
    "on fresh seeds, or no cost in range gets inside the band), then the cards not tuned. "
    "Intervals are 95%; n the probes played."
)
NOTHING_FOUND = "No card was flagged: every card's effect lies within the band."


def write_page(out: Path, done: SetTuning) -> None:
    """The page: the findings, the proposals with every probe, the cards judged."""
    run_id, band, flagged, tunings = done.run_id, done.band, done.flagged, done.tunings
    copy, unseen = done.copy, done.unseen
    unused = flagged.filter(pl.col("verdict") == NOT_USED).get_column("card").to_list()
    found = study_findings.tune_findings(tunings, unused, unseen)
    html.write(
        out,
        f"Tuning run {run_id}",
        [
            ("judging run", f"{run_id} (randomised buying)"),
            ("band", f"{band[0]:+.2f}..{band[1]:+.2f}"),
        ],
        [
            balance.findings_list(found, FINDINGS_INTRO, NOTHING_FOUND),
            _proposals_section(tunings, copy),
            _judged_section(run_id, band, flagged, unseen),
        ],
    )


def _proposals_section(tunings: list[CardTuning], copy: Path | None) -> Section:
    """Every move in words, the effects before and after, and every probe."""
    moves = " ".join(f"{line(t)}." for t in tunings) or "No card was flagged."
    return Section(
        "proposals",
        "Proposals",
        f"{moves} "
        + (
            f"Marked copy: {copy.name}; every change in proposals.csv, with a note where no "
            "cost in range gets the card inside the band."
            if copy
            else "No proposal, so no copy."
        ),
        [
            Table(
                "tune_proposals",
                "Before and after",
                before_after(tunings),
                show=[
                    "card",
                    "field",
                    "verdict",
                    "current",
                    "proposed",
                    "effect_before",
                    "effect_after",
                    "effect_fresh",
                    "reaches_band",
                    "confirmed",
                    "probes",
                ],
                note="The causal effect at the current cost (judging run), at the proposed "
                "cost (same seeds) and there on fresh seeds; reaches_band: the proposed "
                "cost's effect lies inside the band; the reasons are above and in the note "
                "column of the CSV.",
            ),
            Table(
                "tune_probes",
                "Every probe",
                probe_table(tunings),
                note="Each cost tried: the card's effect there with its 95% interval, the "
                "seats holding it (n), its design run, and whether it was the fresh-seed "
                "check.",
            ),
        ],
    )


def _judged_section(
    run_id: int, band: tuple[float, float], flagged: pl.DataFrame, unseen: list[str]
) -> Section:
    """The set's cards with their effects and verdicts, and the cards never judged."""
    return Section(
        "flagged",
        "Cards judged",
        f"Causal effect in design run {run_id} (win rate of the seats holding the card forced "
        f"minus banned, adjusted for the other cards' arms) against the band "
        f"{band[0]:+.2f}..{band[1]:+.2f}: too strong or too weak when its whole 95% interval "
        "lies above or below it; agents do not use it when the seats made to buy it hardly "
        "play it (not tuned: no verdict)."
        + (f" Never drafted, so not judged: {', '.join(unseen)}." if unseen else ""),
        [
            Table(
                "tune_cards",
                "The set's cards",
                flagged,
                {"wr_forced": "n_forced", "wr_banned": "n_banned"},
                CARD_COLUMNS,
            )
        ],
    )


def before_after(tunings: list[CardTuning]) -> pl.DataFrame:
    """Per flagged card and field: the effect at the current and the proposed cost (judging
    seeds and fresh ones), whether it reaches the band, and why."""
    rows = []
    for t in tunings:
        at = {p.value: p for p in t.outcome.probes if not p.fresh}
        fresh = next((p for p in t.outcome.probes if p.fresh), None)
        after = at.get(t.proposed) if t.proposed is not None else None
        rows.append(
            {
                "card": t.card,
                "field": t.field,
                "verdict": t.verdict,
                "current": t.current,
                "proposed": t.proposed,
                "effect_before": t.effect,
                "effect_after": after.effect if after else None,
                "effect_fresh": fresh.effect if fresh else None,
                "reaches_band": t.outcome.reached,
                "confirmed": t.outcome.confirmed,
                "probes": len(t.outcome.probes),
                "note": t.note,
            }
        )
    schema = {
        "card": pl.String,
        "field": pl.String,
        "verdict": pl.String,
        "current": pl.Int64,
        "proposed": pl.Int64,
        "effect_before": pl.Float64,
        "effect_after": pl.Float64,
        "effect_fresh": pl.Float64,
        "reaches_band": pl.Boolean,
        "confirmed": pl.Boolean,
        "probes": pl.Int64,
        "note": pl.String,
    }
    return pl.DataFrame(rows, schema=schema)


def probe_table(tunings: list[CardTuning]) -> pl.DataFrame:
    """Every probe of every search: card, field, value, effect and interval, n, run, fresh."""
    rows = [
        {"card": t.card, "field": t.field, **dataclasses.asdict(p)}
        for t in tunings
        for p in t.outcome.probes
    ]
    schema = {
        "card": pl.String,
        "field": pl.String,
        "value": pl.Int64,
        "effect": pl.Float64,
        "low": pl.Float64,
        "high": pl.Float64,
        "n": pl.Int64,
        "run_id": pl.Int64,
        "fresh": pl.Boolean,
        "priced_out": pl.Boolean,
    }
    return pl.DataFrame(rows, schema=schema)
