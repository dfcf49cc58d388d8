"""A verdict for every card of the pool, with the estimator that supports it (DESIGN.md,
"Verdicts").

With a design run (workbench/analysis/causal.py) the verdict rests on the card's causal effect:
too strong or too weak when the effect lies beyond +-`card_band` after Benjamini-Hochberg's
correction over the cards (the test is of "the effect lies inside the band", its p-value taken
at the band's edge: band_test; the same control of false discoveries as the observational
verdict, card_findings.card_verdict), fine when it does not, with the smallest effect the run
could have found (80% power at the level the correction reached); "the
agents do not use it" when the seats made to buy it hardly ever play it (its worth is beyond
what these agents show, so no verdict); no estimate when too few seats held it, with the games
of the design that would give one. Without a design run the verdict is the observational
improvement when bought (card_findings.card_verdict), marked as such.

Beside the verdict stands the rest of the evidence (card_evidence.py): the win rate when
drafted against the base rate, the first-pick share and what the card did per resource paid
against its set's curve, from the reported runs (the agents' own play, unless those runs
played the design). They inform; they do not decide.
"""

from __future__ import annotations

import math
from collections.abc import Sequence

import polars as pl
from scipy import stats

from workbench.analysis import card_evidence, card_findings, cards, causal
from workbench.analysis.causal import MIN_ARM
from workbench.analysis.runs import Runs, cached
from workbench.analysis.severity import Finding, Thresholds, num, pct, span
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, benjamini_hochberg

TOO_STRONG, TOO_WEAK, FINE = card_findings.TOO_STRONG, card_findings.TOO_WEAK, card_findings.FINE
NOT_USED, NO_ESTIMATE = "agents do not use it", card_findings.NO_ESTIMATE
VERDICTS = (TOO_STRONG, TOO_WEAK, FINE, NOT_USED, NO_ESTIMATE)

CAUSAL = "randomised buying"
OBSERVATIONAL = "observational: improvement when bought"
USE_MIN = 0.25
"""A card whose forced buyers play it in fewer of their games than this is one the agents do
not use (a unit is played by 70-100% of them, BENCHMARKS.md)."""
PRICED_OUT = 0.20
"""A card fewer of whose forced seats than this could buy it is priced out of play: too weak
for its price whatever its effect (which then measures the seats' wait for it)."""
POWER = 0.80
"""The power at which a "fine" states the smallest effect the run could have found."""
WIDTH = 0.10
"""The half-width of interval a "no estimate" names the games for."""

SCHEMA: dict[str, type[pl.DataType]] = {
    "card": pl.String,
    "set": pl.String,
    "type": pl.String,
    "verdict": pl.String,
    "estimator": pl.String,
    "effect": pl.Float64,
    "low": pl.Float64,
    "high": pl.Float64,
    "n": pl.Int64,
    "severity": pl.String,
    "p": pl.Float64,
    "bh": pl.Float64,
    "smallest_found": pl.Float64,
    "n_forced": pl.Int64,
    "n_banned": pl.Int64,
    "wr_forced": pl.Float64,
    "wr_banned": pl.Float64,
    "bought_forced": pl.Int64,
    "played_forced": pl.Int64,
    "why": pl.String,
    **card_evidence.SCHEMA,
}
"""The verdict table (report table `card_verdicts`): one row per pool card with a buy price.
`effect`, `low`, `high`: the estimate and its 95% interval (win-rate points as a share);
`n`: the seats it rests on; `p`/`bh`: the test of "the effect lies within the band", raw
and Benjamini-Hochberg-adjusted over the cards (observational: of the improvement when
bought); `smallest_found`: for a fine card, the effect the run finds with 80% power.

The evidence beside it, from the reported runs (card_evidence.py; counts 0 and rates NULL for
a card they never drafted, saw or paid for):
`evidence`: whose play it is, "agents' own play (run ...)" or "randomised buying design
(run ...)" when the reported runs played the design;
`drafted`: seat-games holding a drafted copy; `wr_drafted` (`_lo`, `_hi`): their win rate with
its Wilson interval (cards.card_results' win rate in store; a draw is not a win);
`wr_base`: the base rate, the mean win rate of all the runs' seats;
`seen_first`: first picks of a pack round whose pack held it; `first_pick` (`_lo`, `_hi`): the
share of those that took it (draft.card_picks' first-pick rate, Wilson);
`paid`: resource paid for it, buy, play and upkeep (summary_cards.paid); `damage`: damage it
dealt (cards.card_effects); `gained`: resource its effects gained (summary_damage.gained);
`dmg_per_paid`, `gain_per_paid`: damage and gained per resource paid (NULL when nothing was
paid); `dmg_curve`, `gain_curve`: the set's curve, the median of those ratios over the pool
cards of the same set and type (the card included; cards never paid for do not count)."""


