"""Findings of the study pages (`compare`, `sweep`, `tune`, `ablate`, `skill`) and of the
report's verdicts across skill (`report --skill-run`): what a designer should look at first, in
findings.py's Finding form (one sentence with its number, 95% interval and n, a severity, the
id of the section that shows it) and ranked the same way. Severity keeps findings.py's meaning,
how sure and how large: high when the whole interval lies beyond the threshold (or, for a fair
value, the interval is closed: an answer to act on), medium when the estimate does and the
interval excludes the neutral value (or one end is open), low when the sample cannot tell it
from noise.
"""

from __future__ import annotations

from collections.abc import Sequence
from typing import TYPE_CHECKING, Any

import polars as pl

from workbench.analysis.compare import rate_change_interval
from workbench.analysis.findings import NO_ESTIMATE, TOO_STRONG, TOO_WEAK
from workbench.analysis.severity import (
    SEVERITIES,
    Finding,
    Thresholds,
    num,
    pct,
    span,
    two_sided,
)
from workbench.analysis.stability import DIFFERS, unstable
from workbench.analysis.stats import ALPHA, MIN_SAMPLE

if TYPE_CHECKING:
    from workbench.studies.ablation import Ablation
    from workbench.studies.fairvalue import FairValue
    from workbench.studies.tune import CardTuning

METRIC_WORDS = {
    "wr_in_store": "win rate in store",
    "wr_bought": "win rate when bought",
    "buy_rate": "buy rate",
    "pick_rate": "pick rate",
    "win_rate": "win rate",
    "bought_gain": "improvement when bought",
}
COMPARE_SECTIONS = {"card": "cards", "dominant set": "sets", "seat": "sets"}


def ranked(found: Sequence[Finding]) -> list[Finding]:
    """Most severe first, then furthest beyond the threshold (findings.findings' order)."""
    return sorted(found, key=lambda f: (SEVERITIES.index(f.severity), -f.excess))


def _subject(what: str, name: str) -> str:
    """`card Scout`, `set Alpha`, `seat 2 on Tiny Duel` (the name of a seat row is
    'BOARD SEAT', its seat already counted from 1)."""
    if what == "seat":
        board, seat = name.rsplit(" ", 1)
        return f"seat {seat} on {board}"
    return f"{'set' if what == 'dominant set' else what} {name}"


def compare_findings(
    changes: pl.DataFrame, significant: pl.DataFrame, tests: int, th: Thresholds | None = None
) -> list[Finding]:
    """A comparison's findings: every rate that moved significantly after Holm's correction
    (high when its whole interval lies beyond the band), what changed in the content, and a
    warning when rates moved with nothing changed or nothing moved with something changed.
    `changes` and `significant` are analysis.compare's content_changes and significant."""
    th = th or Thresholds()
    out = [_moved(r, th) for r in significant.iter_rows(named=True)]
    if changes.height:
        out.append(_content_changed(changes))
    if significant.height and not changes.height:
        out.append(_moved_by_play(significant.height, tests))
    if changes.height and not significant.height:
        out.append(
            Finding(
                "no effect",
                "low",
                f"No rate moved more than chance explains after Holm's "
                f"correction (p < {ALPHA}, n={tests} tests): the changes have no effect these "
                f"games can show; more games would show a smaller one.",
                0.0,
                None,
                None,
                tests,
                "answers",
                "significant",
            )
        )
    return ranked(out)


def _moved(r: dict[str, Any], th: Thresholds) -> Finding:
    """A rate or effect that moved significantly (`r`: a row of compare's significant), with
    its change's interval: an effect's own (in points), Newcombe's for a rate."""
    base, cand, n_a, n_b = r["base"], r["candidate"], r["n_base"], r["n_candidate"]
    effect = r.get("low") is not None
    lo, hi = (r["low"], r["high"]) if effect else rate_change_interval(base, n_a, cand, n_b)
    change = cand - base
    sev = "high" if lo > th.band or hi < -th.band else "medium"
    ends = [num(100 * v, True) if effect else pct(v) for v in (base, cand)]
    return Finding(
        "difference",
        sev,
        f"The {METRIC_WORDS.get(r['metric'], r['metric'])} of "
        f"{_subject(r['what'], r['name'])} {'rises' if change > 0 else 'falls'} from "
        f"{ends[0]} to {ends[1]}{' points' if effect else ''}: {num(100 * change, True)} points "
        f"{span(lo, hi, n_a + n_b, ' points')}, Holm-corrected p = {r['p_holm']:.2g}.",
        change,
        lo,
        hi,
        n_a + n_b,
        COMPARE_SECTIONS.get(r["what"], "answers"),
        f"{r['what']} {r['name']}",
        abs(change),
    )


