"""Findings: what a designer should look at first, ranked, each computed from the tables.

A finding is one sentence with its number, 95% interval and sample size, a severity, and the id
of the report section that shows it. Severity says how sure and how large:
- high: the whole interval lies beyond the threshold (the problem is real and at least that big);
- medium: the estimate lies beyond the threshold and the interval excludes the neutral value
  (for one-sided checks: the estimate does);
- low: the estimate lies beyond the threshold, but the sample cannot tell it from noise.
Cards use the report's multiple-comparison control instead: significant after Holm's correction
is medium (high when the improvement is at least `strong_gain`), after Benjamini-Hochberg only
low. A sample below `min_sample` makes any finding low. The thresholds are `Thresholds`, options
of `workbench report`.

A seat's or a set's "even share" is the mean win rate per seat on its board (draws and Tyrant
wins count as not won, so on two seats with 6% draws it is 47%). Seats are numbered from 1 here,
as people read them; the database keeps them 0-based.
"""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl

from workbench.analysis import cards, draft, drafted, sets
from workbench.analysis.play_findings import (
    agent_findings,
    economy_findings,
    shape_findings,
)
from workbench.analysis.severity import (
    SEVERITIES,
    Finding,
    Thresholds,
    furthest,
    num,
    on_board,
    pct,
    seat_label,
    span,
    two_sided,
)
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, proportion_ci

__all__ = [
    "NEVER_AFFORDABLE",
    "NEVER_DRAFTED",
    "NO_ESTIMATE",
    "PASSED",
    "TOO_STRONG",
    "TOO_WEAK",
    "Finding",
    "Thresholds",
    "as_frame",
    "card_findings",
    "card_verdict",
    "dead_card_findings",
    "dead_cards",
    "findings",
    "headline",
    "kraken_findings",
    "seat_findings",
    "set_findings",
]
"""The API: the findings on the balance of seats, sets and cards, and all of them ranked
(`Finding` and `Thresholds`, from severity.py, are the types it takes and gives)."""


# --- balance of seats, sets and victory conditions -------------------------------------------


def _even_shares(rates: pl.DataFrame, keys: Sequence[str]) -> dict[tuple[object, ...], float]:
    groups = rates.group_by(keys).agg(pl.col("wins").sum(), pl.col("seats").sum())
    return {
        tuple(r[k] for k in keys): r["wins"] / r["seats"]
        for r in groups.iter_rows(named=True)
        if r["seats"]
    }


def seat_findings(
    con: duckdb.DuckDBPyConnection, runs: Sequence[int], th: Thresholds
) -> list[Finding]:
    """Per board, the seat furthest from the even share, when outside the band; the first
    player's advantage too where the first player is not always the same seat."""
    rates = sets.win_rates(con, runs, ["board", "seat"])
    even = _even_shares(rates, ["board"])
    boards = len(even)
    starts = query(
        con,
        f"""SELECT board, min(first_player) AS lo, max(first_player) AS hi
                           FROM games WHERE run_id IN ({run_list(runs)}) GROUP BY ALL""",
    )
    fixed = {r["board"]: r["lo"] for r in starts.iter_rows(named=True) if r["lo"] == r["hi"]}
    out = []
    for board, rows in rates.group_by("board", maintain_order=True):
        name = str(board[0])
        fair = even[(name,)]
        worst = max(rows.iter_rows(named=True), key=lambda r: furthest(r["win_rate"], fair))
        sev = two_sided(
            worst["win_rate"], worst["win_rate_lo"], worst["win_rate_hi"], fair, worst["seats"], th
        )
        if sev is None:
            continue
        who = seat_label(worst["seat"]) + (
            " (moves first)" if fixed.get(name) == worst["seat"] else ""
        )
        out.append(
            Finding(
                "seat",
                sev,
                f"{who.capitalize()} wins {pct(worst['win_rate'])} of its games"
                f"{on_board(name, boards)} "
                f"{span(worst['win_rate_lo'], worst['win_rate_hi'], worst['seats'])}"
                f"; an even share is {pct(fair)}.",
                worst["win_rate"],
                worst["win_rate_lo"],
                worst["win_rate_hi"],
                worst["seats"],
                "sets",
                name,
                abs(worst["win_rate"] - fair) - th.band,
            )
        )
    first = sets.win_rates(con, runs, ["board", "first"]).filter(pl.col("first"))
    for r in first.iter_rows(named=True):
        if r["board"] in fixed:
            continue
        fair = even[(r["board"],)]
        sev = two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
        if sev is not None:
            out.append(
                Finding(
                    "seat",
                    sev,
                    f"The first player wins {pct(r['win_rate'])} of games"
                    f"{on_board(r['board'], boards)} "
                    f"{span(r['win_rate_lo'], r['win_rate_hi'], r['seats'])}"
                    f"; an even share is {pct(fair)}.",
                    r["win_rate"],
                    r["win_rate_lo"],
                    r["win_rate_hi"],
                    r["seats"],
                    "sets",
                    r["board"],
                    abs(r["win_rate"] - fair) - th.band,
                )
            )
    return out