def band_test(effect: float, se: float, band: float) -> float:
    """p-value of "the effect lies within +-band": the chance of an estimate at least as far
    from zero, on either side, were the true effect at the band's edge (the likeliest point of
    that null; a smaller true effect makes a far estimate rarer), capped at 1. Doubling the
    nearer edge's tail instead would halve the test's size and cost 0.2-0.3 standard errors
    of reach (docs/design-studies.md)."""
    if se <= 0 or not math.isfinite(se):
        return math.nan
    far = abs(effect)
    return min(1.0, float(stats.norm.sf((far - band) / se) + stats.norm.sf((far + band) / se)))


def smallest_found(se: float, band: float, level: float, power: float = POWER) -> float:
    """The effect beyond the band that the band test at `level` finds with `power`: the band
    plus (z at level + z at power) standard errors (the far edge's tail is negligible)."""
    z = stats.norm.isf(level) + stats.norm.ppf(power)
    return band + float(z) * se


def bh_level(pvalues: Sequence[float], alpha: float = ALPHA) -> float:
    """The raw p-value at which Benjamini-Hochberg's step-up would also reject a card it did not
    reject: with R rejections among m tests, (R + 1) alpha / m (the card would join them at
    rank R + 1); alpha / m, its first step, when it rejects none."""
    ordered = sorted(p for p in pvalues if not math.isnan(p))
    m = max(len(ordered), 1)
    rejected = max((k for k, p in enumerate(ordered, 1) if p <= k * alpha / m), default=0)
    return min(1.0, (rejected + 1) * alpha / m)


def causal_verdicts(
    effects: pl.DataFrame, pool: pl.DataFrame, th: Thresholds, games: int, runs: Sequence[int]
) -> pl.DataFrame:
    """Every pool card's verdict from the design runs' effects (causal.card_effects). `pool`:
    card, set, type; `games`: the design runs' games (for the games a missing estimate needs)."""
    band = th.card_band
    rows = {r["card"]: r for r in effects.iter_rows(named=True)}
    estimator = f"{CAUSAL} (run {', '.join(map(str, runs))})"
    tested = [
        c
        for c, r in rows.items()
        if r["effect"] is not None
        and not unused(r)
        and not priced_out(r)
        and c in set(pool.get_column("card"))
    ]
    ps = [band_test(rows[c]["effect"], rows[c]["se"], band) for c in tested]
    adjusted = dict(zip(tested, benjamini_hochberg(ps), strict=True))
    raw = dict(zip(tested, ps, strict=True))
    level = bh_level(ps)
    out = []
    for card, set_name, kind in pool.select("card", "set", "type").iter_rows():
        r = rows.get(card)
        base = _evidence(card, set_name, kind, estimator, r)
        if r is not None and priced_out(r):
            out.append({**base, **_priced_out(r, th.min_sample)})
        elif r is None or r["effect"] is None:
            out.append({**base, **_no_estimate(r, games)})
        elif unused(r):
            out.append({**base, **_not_used(r)})
        else:
            out.append(
                {**base, **_judged(r, raw[card], adjusted[card], band, level, th.strong_gain)}
            )
    return pl.DataFrame(out, schema=SCHEMA)


