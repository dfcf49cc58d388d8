"""A self-contained HTML page from sections of tables and charts, readable offline.

Every table is also written as CSV and Parquet in `tables/` beside the page, a text cell that a
spreadsheet program would run as a formula prefixed with `'`. Rates are shown as
percentages with their interval; a rate whose sample is below MIN_SAMPLE is greyed with its
count, never hidden. Every text from the data goes through html.escape.
"""

from __future__ import annotations

import datetime as dt
import html
import math
from collections.abc import Mapping, Sequence
from dataclasses import dataclass, field
from pathlib import Path

import polars as pl

from workbench.analysis.stats import MIN_SAMPLE
from workbench.content.sheets import FORMULA_START

TEMPLATES = Path(__file__).with_name("templates")


@dataclass(frozen=True)
class Table:
    """A frame to show. `rates` maps a rate column to the column holding its sample size;
    `show` limits the HTML columns (the files keep all); `flag` marks cells (bool column ->
    shown column) as significant."""

    name: str
    title: str
    df: pl.DataFrame
    rates: Mapping[str, str] = field(default_factory=dict)
    show: Sequence[str] | None = None
    note: str = ""
    flags: Mapping[str, str] = field(default_factory=dict)


@dataclass(frozen=True)
class Chart:
    title: str
    png_base64: str


@dataclass(frozen=True)
class FindingList:
    """Ranked findings: (severity, sentence, id of the section that shows it) each, and how
    many more of a kind the sections hold: (kind, count, section id)."""

    items: Sequence[tuple[str, str, str]]
    more: Sequence[tuple[str, int, str]] = ()
    empty: str = "Nothing lies beyond the thresholds."


@dataclass(frozen=True)
class Section:
    id: str
    title: str
    intro: str
    items: Sequence[Table | Chart | FindingList]


def _number(v: object) -> str:
    if v is None or (isinstance(v, float) and math.isnan(v)):
        return ""
    if isinstance(v, float):
        return f"{v:.3f}" if abs(v) < 1000 else f"{v:,.0f}"
    if isinstance(v, int) and not isinstance(v, bool):
        return f"{v:,}" if abs(v) >= 10000 else str(v)
    return str(v)


def _rate_cell(r: Mapping[str, object], col: str, n_col: str, extra: str) -> str:
    v, n = r.get(col), r.get(n_col)
    count = int(n) if isinstance(n, (int, float)) and not isinstance(n, bool) else 0
    if not isinstance(v, float):
        return f'<td class="small{extra}" data-v="">n={count}</td>'
    lo, hi = r.get(f"{col}_lo"), r.get(f"{col}_hi")
    ci = (
        f" ({100 * lo:.0f}–{100 * hi:.0f})"
        if isinstance(lo, float) and isinstance(hi, float)
        else ""
    )
    small = count < MIN_SAMPLE
    cls = ("small" if small else "") + extra
    label = f"{100 * v:.1f}%{ci}" + (f" n={count}" if small else "")
    return f'<td class="{cls.strip()}" data-v="{v:.6f}" title="n={count}">{html.escape(label)}</td>'


def table_html(t: Table) -> str:
    cols = (
        list(t.show)
        if t.show is not None
        else [c for c in t.df.columns if not c.endswith(("_lo", "_hi"))]
    )
    head = "".join(
        f'<th class="{"t" if t.df.schema[c] == pl.String else ""}">{html.escape(c)}</th>'
        for c in cols
    )
    body = []
    for r in t.df.iter_rows(named=True):
        cells = []
        for c in cols:
            flagged = any(shown == c and r.get(b) for b, shown in t.flags.items())
            extra = " sig" if flagged else ""
            if c in t.rates:
                cells.append(_rate_cell(r, c, t.rates[c], extra))
            elif t.df.schema[c] == pl.String:
                cells.append(f'<td class="t{extra}">{html.escape(str(r[c] or ""))}</td>')
            else:
                v = r[c]
                sort = "" if v is None else html.escape(str(v))
                cells.append(
                    f'<td class="{extra.strip()}" data-v="{sort}">{html.escape(_number(v))}</td>'
                )
        body.append("<tr>" + "".join(cells) + "</tr>")
    note = f'<p class="note">{html.escape(t.note)}</p>' if t.note else ""
    files = (
        f'<p class="files">{t.df.height} rows; files: <a href="tables/{t.name}.csv">'
        f'{t.name}.csv</a>, <a href="tables/{t.name}.parquet">{t.name}.parquet</a></p>'
    )
    return (
        f'<h3 id="t-{html.escape(t.name)}">{html.escape(t.title)}</h3>{note}'
        f'<div class="scroll"><table class="sortable" data-name="{html.escape(t.name)}">'
        f"<thead><tr>{head}</tr></thead><tbody>{''.join(body)}</tbody></table></div>{files}"
    )


