"""Findings on the balance of seats, sets and victory conditions: a seat, the first player or a
dominant set whose win rate lies outside the band around an even share (findings.py says what
the even share and the severities are)."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any

import polars as pl

from workbench.analysis import sets
from workbench.analysis.runs import Runs
from workbench.analysis.severity import (
    Finding,
    Thresholds,
    furthest,
    on_board,
    pct,
    seat_label,
    span,
    two_sided,
)
from workbench.analysis.source import query, run_list


def _even_shares(rates: pl.DataFrame, keys: Sequence[str]) -> dict[tuple[object, ...], float]:
    groups = rates.group_by(keys).agg(pl.col("wins").sum(), pl.col("seats").sum())
    return {
        tuple(r[k] for k in keys): r["wins"] / r["seats"]
        for r in groups.iter_rows(named=True)
        if r["seats"]
    }


def seat_findings(r: Runs) -> list[Finding]:
    """Per board, the seat furthest from the even share, when outside the band; the first
    player's advantage too where the first player is not always the same seat."""
    rates = sets.win_rates(r, ["board", "seat"])
    even = _even_shares(rates, ["board"])
    fixed = _fixed_first_seats(r)
    out = []
    for board, rows in rates.group_by("board", maintain_order=True):
        name = str(board[0])
        out += _worst_seat(name, rows, even[(name,)], fixed.get(name), len(even), r.th)
    first = sets.win_rates(r, ["board", "first"]).filter(pl.col("first"))
    for row in first.iter_rows(named=True):
        if row["board"] not in fixed:
            out += _first_player(row, even[(row["board"],)], len(even), r.th)
    return out


def _fixed_first_seats(r: Runs) -> dict[str, int]:
    """Board -> its first player's seat, for the boards where it is always the same one (there
    the first player's advantage is that seat's)."""
    starts = query(
        r.con,
        f"""SELECT board, min(first_player) AS lo, max(first_player) AS hi
                           FROM games WHERE run_id IN ({run_list(r.runs)}) GROUP BY ALL""",
    )
    return {s["board"]: s["lo"] for s in starts.iter_rows(named=True) if s["lo"] == s["hi"]}


def _worst_seat(
    name: str, rows: pl.DataFrame, fair: float, first: int | None, boards: int, th: Thresholds
) -> list[Finding]:
    """The board's seat furthest from the even share `fair`, if outside the band (`first`: the
    seat that always moves first, if one does)."""
    worst = max(rows.iter_rows(named=True), key=lambda r: furthest(r["win_rate"], fair))
    sev = two_sided(
        worst["win_rate"], worst["win_rate_lo"], worst["win_rate_hi"], fair, worst["seats"], th
    )
    if sev is None:
        return []
    who = seat_label(worst["seat"]) + (" (moves first)" if first == worst["seat"] else "")
    return [
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
    ]


def _first_player(r: dict[str, Any], fair: float, boards: int, th: Thresholds) -> list[Finding]:
    """The first player's win rate on a board (`r`: its sets.win_rates row), if outside the
    band around the even share `fair`."""
    sev = two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
    if sev is None:
        return []
    return [
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
    ]


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


def set_findings(r: Runs) -> list[Finding]:
    """Win rate by dominant set outside the band (per board when the run has several), and per
    victory condition when the boards have more than one."""
    th = r.th
    boards = query(
        r.con,
        f"""SELECT count(DISTINCT board) AS n, count(DISTINCT victory_kind) AS k
                           FROM run_boards WHERE run_id IN ({run_list(r.runs)})""",
    ).row(0)
    out: list[Finding] = []
    if boards[0] > 1:
        out += _group_findings(
            sets.win_rates(r, ["board", "dominant"]),
            ["board", "dominant"],
            ["board"],
            "set",
            th,
            " on {board}",
        )
    else:
        out += _group_findings(sets.win_rates(r, ["dominant"]), ["dominant"], [], "set", th, "")
    if 1 < boards[1] < boards[0]:  # with one board per condition it repeats the split by board
        out += _group_findings(
            sets.win_rates(r, ["victory", "dominant"]),
            ["victory", "dominant"],
            ["victory"],
            "victory",
            th,
            " on {victory} boards",
        )
    return out