def _content_changed(changes: pl.DataFrame) -> Finding:
    """What changed in the spreadsheets and settings between the runs (the first four)."""
    rows = list(changes.iter_rows(named=True))
    words = [
        f"{r['name']} {r['field']} {r['base']} -> {r['candidate']}"
        if r["change"] == "changed"
        else f"{r['name']} {r['change']}"
        for r in rows
    ]
    shown = "; ".join(words[:4]) + (f"; {len(words) - 4} more" if len(words) > 4 else "")
    return Finding(
        "content",
        "medium",
        f"{len(rows)} field{'s' if len(rows) > 1 else ''} of the "
        f"spreadsheets and settings changed (n={len(rows)}): {shown}.",
        len(rows),
        None,
        None,
        len(rows),
        "answers",
        "changes",
        0.0,
    )


def _moved_by_play(moved: int, tests: int) -> Finding:
    """Rates that moved with the content unchanged: the play itself differs, which qualifies
    every other difference, so it leads (its excess beyond any change's, at most 1)."""
    return Finding(
        "content",
        "high",
        f"{moved} rate{'s' if moved > 1 else ''}"
        f" moved significantly although the runs' content and settings are the same "
        f"(n={tests} tests): the difference comes from the play itself, not the cards.",
        moved,
        None,
        None,
        tests,
        "answers",
        "significant",
        1.0,
    )


def _ends(lo: float | None, hi: float | None) -> str:
    return f"{'open' if lo is None else f'{lo:.2f}'}–{'open' if hi is None else f'{hi:.2f}'}"


def sweep_findings(
    fair: FairValue, metrics: pl.DataFrame, target: float, swept: str, card: str, section: str
) -> list[Finding]:
    """Where the fair value of `swept` lies (high with a closed interval, medium with an open
    end, whose words say what would close it, low without an estimate), and the values whose
    sample is too small to weigh. `metrics`: workbench.studies.sweep's card or board metrics."""
    n_col, what = (
        ("bought", "the improvement when bought")
        if card
        else ("first_games", "the first player's advantage")
    )
    n = int(metrics.get_column(n_col).fill_null(0).sum())
    out = [_fair_value(fair, target, swept, what, n, section)]
    small = [
        (r["value"], int(r[n_col] or 0))
        for r in metrics.iter_rows(named=True)
        if r["value"] is not None and int(r[n_col] or 0) < MIN_SAMPLE
    ]
    if small:
        at = ", ".join(f"{v} (n={k})" for v, k in small)
        out.append(
            Finding(
                "small sample",
                "low",
                f"At {swept} = {at} fewer than {MIN_SAMPLE} observations "
                f"back the point (n={sum(k for _, k in small):,}): it is grey on the chart and "
                "weighs little in the fit; more games would firm it up.",
                len(small),
                None,
                None,
                sum(k for _, k in small),
                section,
                swept,
            )
        )
    return ranked(out)


def _fair_value(
    fair: FairValue, target: float, swept: str, what: str, n: int, section: str
) -> Finding:
    """Where `what` crosses `target` (its interval closed or open), or that it does not."""
    if fair.estimate is None:
        return Finding(
            "fair value",
            "low",
            f"No fair value for {swept}: {what} does not cross "
            f"{target:+.2f} in the swept range (n={n:,}); {fair.note.rstrip('.')}.",
            float("nan"),
            None,
            None,
            n,
            section,
            swept,
        )
    closed = fair.low is not None and fair.high is not None
    return Finding(
        "fair value",
        "high" if closed else "medium",
        f"{what.capitalize()} crosses "
        f"{target:+.2f} at {swept} = {fair.estimate:.2f} (95% interval "
        f"{_ends(fair.low, fair.high)}, n={n:,})"
        + ("." if closed else f"; {fair.note.rstrip('.')}."),
        fair.estimate,
        fair.low,
        fair.high,
        n,
        section,
        swept,
        1.0 if closed else 0.0,
    )