def _group_findings(
    rates: pl.DataFrame,
    keys: Sequence[str],
    even_keys: Sequence[str],
    kind: str,
    th: Thresholds,
    where: str,
) -> list[Finding]:
    even = _even_shares(rates, even_keys)
    out = []
    for r in rates.iter_rows(named=True):
        if r["dominant"] in (None, "mixed", "?"):
            continue
        fair = even[tuple(r[k] for k in even_keys)]
        sev = two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
        if sev is None:
            continue
        place = where.format(**r)
        out.append(
            Finding(
                kind,
                sev,
                f"Players whose store is mostly {r['dominant']} win {pct(r['win_rate'])}"
                f"{place} {span(r['win_rate_lo'], r['win_rate_hi'], r['seats'])}; an even share is "
                f"{pct(fair)}.",
                r["win_rate"],
                r["win_rate_lo"],
                r["win_rate_hi"],
                r["seats"],
                "sets",
                " ".join(str(r[k]) for k in keys),
                abs(r["win_rate"] - fair) - th.band,
            )
        )
    return out


def set_findings(
    con: duckdb.DuckDBPyConnection, runs: Sequence[int], th: Thresholds
) -> list[Finding]:
    """Win rate by dominant set outside the band (per board when the run has several), and per
    victory condition when the boards have more than one."""
    boards = query(
        con,
        f"""SELECT count(DISTINCT board) AS n, count(DISTINCT victory_kind) AS k
                           FROM run_boards WHERE run_id IN ({run_list(runs)})""",
    ).row(0)
    out: list[Finding] = []
    if boards[0] > 1:
        out += _group_findings(
            sets.win_rates(con, runs, ["board", "dominant"]),
            ["board", "dominant"],
            ["board"],
            "set",
            th,
            " on {board}",
        )
    else:
        out += _group_findings(
            sets.win_rates(con, runs, ["dominant"]), ["dominant"], [], "set", th, ""
        )
    if 1 < boards[1] < boards[0]:  # with one board per condition it repeats the split by board
        out += _group_findings(
            sets.win_rates(con, runs, ["victory", "dominant"]),
            ["victory", "dominant"],
            ["victory"],
            "victory",
            th,
            " on {victory} boards",
        )
    return out


# --- cards --------------------------------------------------------------------------------

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


