"""The page and the terminal summary of `workbench compare`: two runs side by side, the answers
first (what changed in the runs' stored spreadsheets and settings, and which rates moved
significantly after the correction for multiple tests); then every rate."""

from __future__ import annotations

from dataclasses import dataclass
from pathlib import Path
from typing import Any

import polars as pl

from reports import balance, html
from reports.html import Section, Table
from workbench.analysis import compare, shape
from workbench.analysis.runs import Runs
from workbench.analysis.severity import num
from workbench.analysis.source import open_db, resolve_runs
from workbench.analysis.stats import ALPHA, difference_summary
from workbench.studies import findings as study_findings


def _tested(
    name: str,
    title: str,
    df: pl.DataFrame,
    rates: dict[str, str],
    prefixes: list[str],
    key: list[str],
) -> Table:
    notes = []
    for p in prefixes:
        s = difference_summary(df, f"{p}_change")
        notes.append(
            f"{p}: {s['tests']:.0f} tests, {s['raw_below_alpha']:.0f} below p = "
            f"{ALPHA} (about {s['expected_by_chance']:.1f} expected by chance), "
            f"{s['holm_significant']:.0f} after Holm, {s['bh_significant']:.0f} after "
            f"Benjamini-Hochberg"
        )
    show = key + [
        c for p in prefixes for c in (f"{p}_base", f"{p}_cand", f"{p}_change", f"{p}_change_holm")
    ]
    return Table(
        name,
        title,
        df,
        rates,
        show,
        "; ".join(notes) + ". Red: significant (Holm).",
        {f"{p}_change_significant": f"{p}_change" for p in prefixes},
    )


@dataclass(frozen=True)
class Comparison:
    """What a comparison found: the content changes, the significant differences (Holm) and
    the page's sections."""

    changes: pl.DataFrame
    significant: pl.DataFrame
    tests: int
    sections: list[Section]
    effects: pl.DataFrame
    """Per card, the EFFECTS of both runs and their change (compare.card_effects)."""


CARD_PREFIXES = ["wr_in_store", "wr_bought", "buy_rate", "pick_rate"]
"""The per-card rates tested (each a column prefix of compare.card_metrics)."""
FINDINGS_INTRO = (
    "What to look at first, most severe first: the rates that moved significantly "
    f"(Holm-corrected p < {ALPHA}; high when the whole 95% interval of the change lies more than "
    "5 points from no change) and what changed in the content. Intervals are 95% (Newcombe), n "
    "the observations of both runs."
)


def compare_runs(con: Any, base: int, cand: int) -> Comparison:
    """The changes, the significant differences and every section, the answers first (one
    context over both runs, each side narrowed from it)."""
    both = Runs(con, [base, cand])
    b, c = both.of([base]), both.of([cand])
    cards = compare.card_metrics(b, c)
    effects = compare.card_effects(b, c)
    set_df = compare.set_metrics(b, c)
    seat_df = compare.seat_metrics(b, c).with_columns(pl.col("seat") + 1)
    changes = compare.content_changes(b, c)
    sig = compare.significant(
        [
            ("card", cards, ["card"]),
            ("card", effects, ["card"]),
            ("dominant set", set_df, ["dominant"]),
            ("seat", seat_df, ["board", "seat"]),
        ],
        [
            *((r, n) for r, _, n in compare.CARD_METRICS),
            *compare.EFFECTS,
            ("pick_rate", "seen"),
            ("win_rate", "seats"),
        ],
    )
    tests = sum(
        int(difference_summary(df, f"{p}_change")["tests"])
        for df, ps in (
            (cards, CARD_PREFIXES),
            (effects, [e for e, _ in compare.EFFECTS]),
            (set_df, ["win_rate"]),
            (seat_df, ["win_rate"]),
        )
        for p in ps
    )
    found = study_findings.compare_findings(changes, sig, tests)
    return Comparison(
        changes,
        sig,
        tests,
        [
            balance.findings_list(
                found,
                FINDINGS_INTRO,
                "Nothing changed and nothing moved: the runs' content, settings and rates agree.",
            ),
            _answers(base, changes, sig, tests),
            *_rate_sections(cards, effects, set_df, seat_df),
            _shape_section(b, c),
        ],
        effects,
    )


