"""Findings on cards: the report's verdict on a card (too strong, too weak) where its
improvement when bought survives the multiple-comparison control, the pool cards never or rarely
bought and why, and the Kraken-like cards drafted but (almost) never bought (findings.py says
what the severities are)."""

from __future__ import annotations

from collections.abc import Callable, Mapping, Sequence
from typing import Any

import polars as pl

from workbench.analysis import cards, draft, drafted
from workbench.analysis.runs import Runs, cached
from workbench.analysis.severity import Finding, Thresholds, num, on_board, pct, span
from workbench.analysis.stats import ALPHA

TOO_STRONG, FINE, TOO_WEAK, NO_ESTIMATE = "too strong", "fine", "too weak", "no estimate"
"""The report's verdicts on a card (card_verdict)."""


def card_verdict(gain: float | None, bh: float | None) -> str:
    """The report's verdict on a card, the one definition every page uses: too strong or too
    weak when its improvement when bought survives Benjamini-Hochberg's correction over the
    run's cards (q < ALPHA; card_findings' severity then says how sure), fine when it does not,
    no estimate when there is none (no holder bought it, or every one did). `gain` and `bh`:
    cards.card_results' bought_gain and bought_gain_bh."""
    if gain is None or bh is None:
        return NO_ESTIMATE
    if bh >= ALPHA:
        return FINE
    return TOO_STRONG if gain > 0 else TOO_WEAK