def tune_findings(
    tunings: Sequence[CardTuning], unused: Sequence[str], unseen: Sequence[str]
) -> list[Finding]:
    """Tuning's findings, ranked by the size of the effect that flagged the card: each proposal
    whose effect lands inside the band and is confirmed on fresh seeds (high), inside but not
    confirmed (medium), each card no price in range brings inside the band (medium, saying so),
    the cards the agents do not use (low: not tuned) and those never drafted (low). Section:
    `proposals`, or `flagged` for the cards not tuned."""
    out = [_tuning(t) for t in tunings]
    for kind, names, words in (
        ("not tuned", unused, "the agents do not use, so not tuned (no verdict)"),
        ("not judged", unseen, "never drafted in the judging run, so not judged"),
    ):
        if names:
            out.append(
                Finding(
                    kind,
                    "low",
                    f"{len(names)} card{'s' if len(names) > 1 else ''} of the set "
                    f"{words} (n={len(names)}): {', '.join(names)}.",
                    len(names),
                    None,
                    None,
                    len(names),
                    "flagged",
                    ", ".join(names),
                )
            )
    return ranked(out)


def _tuning(t: CardTuning) -> Finding:
    """One flagged card's search: the move and its effect, or that no price gets there."""
    why = (
        f"effect {num(100 * t.effect, True)} points "
        f"({num(100 * t.low, True)} to {num(100 * t.high, True)}) by randomised buying"
    )
    o = t.outcome
    move = f"{t.field} {t.current} -> {t.proposed}" if t.proposed is not None else "no proposal"
    severity = "high" if o.confirmed else "medium"
    return Finding(
        "proposal" if o.reached else "no price gets there",
        severity,
        f"{t.card} ({t.verdict}: {why}): {move}; {t.note.rstrip('.')}.",
        float(t.proposed if t.proposed is not None else t.current),
        t.low,
        t.high,
        len(o.probes),
        "proposals",
        t.card,
        abs(t.effect),
    )


def ablation_findings(card: str, result: Ablation, th: Thresholds | None = None) -> list[Finding]:
    """The causal change in the holders' win rate when the card is replaced by its baseline,
    with its interval; severity as a seat's (outside ± band around no change)."""
    th = th or Thresholds()
    sev = two_sided(result.change, result.low, result.high, 0.0, result.seats, th)
    verdict = (
        "worth more than a plain card of its costs"
        if result.change > 0
        else "worth less than a plain card of its costs"
    )
    tail = (
        f"the card is {verdict}"
        if sev in ("high", "medium")
        else "these games cannot tell the card from a plain one of its costs"
    )
    return [
        Finding(
            "ablation",
            sev or "low",
            f"{card} changes its holders' win rate by "
            f"{num(100 * result.change, True)} points against a plain baseline "
            f"{span(result.low, result.high, result.seats, ' points')} ({pct(result.with_card)} "
            f"with it, {pct(result.with_baseline)} with the baseline): {tail}.",
            result.change,
            result.low,
            result.high,
            result.seats,
            "ablation",
            card,
            abs(result.change) - th.band,
        )
    ]


def skill_findings(card: str, table: pl.DataFrame, th: Thresholds | None = None) -> list[Finding]:
    """Verdicts that change with agent strength: the improvement when bought pointing opposite
    ways for two agents (high when both intervals exclude zero, else low), each agent whose
    improvement lies outside the band (severity as a card's band check), and the agents without
    an estimate (every holder bought it, or none did). `table`: workbench.studies.skill.skill_table,
    weakest agent first."""
    th = th or Thresholds()
    rows = [r for r in table.iter_rows(named=True) if r["bought_gain"] is not None]
    out = _verdict_flips(card, rows)
    for r in rows:
        sev = two_sided(
            r["bought_gain"],
            r["bought_gain_lo"],
            r["bought_gain_hi"],
            0.0,
            int(r["bought"] or 0),
            th,
        )
        if sev is not None:
            verdict = "too strong" if r["bought_gain"] > 0 else "too weak"
            out.append(
                Finding(
                    "agent verdict",
                    sev,
                    f"{card} looks {verdict} {_gain(r)}.",
                    r["bought_gain"],
                    r["bought_gain_lo"],
                    r["bought_gain_hi"],
                    int(r["bought"] or 0),
                    "skill",
                    str(r["agent"]),
                    abs(r["bought_gain"]) - th.band,
                )
            )
    blind = [str(r["agent"]) for r in table.iter_rows(named=True) if r["bought_gain"] is None]
    if blind:
        out.append(_no_estimate(card, blind))
    return ranked(out)