def _answers(base: int, changes: pl.DataFrame, sig: pl.DataFrame, tests: int) -> Section:
    """The top of the page: what changed, and what moved significantly."""
    return Section(
        "answers",
        "What changed and what it did",
        f"What differs between the two runs' stored spreadsheets and settings (one "
        f"row per card or board field; run {base} is the base), and every rate that "
        f"moved significantly (Holm-corrected p < {ALPHA}, the correction taken per "
        f"rate over the cards, sets or seats; {tests} tests in all). The tables below "
        "hold every rate.",
        [
            Table(
                "changes",
                "What changed",
                changes,
                note=""
                if changes.height
                else "Nothing: the runs' content and settings are the same.",
            ),
            Table(
                "significant",
                "Significant differences",
                sig,
                {"base": "n_base", "candidate": "n_candidate"},
                ["what", "name", "metric", "base", "candidate", "change", "p_holm"],
                "" if sig.height else "None: no rate moved more than chance explains.",
            ),
        ],
    )


def _rate_sections(
    cards: pl.DataFrame, effects: pl.DataFrame, set_df: pl.DataFrame, seat_df: pl.DataFrame
) -> list[Section]:
    """Every rate of both runs: per card (its effects first: the report's balance measure),
    and per dominant set and seat."""
    rates = {
        f"{r}_{side}": f"{n}_{side}"
        for r, _, n in (*compare.CARD_METRICS, ("pick_rate", "picks", "seen"))
        for side in ("base", "cand")
    }
    seat_rates = {f"win_rate_{s}": f"seats_{s}" for s in ("base", "cand")}
    return [
        Section(
            "cards",
            "Cards",
            "Per-card rates of both runs; change = candidate - base.",
            [
                _effects_table(effects),
                _tested("compare_cards", "Per card", cards, rates, CARD_PREFIXES, ["card"]),
            ],
        ),
        Section(
            "sets",
            "Sets and seats",
            "Win rate by dominant set and by board and seat (seats numbered from 1).",
            [
                _tested(
                    "compare_sets",
                    "By dominant set",
                    set_df,
                    seat_rates,
                    ["win_rate"],
                    ["dominant"],
                ),
                _tested(
                    "compare_seats",
                    "By board and seat",
                    seat_df,
                    seat_rates,
                    ["win_rate"],
                    ["board", "seat"],
                ),
            ],
        ),
    ]


def _effects_table(effects: pl.DataFrame) -> Table:
    """The report's balance measure per card in both runs and its change with its interval
    (one column group per entry of compare.EFFECTS)."""
    names = [e for e, _ in compare.EFFECTS]
    frame = effects.with_columns(
        (pl.col(f"{n}_base").fill_null(0) + pl.col(f"{n}_cand").fill_null(0)).alias(f"{n}_both")
        for n in dict.fromkeys(n for _, n in compare.EFFECTS)
    )
    rates = {
        f"{e}_{side}": f"{n}_{s}"
        for e, n in compare.EFFECTS
        for side, s in (("base", "base"), ("cand", "cand"), ("change", "both"))
    }
    table = _tested(
        "compare_card_effects", "Improvement when bought", frame, rates, names, ["card"]
    )
    return Table(
        table.name,
        table.title,
        table.df,
        table.rates,
        table.show,
        "The report's balance measure: win rate when bought minus drafted but never bought "
        "(Newcombe interval), in both runs; the change has the interval of a difference of the "
        "two (n: the buyers of both runs). " + table.note,
        table.flags,
    )