def card_findings(table: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """Cards whose improvement when bought survives the multiple-comparison control."""
    out = []
    for r in table.iter_rows(named=True):
        holm, gain = r["bought_gain_holm"], r["bought_gain"]
        verdict = card_verdict(gain, r["bought_gain_bh"])
        if verdict in (FINE, NO_ESTIMATE):
            continue
        if holm is not None and holm < ALPHA and r["bought"] >= th.min_sample:
            sev = "high" if abs(gain) >= th.strong_gain else "medium"
        else:
            sev = "low"
        out.append(
            Finding(
                "card",
                sev,
                f"{r['card']} looks {verdict}: its holders win "
                f"{pct(r['wr_bought'])} when they buy it and {pct(r['wr_never_bought'])} when they "
                f"draft it but never buy it: {num(100 * gain, True)} points "
                f"{span(r['bought_gain_lo'], r['bought_gain_hi'], r['bought'], ' points')}.",
                gain,
                r["bought_gain_lo"],
                r["bought_gain_hi"],
                r["bought"],
                "cards",
                r["card"],
                abs(gain),
            )
        )
    return out


NEVER_DRAFTED = "never drafted"
NEVER_AFFORDABLE = "never affordable"
PASSED = "passed when affordable"
WHY = {
    NEVER_DRAFTED: "because no drafter ever picks a copy",
    NEVER_AFFORDABLE: "because the price is (almost) never there at a buy step with a copy "
    "in the store",
    PASSED: "although the price is there at the buy step",
}
"""The reasons a card is not bought, as the dead-card table names them and as findings say it."""


@cached
def dead_cards(r: Runs) -> pl.DataFrame:
    """Pool cards with a buy price that are never or rarely bought (`rare_buy` of the context's
    thresholds), and why: never drafted; drafted but (almost) never affordable at a buy step
    while in the store; or affordable but passed. `chances` is the sample behind the verdict
    (packs seen, or store turns)."""
    th = r.th
    picks = draft.card_picks(r).select("card", "seen", "picks")
    chances = cards.buy_chances(r)
    df = (
        chances.join(picks, on="card", how="left")
        .join(
            cards.card_table(r).select(
                "card", "in_store", "bought", "buy_rate", "buy_rate_lo", "buy_rate_hi"
            ),
            on="card",
            how="left",
        )
        .with_columns(pl.col("seen", "picks", "in_store", "bought").fill_null(0))
    )
    rare = (pl.col("in_store") > 0) & (pl.col("bought") < th.rare_buy * pl.col("in_store"))
    reason = (
        pl.when(pl.col("picks") == 0)
        .then(pl.lit(NEVER_DRAFTED))
        .when(pl.col("affordable_turns") < th.rare_buy * pl.col("store_turns"))
        .then(pl.lit(NEVER_AFFORDABLE))
        .otherwise(pl.lit(PASSED))
    )
    return (
        df.filter((pl.col("picks") == 0) | rare)
        .with_columns(
            reason.alias("reason"),
            pl.when(pl.col("picks") == 0)
            .then(pl.col("seen"))
            .otherwise(pl.col("store_turns"))
            .alias("chances"),
        )
        .select(
            "card",
            "set",
            "buy",
            "reason",
            "seen",
            "picks",
            "in_store",
            "bought",
            "buy_rate",
            "buy_rate_lo",
            "buy_rate_hi",
            "store_turns",
            "affordable_turns",
            "chances",
        )
        .sort("reason", "bought", "card")
    )


def _dead_detail(r: dict[str, Any]) -> str:
    if r["reason"] == NEVER_DRAFTED:
        return f"{r['card']} (passed in {r['seen']} packs)"
    return (
        f"{r['card']} (buy {r['buy']}: affordable at {r['affordable_turns']:,} of "
        f"{r['store_turns']:,} buy steps; bought by {r['bought']} of {r['in_store']} "
        f"drafters)"
    )


def dead_card_findings(
    dead: pl.DataFrame, pool: int, th: Thresholds, confirmed: bool = False
) -> list[Finding]:
    """One finding per reason: how many pool cards, which (all of them), and their numbers.
    The cards are the whole pool, not a sample of one, so a count says it and no interval
    does. `confirmed`: `dead` holds only the cards a randomised buyer also finds worthless
    (verdicts.worthless); otherwise the finding says that no randomised run checked them, and
    is low at most."""
    out = []
    for reason in (NEVER_DRAFTED, NEVER_AFFORDABLE, PASSED):
        rows = list(dead.filter(pl.col("reason") == reason).iter_rows(named=True))
        if not rows:
            continue
        sure = [r for r in rows if r["chances"] >= th.min_sample]
        sev = "high" if any(r["bought"] == 0 for r in sure) else "medium" if sure else "low"
        sev = sev if confirmed else "low"
        check = (
            " Randomised buying (`simulate --design causal`) finds each of them worthless too"
            if confirmed
            else " That is the agents' habit until randomised buying (`simulate --design "
            "causal`) finds them worthless too; no such run was found"
        )
        what = "never bought" if all(r["bought"] == 0 for r in rows) else "rarely or never bought"
        out.append(
            over_cards(
                "dead card",
                sev,
                f"{len(rows)} of {pool} cards {'is' if len(rows) == 1 else 'are'} "
                f"{what} {WHY[reason]}: {listed(rows, _dead_detail)}.{check}.",
                rows,
                pool,
            )
        )
    return out


SHOWN = 3
"""Cards of a finding over a set of cards told with their numbers; the rest are named."""


def over_cards(
    kind: str, severity: str, text: str, rows: Sequence[dict[str, Any]], pool: int
) -> Finding:
    """A finding over a set of cards: their share of the pool, the pool as its n and no
    interval (the cards are the whole pool, not a sample of it), every card its subject."""
    share = len(rows) / pool
    subject = ", ".join(str(r["card"]) for r in rows)
    return Finding(kind, severity, text, share, None, None, pool, "cards", subject, share)


def listed(rows: Sequence[dict[str, Any]], detail: Callable[[dict[str, Any]], str]) -> str:
    """Every card of a finding: the first SHOWN with their numbers, then the others' names."""
    shown = "; ".join(detail(r) for r in rows[:SHOWN])
    rest = [str(r["card"]) for r in rows[SHOWN:]]
    return shown + (f"; and {len(rest)} more: {', '.join(rest)}" if rest else "")


def _habit(rows: list[dict[str, object]], worth: Mapping[str, bool | None] | None) -> str:
    """What randomised buying says of these cards (verdicts.worth_buying): how many it finds
    worth buying (the agents' habit leaves them, not the cards' fault), which worthless (those
    the dead-card findings keep), and how many it cannot tell from no effect (then neither is
    claimed)."""
    if not worth:
        return ""
    names = [str(r["card"]) for r in rows]
    good = [n for n in names if worth.get(n) is True]
    bad = [n for n in names if worth.get(n) is False]
    unsure = [n for n in names if n in worth and worth[n] is None]
    text = (
        f" Randomised buying finds {len(good)} of these {len(rows)} worth buying (too strong, "
        "or a sure gain when bought): leaving those unbought is the agents' habit, not the "
        "cards' fault."
    )
    if bad:
        text += f" It finds {len(bad)} worthless: {', '.join(bad)}."
    if unsure:
        text += (
            f" It cannot tell {len(unsure)} from no effect (their intervals hold 0): whether "
            "leaving them is a loss, this run does not say."
        )
    return text


def kraken_findings(
    shares: pl.DataFrame, th: Thresholds, worth: Mapping[str, bool | None] | None = None
) -> list[Finding]:
    """Per board, the Kraken-like cards of `drafted.card_shares` (at the thresholds of `th`):
    drafted in many games, (almost) never bought by the seat that drafted them. `worth`: card
    -> whether randomised buying finds it worth buying (verdicts.worth_buying), if a design run
    judged them: the finding then says how many of them are, the agents' habit, not the
    cards', and which are worthless."""
    out = []
    boards = shares.get_column("board").n_unique()
    for key, df in shares.group_by("board", maintain_order=True):
        board = str(key[0])
        rows = list(drafted.kraken_like(df).iter_rows(named=True))
        if not rows:
            continue
        pool = df.height
        sure = [r for r in rows if r["seats_drafted"] >= th.min_sample]
        sev = "high" if any(r["seats_bought"] == 0 for r in sure) else "medium" if sure else "low"
        out.append(
            over_cards(
                "drafted never bought",
                sev,
                f"{len(rows)} of {pool} drafted cards"
                f"{on_board(board, boards)} {'is' if len(rows) == 1 else 'are'} Kraken-like, "
                "drafted in many games and (almost) never bought by the seat that drafted them: "
                f"{listed(rows, _kraken_detail)}. Their picks go to cards the players do not "
                f"use: a drafter that drafts what its agent will not buy, or an agent that never "
                f"buys them.{_habit(rows, worth)}",
                rows,
                pool,
            )
        )
    return out


def _kraken_detail(r: dict[str, Any]) -> str:
    """A Kraken-like card's numbers, where in the draft it is taken said as pack and pick."""
    return (
        f"{r['card']} (drafted in {r['games_drafted']:,} of {r['games']:,} games, bought by "
        f"{r['seats_bought']} of {r['seats_drafted']:,} drafting seats, taken at pack "
        f"{r['ata_pack']:.1f}, pick {r['ata_in_pack']:.1f} on average)"
    )