def findings_html(f: FindingList, titles: Mapping[str, str]) -> str:
    """An ordered list, most severe first, each item linking to its section."""

    def link(section: str) -> str:
        return (
            f' <a class="to" href="#{html.escape(section)}">'
            f"{html.escape(titles.get(section, section))}</a>"
        )

    items = "".join(
        f'<li class="sev-{html.escape(sev)}"><span class="sev">{html.escape(sev)}</span> '
        f"{html.escape(text)}{link(section)}</li>"
        for sev, text, section in f.items
    )
    more = "".join(
        f"<li>{count} more {html.escape(kind)} finding{'s' if count > 1 else ''}"
        f"{link(section)}</li>"
        for kind, count, section in f.more
    )
    if not items:
        return f'<p class="note">{html.escape(f.empty)}</p>'
    return f'<ol class="findings">{items}</ol>' + (f'<ul class="more">{more}</ul>' if more else "")


def render(title: str, summary: Sequence[tuple[str, str]], sections: Sequence[Section]) -> str:
    """The whole page. `summary` is (label, value) pairs shown on top."""
    titles = {s.id: s.title for s in sections}
    nav = "".join(f'<a href="#{s.id}">{html.escape(s.title)}</a>' for s in sections)
    facts = "".join(
        f"<tr><th class='t'>{html.escape(k)}</th><td class='t'>{html.escape(v)}</td></tr>"
        for k, v in summary
    )
    parts = []
    for s in sections:
        items = []
        for it in s.items:
            if isinstance(it, Chart):
                items.append(
                    f"<h3>{html.escape(it.title)}</h3>"
                    f'<img alt="{html.escape(it.title)}" '
                    f'src="data:image/png;base64,{it.png_base64}">'
                )
            elif isinstance(it, FindingList):
                items.append(findings_html(it, titles))
            else:
                items.append(table_html(it))
        parts.append(
            f'<section id="{s.id}"><h2>{html.escape(s.title)}</h2>'
            f'<p class="note">{html.escape(s.intro)}</p>{"".join(items)}</section>'
        )
    stamp = dt.datetime.now(dt.UTC).strftime("%Y-%m-%d %H:%M UTC")
    return (
        f"<!DOCTYPE html><html lang='en'><head><meta charset='utf-8'>"
        f"<title>{html.escape(title)}</title><style>{(TEMPLATES / 'report.css').read_text()}"
        f"</style></head><body><h1>{html.escape(title)}</h1>"
        f"<p class='note'>Written {stamp}. Rates: percentage (95% Wilson interval); grey "
        f"cells have fewer than {MIN_SAMPLE} observations, their count beside them. Click a "
        f"column header to sort.</p><p id='image-check'></p>"
        f"<table class='facts'>{facts}</table><nav>{nav}</nav>{''.join(parts)}"
        f"<script>{(TEMPLATES / 'report.js').read_text()}</script></body></html>"
    )


def neutralised(df: pl.DataFrame) -> pl.DataFrame:
    """`df` with every text cell that starts like a formula prefixed with `'`, as OWASP advises:
    a card named `=HYPERLINK(...)` opens as text. Number columns are left as numbers."""
    return df.with_columns(
        pl.when(pl.col(c).str.contains(FORMULA_START))
        .then(pl.lit("'") + pl.col(c))
        .otherwise(pl.col(c))
        .alias(c)
        for c, dtype in df.schema.items()
        if dtype == pl.String
    )


def write(
    out: Path, title: str, summary: Sequence[tuple[str, str]], sections: Sequence[Section]
) -> Path:
    """Write index.html and every table as tables/NAME.csv (neutralised: a spreadsheet opens
    it) and tables/NAME.parquet (the text as it is: Parquet is typed data, no program runs a
    cell of it as a formula); returns the page."""
    tables = out / "tables"
    tables.mkdir(parents=True, exist_ok=True)
    for s in sections:
        for it in s.items:
            if isinstance(it, Table):
                neutralised(it.df).write_csv(tables / f"{it.name}.csv")
                it.df.write_parquet(tables / f"{it.name}.parquet")
    page = out / "index.html"
    page.write_text(render(title, summary, sections), encoding="utf-8")
    return page