def _evidence(
    card: str, set_name: str, kind: str, estimator: str, r: dict[str, object] | None
) -> dict[str, object]:
    """The columns every row has, from the card's effect row (if any)."""
    row: dict[str, object] = r or {}
    get = row.get
    return {
        "card": card,
        "set": set_name,
        "type": kind,
        "estimator": estimator,
        "effect": get("effect"),
        "low": get("low"),
        "high": get("high"),
        "n": get("n") or 0,
        "n_forced": get("n_forced") or 0,
        "n_banned": get("n_banned") or 0,
        "wr_forced": get("wr_forced"),
        "wr_banned": get("wr_banned"),
        "bought_forced": get("bought_forced") or 0,
        "played_forced": get("played_forced") or 0,
    }


def priced_out(r: dict[str, object]) -> bool:
    """Hardly any of the seats made to buy it could pay for it (fewer than PRICED_OUT of at
    least MIN_ARM): its price keeps it out of play. A row of causal.card_effects."""
    n, bought = int(str(r["n_forced"] or 0)), int(str(r["bought_forced"] or 0))
    return n >= MIN_ARM and bought < PRICED_OUT * n


def unused(r: dict[str, object]) -> bool:
    """Not priced out, but its forced buyers hardly play it (or too few bought it to tell):
    a row of causal.card_effects."""
    bought, played = int(str(r["bought_forced"] or 0)), int(str(r["played_forced"] or 0))
    return not priced_out(r) and (bought < MIN_ARM or played < USE_MIN * bought)


def _priced_out(r: dict[str, object], min_sample: int) -> dict[str, object]:
    n, bought = int(str(r["n_forced"])), int(str(r["bought_forced"]))
    why = (
        f"of {n} seats made to buy it (saving for it first), only {bought} could pay for it "
        f"({pct(bought / n)}): its price keeps it out of play"
    )
    return {"verdict": TOO_WEAK, "severity": "high" if n >= min_sample else "medium", "why": why}


def _no_estimate(r: dict[str, object] | None, games: int) -> dict[str, object]:
    n = int(str(r["n"])) if r is not None else 0
    if n == 0:
        why = f"no seat drafted it in the design run's {games:,} games"
    else:
        # an interval of +-WIDTH needs about (1.96 / WIDTH)^2 seats (a win rate's variance
        # at most 1/4, in two arms of half the seats each)
        needed = math.ceil((1.96 / WIDTH) ** 2 / (n / games)) if games else 0
        why = (
            f"held by {n} seats of {games:,} games ({r['n_forced'] if r else 0} forced, "
            f"{r['n_banned'] if r else 0} banned; {MIN_ARM} in each arm needed): about "
            f"{needed:,} games of the design would give an interval of +-{100 * WIDTH:.0f} "
            "points"
        )
    return {"verdict": NO_ESTIMATE, "severity": "low", "why": why}


def _not_used(r: dict[str, object]) -> dict[str, object]:
    bought, played = int(str(r["bought_forced"])), int(str(r["played_forced"]))
    why = (
        f"of {r['n_forced']} seats made to buy it, {bought} bought a copy and {played} of "
        f"those played one ({pct(played / bought) if bought else 'none'}): the agents "
        "do not play it once they own it, so its effect measures the agents, not the card"
        if bought >= MIN_ARM
        else f"of {r['n_forced']} seats made to buy it only {bought} bought it: too few "
        "to tell what it does"
    )
    return {"verdict": NOT_USED, "severity": "medium", "why": why}


def _judged(
    r: dict[str, object], p: float, adjusted: float, band: float, level: float, strong: float
) -> dict[str, object]:
    effect, low, high = float(str(r["effect"])), float(str(r["low"])), float(str(r["high"]))
    se = float(str(r["se"]))
    if adjusted < ALPHA:
        verdict = TOO_STRONG if effect > 0 else TOO_WEAK
        sure = (low > band or high < -band) and abs(effect) >= strong
        why = (
            f"seats made to buy it win {pct(float(str(r['wr_forced'])))}, seats barred from "
            f"it {pct(float(str(r['wr_banned'])))}: {num(100 * effect, True)} points, beyond "
            f"+-{100 * band:.0f} after Benjamini-Hochberg's correction (q {adjusted:.2g})"
        )
        return {
            "verdict": verdict,
            "severity": "high" if sure else "medium",
            "p": p,
            "bh": adjusted,
            "why": why,
        }
    least = smallest_found(se, band, level)
    return {
        "verdict": FINE,
        "severity": "",
        "p": p,
        "bh": adjusted,
        "smallest_found": least,
        "why": f"effect {num(100 * effect, True)} points; the run would have found one beyond "
        f"+-{100 * least:.0f} points (80% power)",
    }