def dead_cards(
    con: duckdb.DuckDBPyConnection,
    runs: Sequence[int],
    table: pl.DataFrame,
    th: Thresholds,
    picks: pl.DataFrame | None = None,
) -> pl.DataFrame:
    """Pool cards with a buy price that are never or rarely bought, and why: never drafted;
    drafted but (almost) never affordable at a buy step while in the store; or affordable but
    passed. `chances` is the sample behind the verdict (packs seen, or store turns). `table` is
    cards.card_table, `picks` draft.card_picks (computed when not given: it unnests every
    pack, the report's dearest query)."""
    picks = (draft.card_picks(con, runs) if picks is None else picks).select(
        "card", "seen", "picks"
    )
    chances = cards.buy_chances(con, runs)
    df = (
        chances.join(picks, on="card", how="left")
        .join(
            table.select("card", "in_store", "bought", "buy_rate", "buy_rate_lo", "buy_rate_hi"),
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


def _dead_detail(r: dict[str, object]) -> str:
    if r["reason"] == NEVER_DRAFTED:
        return f"{r['card']} (passed in {r['seen']} packs)"
    return (
        f"{r['card']} (buy {r['buy']}: affordable at {r['affordable_turns']:,} of "
        f"{r['store_turns']:,} buy steps; bought by {r['bought']} of {r['in_store']} "
        f"drafters)"
    )


def dead_card_findings(dead: pl.DataFrame, pool: int, th: Thresholds) -> list[Finding]:
    """One finding per reason: how many pool cards, which, and their numbers."""
    out = []
    for reason in (NEVER_DRAFTED, NEVER_AFFORDABLE, PASSED):
        rows = list(dead.filter(pl.col("reason") == reason).iter_rows(named=True))
        if not rows:
            continue
        sure = [r for r in rows if r["chances"] >= th.min_sample]
        sev = "high" if any(r["bought"] == 0 for r in sure) else "medium" if sure else "low"
        lo, hi = proportion_ci(len(rows), pool)
        names = "; ".join(_dead_detail(r) for r in rows[:3])
        more = f"; {len(rows) - 3} more in the table" if len(rows) > 3 else ""
        what = "never bought" if all(r["bought"] == 0 for r in rows) else "rarely or never bought"
        out.append(
            Finding(
                "dead card",
                sev,
                f"{len(rows)} of {pool} cards {'is' if len(rows) == 1 else 'are'} "
                f"{what} {WHY[reason]} "
                f"{span(lo, hi, pool)}: {names}{more}.",
                len(rows) / pool,
                lo,
                hi,
                pool,
                "cards",
                ", ".join(str(r["card"]) for r in rows),
                len(rows) / pool,
            )
        )
    return out


def kraken_findings(shares: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """Per board, the Kraken-like cards of `drafted.card_shares` (at the thresholds of `th`):
    drafted in many games, (almost) never bought by the seat that drafted them."""
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
        lo, hi = proportion_ci(len(rows), pool)
        names = "; ".join(
            f"{r['card']} (drafted in {r['games_drafted']:,} of {r['games']:,} games, bought by "
            f"{r['seats_bought']} of {r['seats_drafted']:,} drafting seats, taken at pick "
            f"{r['ata']:.1f} on average)"
            for r in rows[:3]
        )
        more = f"; {len(rows) - 3} more in the table" if len(rows) > 3 else ""
        out.append(
            Finding(
                "drafted never bought",
                sev,
                f"{len(rows)} of {pool} drafted cards"
                f"{on_board(board, boards)} {'is' if len(rows) == 1 else 'are'} Kraken-like, "
                "drafted in many games and (almost) never bought by the seat that drafted them "
                f"{span(lo, hi, pool)}: {names}{more}. Their picks go to cards the players do not "
                f"use: a drafter that drafts what its agent will not buy, or an agent that never "
                f"buys them.",
                len(rows) / pool,
                lo,
                hi,
                pool,
                "cards",
                ", ".join(str(r["card"]) for r in rows),
                len(rows) / pool,
            )
        )
    return out


# --- all of them ----------------------------------------------------------------------------


def findings(
    con: duckdb.DuckDBPyConnection,
    runs: Sequence[int],
    th: Thresholds | None = None,
    table: pl.DataFrame | None = None,
    dead: pl.DataFrame | None = None,
    shares: pl.DataFrame | None = None,
    extra: Sequence[Finding] = (),
) -> list[Finding]:
    """Every finding, ranked: by severity, agent caveats first, then by how far beyond its
    threshold. `table` (cards.card_table), `dead` (dead_cards) and `shares` (drafted.card_shares
    at the thresholds of `th`) are computed when not given; `extra` are ranked with them (the
    verdicts across skill of `report --skill-run`)."""
    th = th or Thresholds()
    table = cards.card_table(con, runs) if table is None else table
    dead = dead_cards(con, runs, table, th) if dead is None else dead
    shares = (
        drafted.card_shares(con, runs, th.kraken_drafted, th.kraken_bought)
        if shares is None
        else shares
    )
    pool = (
        query(
            con,
            f"""SELECT DISTINCT name FROM run_cards WHERE in_pool AND buy IS NOT NULL
                         AND run_id IN ({run_list(runs)})""",
        )
        .get_column("name")
        .to_list()
    )
    found = [
        *seat_findings(con, runs, th),
        *set_findings(con, runs, th),
        *card_findings(table, th),
        *dead_card_findings(dead, len(pool), th),
        *kraken_findings(shares, th),
        *economy_findings(con, runs, th),
        *shape_findings(con, runs, th),
        *agent_findings(con, runs, th, pool),
        *extra,
    ]
    # a caveat about the agents qualifies every other finding: it leads its severity
    return sorted(found, key=lambda f: (SEVERITIES.index(f.severity), f.kind != "agent", -f.excess))


def headline(found: Sequence[Finding], per_kind: int = 5) -> tuple[list[Finding], dict[str, int]]:
    """The short list to read first: at most `per_kind` findings of each kind, in rank order,
    and how many more of each kind the sections hold."""
    shown: list[Finding] = []
    left: dict[str, int] = {}
    for f in found:
        if sum(1 for g in shown if g.kind == f.kind) < per_kind:
            shown.append(f)
        else:
            left[f.kind] = left.get(f.kind, 0) + 1
    return shown, left


def as_frame(found: Sequence[Finding]) -> pl.DataFrame:
    """The findings as a table (rank from 1), for the report's files."""
    return pl.DataFrame(
        {
            "rank": list(range(1, len(found) + 1)),
            "severity": [f.severity for f in found],
            "kind": [f.kind for f in found],
            "subject": [f.subject for f in found],
            "finding": [f.text for f in found],
            "value": [f.value for f in found],
            "low": [f.low for f in found],
            "high": [f.high for f in found],
            "n": [f.n for f in found],
            "section": [f.section for f in found],
        },
        schema={
            "rank": pl.Int64,
            "severity": pl.String,
            "kind": pl.String,
            "subject": pl.String,
            "finding": pl.String,
            "value": pl.Float64,
            "low": pl.Float64,
            "high": pl.Float64,
            "n": pl.Int64,
            "section": pl.String,
        },
    )