def _gain(r: dict[str, Any]) -> str:
    """An agent's improvement when bought, in words (`r`: its skill_table row)."""
    n = int(r["bought"] or 0)
    return (
        f"{num(100 * r['bought_gain'], True)} points "
        f"{span(r['bought_gain_lo'], r['bought_gain_hi'], n, ' points')} with "
        f"{r['agent']}"
    )


def _verdict_flips(card: str, rows: Sequence[dict[str, Any]]) -> list[Finding]:
    """The strongest gain against the strongest loss, when agents disagree on the sign: the
    page's question, so it leads (its excess above every band check's)."""
    up = [r for r in rows if r["bought_gain"] > 0]
    down = [r for r in rows if r["bought_gain"] < 0]
    if not (up and down):
        return []
    a = max(up, key=lambda r: r["bought_gain"])
    b = min(down, key=lambda r: r["bought_gain"])
    sure = a["bought_gain_lo"] > 0 and b["bought_gain_hi"] < 0
    return [
        Finding(
            "verdict flips",
            "high" if sure else "low",
            f"{card}'s verdict depends on agent "
            f"strength: improvement when bought {_gain(a)}, {_gain(b)}"
            + ("." if sure else "; the intervals overlap zero, so more games would tell."),
            a["bought_gain"] - b["bought_gain"],
            None,
            None,
            int(a["bought"] or 0) + int(b["bought"] or 0),
            "skill",
            card,
            1.0 + a["bought_gain"] - b["bought_gain"],
        )
    ]


def _no_estimate(card: str, blind: Sequence[str]) -> Finding:
    """The agents with no improvement when bought: no one to compare the buyers with."""
    return Finding(
        "no estimate",
        "low",
        f"No improvement when bought for {card} with "
        f"{', '.join(blind)} (n={len(blind)} agent{'s' if len(blind) > 1 else ''}): its "
        "holders either all bought it or none did, so there is no one to compare the "
        "buyers with; the win rate when bought per agent is in the table.",
        float(len(blind)),
        None,
        None,
        len(blind),
        "skill",
        ", ".join(blind),
    )


def stability_findings(table: pl.DataFrame, players: Sequence[str], section: str) -> list[Finding]:
    """Verdicts that depend on the player's skill: one finding naming every card whose verdict
    (findings.card_verdict) differs between two players that judged it, high when two of them
    point opposite ways (too strong against too weak), else medium (one sees a problem the
    other does not: a caveat on acting on either verdict alone). `table`:
    stability.verdict_table; n the cards every player judged."""
    cols = [f"verdict@{p}" for p in players]
    judged = table.filter(pl.all_horizontal(pl.col(c) != NO_ESTIMATE for c in cols)).height
    rows = list(unstable(table).iter_rows(named=True))
    if not rows:
        return []

    def opposite(r: dict[str, Any]) -> bool:
        return {TOO_STRONG, TOO_WEAK} <= {r[c] for c in cols}

    rows.sort(key=lambda r: (not opposite(r), r["card"]))
    words = [f"{r['card']} ({r['across_skill'].removeprefix(f'{DIFFERS}: ')})" for r in rows[:6]]
    more = f"; {len(rows) - 6} more in the table" if len(rows) > 6 else ""
    sure = opposite(rows[0])
    return [
        Finding(
            "agent",
            "high" if sure else "medium",
            f"Verdicts that depend on the player's skill "
            f"({len(rows)} of {judged} cards judged by {', '.join(players)}; n={judged}): "
            f"{'; '.join(words)}{more}."
            + (
                ""
                if sure
                else " One player's verdict survives the multiple-comparison control, "
                "another's does not: act on neither alone; more games would tell."
            ),
            float(len(rows)),
            None,
            None,
            judged,
            section,
            ", ".join(str(r["card"]) for r in rows),
            float(len(rows)),
        )
    ]