def observational_verdicts(table: pl.DataFrame, pool: pl.DataFrame) -> pl.DataFrame:
    """Every pool card's verdict from the improvement when bought (cards.card_table), for runs
    without a design run: marked as observational, and "no estimate" where nobody (or
    everybody) bought it."""
    rows = {r["card"]: r for r in table.iter_rows(named=True)}
    out = []
    for card, set_name, kind in pool.select("card", "set", "type").iter_rows():
        r = rows.get(card)
        gain = r["bought_gain"] if r else None
        verdict = card_findings.card_verdict(gain, r["bought_gain_bh"] if r else None)
        why = (
            "no randomised run of this setup: `workbench simulate --design causal` with the "
            "same sets and boards gives the causal estimate"
        )
        if verdict == NO_ESTIMATE:
            why = f"{'never drafted' if not r else 'bought by every or no holder'}; " + why
        out.append(
            {
                "card": card,
                "set": set_name,
                "type": kind,
                "verdict": verdict,
                "estimator": OBSERVATIONAL,
                "effect": gain,
                "low": r["bought_gain_lo"] if r else None,
                "high": r["bought_gain_hi"] if r else None,
                "n": r["in_store"] if r else 0,
                "severity": "low" if verdict in (TOO_STRONG, TOO_WEAK, NO_ESTIMATE) else "",
                "p": r["bought_gain_p"] if r else None,
                "bh": r["bought_gain_bh"] if r else None,
                "why": why,
            }
        )
    return pl.DataFrame(out, schema=SCHEMA)