def _shape_section(base: Runs, cand: Runs) -> Section:
    """Length, draws, round-limit stops and leads of both runs."""
    shapes = pl.concat(
        [shape.summary(r).with_columns(pl.lit(r.runs[0]).alias("run")) for r in (base, cand)],
        how="vertical_relaxed",
    )
    return Section(
        "shape",
        "Game shape",
        "Length, draws, round-limit stops and leads per run.",
        [
            Table(
                "compare_shape",
                "Per board and run",
                shapes,
                {"draw_rate": "games", "round_limit_rate": "games"},
            )
        ],
    )


def _value(v: object) -> str:
    return "(empty)" if v in ("", None) else str(v) if len(str(v)) <= 60 else str(v)[:57] + "..."


def summary_lines(c: Comparison, base: int, cand: int) -> list[str]:
    """The comparison in a few terminal lines: the changes, then the significant differences."""
    lines = [f"What changed from run {base} to run {cand}:"]
    for r in c.changes.iter_rows(named=True):
        what = f"{r['what']} {r['name']}" if r["what"] != "card" else r["name"]
        lines.append(
            f"  {what}: {r['change']}"
            if r["change"] != "changed"
            else f"  {what}: {r['field']} {_value(r['base'])} -> {_value(r['candidate'])}"
        )
    if not c.changes.height:
        lines.append("  nothing (same content and settings)")
    lines.append(f"Significant differences (Holm-corrected p < {ALPHA}; {c.tests} tests):")
    for r in c.significant.iter_rows(named=True):
        metric = study_findings.METRIC_WORDS.get(r["metric"], r["metric"])
        shown = (
            f"{num(100 * r['base'], True)} -> {num(100 * r['candidate'], True)} points"
            if r["low"] is not None
            else f"{r['base']:.1%} -> {r['candidate']:.1%}"
        )
        lines.append(
            f"  {r['what']} {r['name']}: {metric} {shown} ({100 * r['change']:+.1f} "
            f"points, p = {r['p_holm']:.2g})"
        )
    if not c.significant.height:
        lines.append("  none: no rate moved more than chance explains")
    lines.append(
        "Improvement when bought per card (the report's balance measure; base -> candidate, "
        "the change with its 95% interval):"
    )
    lines += [f"  {line}" for line in effect_lines(c.effects)]
    return lines


def effect_lines(effects: pl.DataFrame) -> list[str]:
    """Per card with an estimate in either run, each effect in both runs with its buyers and
    the change with its interval: `Scout: +12.0 (n=40) -> -3.0 (n=12): -15.0 points (-30.1
    to -0.2)` (the effect named when compare.EFFECTS has several)."""

    def shown(v: float | None, n: int | None) -> str:
        return "none" if v is None else f"{num(100 * v, True)} (n={n or 0})"

    out = []
    for r in effects.iter_rows(named=True):
        for e, n in compare.EFFECTS:
            base, cand = r[f"{e}_base"], r[f"{e}_cand"]
            if base is None and cand is None:
                continue
            change = (
                ""
                if r[f"{e}_change"] is None
                else f": {num(100 * r[f'{e}_change'], True)} points "
                f"({num(100 * r[f'{e}_change_lo'], True)} to "
                f"{num(100 * r[f'{e}_change_hi'], True)})"
                + (", significant after Holm" if r[f"{e}_change_significant"] else "")
            )
            words = study_findings.METRIC_WORDS[e] if len(compare.EFFECTS) > 1 else ""
            out.append(
                f"{r['card']}{' ' + words if words else ''}: {shown(base, r[f'{n}_base'])} -> "
                f"{shown(cand, r[f'{n}_cand'])}{change}"
            )
    return out


def write_comparison(
    db: str | Path, base: int, cand: int, out: str | Path
) -> tuple[Path, Comparison]:
    """Write the comparison page; its path and what it found. AnalysisError for a bad db or
    run."""
    con = open_db(db)
    try:
        resolve_runs(con, [base, cand])
        c = compare_runs(con, base, cand)
        return html.write(
            Path(out),
            f"Run {base} against run {cand}",
            balance.run_summary(con, [base, cand]),
            c.sections,
        ), c
    finally:
        con.close()