def verdict_findings(verdicts: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """One finding per card judged too strong or too weak (naming its estimator and interval),
    one on the cards the agents do not use, one on the cards without an estimate, and one on
    what the fine cards' run could have found."""
    out = []
    for r in verdicts.filter(pl.col("verdict").is_in([TOO_STRONG, TOO_WEAK])).iter_rows(named=True):
        effect = float(r["effect"])
        observed = r["estimator"] == OBSERVATIONAL
        out.append(
            Finding(
                "card",
                "low" if observed else r["severity"],
                f"{r['card']} looks {r['verdict']} by {r['estimator']}: "
                f"{num(100 * effect, True)} points {span(r['low'], r['high'], r['n'], ' points')}"
                + (
                    " (who buys it is the agent's choice, so this can be confounded; a "
                    "randomised run, `simulate --design causal`, would settle it)."
                    if observed
                    else f"; {r['why']}."
                ),
                effect,
                r["low"],
                r["high"],
                int(r["n"]),
                "cards",
                r["card"],
                abs(effect),
            )
        )
    out += _group_findings(verdicts, th)
    return out


def _group_findings(verdicts: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """The cards the agents cannot judge, those without an estimate, and the power of the
    fine ones."""
    return [
        *_listed(verdicts, NOT_USED, "agent", "medium", _UNUSED),
        *_listed(
            verdicts,
            NO_ESTIMATE,
            "no estimate",
            "low",
            "{k} of {pool} cards have no estimate: {names}.",
        ),
        *_fine(verdicts, th),
    ]


_UNUSED = (
    "What the agents cannot tell: {k} of {pool} cards get no verdict because the agents do "
    "not use them: {names}. Their worth needs an agent that plays them (or a person)."
)


def _listed(
    verdicts: pl.DataFrame, verdict: str, kind: str, severity: str, words: str
) -> list[Finding]:
    """One finding naming every card of `verdict`, the first three with their reason."""
    pool = verdicts.height
    rows = list(verdicts.filter(pl.col("verdict") == verdict).iter_rows(named=True))
    if not rows:
        return []
    names = card_findings.listed(
        rows,
        lambda r: f"{r['card']} ({r['type'] + ': ' if verdict == NOT_USED else ''}{r['why']})",
    )
    text = words.format(k=len(rows), pool=pool, names=names)
    return [card_findings.over_cards(kind, severity, text, rows, pool)]


def _fine(verdicts: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """The fine cards and the smallest effect their run would have found."""
    fine = verdicts.filter(
        (pl.col("verdict") == FINE) & pl.col("smallest_found").is_not_null()
    ).get_column("smallest_found")
    if not fine.len():
        return []
    values = sorted(float(v) for v in fine.to_list())
    lo, mid, hi = values[0], values[len(values) // 2], values[-1]
    return [
        Finding(
            "fine cards",
            "low",
            f"{fine.len()} of {verdicts.height} cards are fine by {CAUSAL}: none is beyond "
            f"+-{100 * th.card_band:.0f} points after Benjamini-Hochberg's correction. The run "
            f"would have found an effect beyond +-{100 * mid:.0f} points (median over them; "
            f"{100 * lo:.0f} to {100 * hi:.0f}) with 80% power; smaller ones it cannot "
            "rule out (each card's figure is in the verdict table).",
            mid,
            lo,
            hi,
            verdicts.height,
            "cards",
            "",
            0.0,
        )
    ]


def worthless(verdicts: pl.DataFrame) -> set[str]:
    """The cards a randomised buyer finds worthless: too weak, or fine but surely no gain (the
    interval's top below zero: buying it loses games). Empty for observational verdicts."""
    causal = verdicts.filter(pl.col("estimator").str.starts_with(CAUSAL))
    return set(
        causal.filter(
            (pl.col("verdict") == TOO_WEAK) | ((pl.col("verdict") == FINE) & (pl.col("high") < 0))
        )
        .get_column("card")
        .to_list()
    )


def worth_buying(verdicts: pl.DataFrame) -> dict[str, bool | None]:
    """Card -> whether a randomised buyer finds it worth buying, for the cards the design
    judged (a verdict that is no "no estimate" nor "the agents do not use it"): True when too
    strong or fine with the whole interval above zero (buying it surely wins games), False when
    `worthless`, None when the interval holds zero (the run cannot tell the card from no
    effect, so it says neither). Empty for observational verdicts."""
    causal = verdicts.filter(
        pl.col("estimator").str.starts_with(CAUSAL)
        & pl.col("verdict").is_in([TOO_STRONG, FINE, TOO_WEAK])
    )
    bad = worthless(verdicts)
    out: dict[str, bool | None] = {}
    for row in causal.select("card", "verdict", "low").iter_rows(named=True):
        card, low = str(row["card"]), row["low"]
        sure = row["verdict"] == TOO_STRONG or (low is not None and low > 0)
        out[card] = False if card in bad else True if sure else None
    return out


@cached
def card_verdicts(r: Runs) -> pl.DataFrame:
    """Every pool card of the runs with its verdict: from the context's design runs
    (`r.design`: the runs themselves if they played the design, else the file's design runs of
    the same setup, unless others were given), else observational from cards.card_table;
    beside it the evidence of the runs (card_evidence.py)."""
    pool = query(
        r.con,
        f"""SELECT name AS card, any_value("set") AS "set", any_value(type) AS type
            FROM run_cards WHERE in_pool AND buy IS NOT NULL AND run_id IN ({run_list(r.runs)})
            GROUP BY ALL ORDER BY card""",
    )
    if not r.design:
        judged = observational_verdicts(cards.card_table(r), pool)
    else:
        games = int(
            r.con.execute(
                f"SELECT count(*) FROM games WHERE run_id IN ({run_list(r.design)})"
            ).fetchall()[0][0]
        )
        judged = causal_verdicts(causal.effects(r.of(r.design)), pool, r.th, games, r.design)
    evidence = card_evidence.card_evidence(r, pool)
    return judged.drop(*card_evidence.SCHEMA).join(evidence, on="card", how="left").select(*SCHEMA)
