"""Findings on how the games went: the economy round by round (stalls, buying that stops,
resource piling up or left unused), the games' shape (round limit, draws, guard stops, very
short games) and caveats about the agents that played them. Their form: severity.py."""

from __future__ import annotations

from collections.abc import Sequence
from typing import Any, NamedTuple

import polars as pl

from workbench.analysis import economy, sets
from workbench.analysis.runs import Runs
from workbench.analysis.severity import (
    Finding,
    Thresholds,
    beyond,
    furthest,
    num,
    on_board,
    pct,
    span,
    two_sided,
)
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import mean_ci, proportion_ci, ratio_ci

# --- the economy ------------------------------------------------------------------------------


def _from_round(flags: list[tuple[int, bool]]) -> int | None:
    """The first round from which every later round is flagged; None if the last is not."""
    start = None
    for rnd, flag in flags:
        if flag and start is None:
            start = rnd
        elif not flag:
            start = None
    return start


class _Rounds(NamedTuple):
    """One board's rounds with enough player-turns to judge (`ok`, by round), the words naming
    the board (`on`) and its player-turns in all (`total`)."""

    board: str
    on: str
    ok: pl.DataFrame
    total: int


def economy_findings(r: Runs) -> list[Finding]:
    """Per board: the round from which upkeep eats income (stall), from which buying stops, and
    resource that piles up over the rounds (runaway) or is left unused at the end."""
    th = r.th
    sums = economy.round_sums(r)
    finals = {row["board"]: row for row in economy.final_sums(r).iter_rows(named=True)}
    kinds = dict(
        query(
            r.con,
            f"""SELECT board, any_value(victory_kind) FROM run_boards
                               WHERE run_id IN ({run_list(r.runs)}) GROUP BY ALL""",
        ).rows()
    )
    boards = sums.get_column("board").n_unique()
    out = []
    for key, df in sums.group_by("board", maintain_order=True):
        board = str(key[0])
        total = int(df.get_column("turns").sum())
        ok = df.filter(pl.col("turns") >= th.min_sample).sort("round")
        if ok.height < 2 or total == 0:
            continue
        rounds = _Rounds(board, on_board(board, boards), ok, total)
        income_per_turn = float(df.get_column("s_income").sum()) / total
        out += _stall(rounds, th) + _buying_stops(rounds, th)
        if kinds.get(board) == "resource" or income_per_turn <= 0:
            continue  # holding resource is the goal there
        out += _held(rounds, finals.get(board), income_per_turn, th)
    return out


def _stall(rounds: _Rounds, th: Thresholds) -> list[Finding]:
    """The round from which upkeep takes at least `th.stall` of income, to the end."""
    ok, total, on = rounds.ok, rounds.total, rounds.on
    share = [
        (r["round"], r["s_income"] > 0 and r["s_upkeep"] >= th.stall * r["s_income"])
        for r in ok.iter_rows(named=True)
    ]
    stall = _from_round(share)
    if stall is None:
        return []
    s = ok.filter(pl.col("round") >= stall).sum()
    v, lo, hi = ratio_ci(
        int(s["turns"][0]),
        float(s["s_upkeep"][0]),
        float(s["s_income"][0]),
        float(s["ss_upkeep"][0]),
        float(s["ss_income"][0]),
        float(s["s_income_upkeep"][0]),
    )
    n = int(s["turns"][0])
    sev = beyond(v, lo, hi, th.stall, n, th)
    if sev is None or n < th.late * total:
        return []
    return [
        Finding(
            "economy stall",
            sev,
            f"The economy stalls{on} from round {stall}: from "
            f"then on upkeep takes {pct(v)} of income {span(lo, hi, n)}; those rounds "
            f"hold {pct(n / total)} of all player-turns.",
            v,
            lo,
            hi,
            n,
            "economy",
            rounds.board,
            v - th.stall,
        )
    ]


def _buying_stops(rounds: _Rounds, th: Thresholds) -> list[Finding]:
    """The round (not the first) from which fewer than `th.buy_stop` of player-turns buy."""
    ok, total = rounds.ok, rounds.total
    buys = [(r["round"], r["buys"] < th.buy_stop * r["turns"]) for r in ok.iter_rows(named=True)]
    stop = _from_round(buys)
    if stop is None or stop <= int(ok.get_column("round").min()):  # type: ignore[arg-type]
        return []
    late = ok.filter(pl.col("round") >= stop)
    n, k = int(late.get_column("turns").sum()), int(late.get_column("buys").sum())
    early = ok.filter(pl.col("round") < stop)
    before = int(early.get_column("buys").sum()) / int(early.get_column("turns").sum())
    lo, hi = proportion_ci(k, n)
    sev = beyond(k / n, lo, hi, th.buy_stop, n, th, above=False)
    if sev is None or n < th.late * total:
        return []
    return [
        Finding(
            "buying stops",
            sev,
            f"Buying stops{rounds.on} from round {stop}: "
            f"{pct(k / n)} of player-turns buy a card from then on {span(lo, hi, n)}, "
            f"against {pct(before)} before.",
            k / n,
            lo,
            hi,
            n,
            "economy",
            rounds.board,
            th.buy_stop - k / n,
        )
    ]


def _held(
    rounds: _Rounds, final: dict[str, Any] | None, income_per_turn: float, th: Thresholds
) -> list[Finding]:
    """Resource held beyond `th.hoard` turns of income: rising to the last round (runaway),
    else left unspent at the games' end (`final`: economy.final_sums' row)."""
    ok, on, board = rounds.ok, rounds.on, rounds.board
    limit = th.hoard * income_per_turn
    last, mid = ok.row(-1, named=True), ok.row(ok.height // 2, named=True)
    v, lo, hi = mean_ci(last["turns"], last["s_unspent"], last["ss_unspent"])
    rising = last["s_unspent"] / last["turns"] > mid["s_unspent"] / mid["turns"]
    sev = beyond(v, lo, hi, limit, last["turns"], th) if rising else None
    if sev is not None:
        return [
            Finding(
                "runaway resource",
                sev,
                f"Resource piles up{on}: players end round "
                f"{last['round']} holding {v:.1f} {span(lo, hi, last['turns'], '')}, "
                f"{v / income_per_turn:.1f} turns of income, up from "
                f"{mid['s_unspent'] / mid['turns']:.1f} in round {mid['round']}.",
                v,
                lo,
                hi,
                last["turns"],
                "economy",
                board,
                (v - limit) / income_per_turn,
            )
        ]
    if final is None:
        return []
    v, lo, hi = mean_ci(final["player_games"], final["s_final"], final["ss_final"])
    sev = beyond(v, lo, hi, limit, final["player_games"], th)
    if sev is None:
        return []
    return [
        Finding(
            "unused resource",
            sev,
            f"Players end the game{on} with {v:.1f} resource "
            f"unspent {span(lo, hi, final['player_games'], '')}, "
            f"{v / income_per_turn:.1f} turns of income.",
            v,
            lo,
            hi,
            final["player_games"],
            "economy",
            board,
            (v - limit) / income_per_turn,
        )
    ]


# --- game shape ---------------------------------------------------------------------------------


def shape_findings(r: Runs) -> list[Finding]:
    """Per board: games decided by the round limit, draws, action-guard stops, very short games."""
    th = r.th
    games = query(
        r.con,
        f"""
        SELECT board, count(*) AS games,
               count(*) FILTER (WHERE reason LIKE 'round limit%') AS round_limit,
               count(*) FILTER (WHERE draw) AS draws,
               count(*) FILTER (WHERE guard_stopped) AS guard,
               count(*) FILTER (WHERE rounds <= {int(th.short_rounds)}) AS short
        FROM games WHERE run_id IN ({run_list(r.runs)}) GROUP BY ALL ORDER BY board""",
    )
    boards = games.height
    checks = _shape_checks(th)
    out = []
    for row in games.iter_rows(named=True):
        n = row["games"]
        for col, limit, kind, text in checks:
            k = row[col]
            lo, hi = proportion_ci(k, n)
            sev = beyond(k / n, lo, hi, limit, n, th)
            if sev is not None:
                out.append(
                    Finding(
                        kind,
                        sev,
                        text.format(
                            share=pct(k / n).capitalize(),
                            on=on_board(row["board"], boards),
                            span=span(lo, hi, n),
                        ),
                        k / n,
                        lo,
                        hi,
                        n,
                        "shape",
                        row["board"],
                        k / n - limit,
                    )
                )
    return out


def _shape_checks(th: Thresholds) -> tuple[tuple[str, float, str, str], ...]:
    """(column of the shape query, threshold, finding kind, sentence) of each shape check."""
    return (
        (
            "round_limit",
            th.round_limit,
            "round limit",
            (
                "{share} of games{on} reach the round limit before the victory condition ends them "
                "{span}."
            ),
        ),
        ("draws", th.draws, "draws", "{share} of games{on} end in a draw {span}."),
        (
            "guard",
            th.guard,
            "action guard",
            ("The action guard (R21.18) stopped {share} of games{on} {span}; they count as draws."),
        ),
        (
            "short",
            th.short_games,
            "short games",
            f"{{share}} of games{{on}} last {int(th.short_rounds)} rounds or fewer {{span}}.",
        ),
    )


# --- agents ---------------------------------------------------------------------------------


def agent_findings(r: Runs, pool: Sequence[str]) -> list[Finding]:
    """Caveats: the agent furthest from an even share when the run mixes agents (the verdicts
    mix strong and weak play), and cards whose improvement when bought points opposite ways for
    different agents in a skill study of the same database (`workbench skill`)."""
    out = _mixed_agents(r)
    if not pool:
        return out
    return out + _skill_flips(r, pool)


def _mixed_agents(r: Runs) -> list[Finding]:
    """The agent furthest from an even share, if outside the band, when the runs mix agents."""
    th = r.th
    rates = sets.win_rates(r, ["agent"])
    if rates.height <= 1:
        return []
    fair = float(rates.get_column("wins").sum()) / float(rates.get_column("seats").sum())
    row = max(rates.iter_rows(named=True), key=lambda x: furthest(x["win_rate"], fair))
    sev = two_sided(row["win_rate"], row["win_rate_lo"], row["win_rate_hi"], fair, row["seats"], th)
    if sev is None:
        return []
    return [
        Finding(
            "agent",
            sev,
            f"Agent {row['agent']} wins {pct(row['win_rate'])} of its seats "
            f"{span(row['win_rate_lo'], row['win_rate_hi'], row['seats'])} against an even "
            f"{pct(fair)}: the verdicts mix strong and weak play.",
            row["win_rate"],
            row["win_rate_lo"],
            row["win_rate_hi"],
            row["seats"],
            "sets",
            row["agent"],
            abs(row["win_rate"] - fair) - th.band,
        )
    ]


def _skill_flips(r: Runs, pool: Sequence[str]) -> list[Finding]:
    """Pool cards whose improvement when bought is significantly positive with one agent and
    significantly negative with another in a skill study stored in the same database."""
    names = ", ".join("'" + c.replace("'", "''") + "'" for c in pool)
    skill = query(
        r.con,
        f"""
        SELECT r.sweep_id, r.card, v.variant AS agent, r.estimate, r.low, r.high, g.n
        FROM sweep_results r JOIN sweeps v ON v.sweep_id = r.sweep_id AND v.kind = 'skill'
             AND r.quantity = 'bought_gain@' || v.variant
        JOIN (SELECT run_id, count(*) AS n FROM games GROUP BY ALL) g ON g.run_id = v.run_id
        WHERE r.card IN ({names}) AND r.estimate IS NOT NULL ORDER BY r.sweep_id, v.value""",
    )
    out = []
    for (sweep, card), rows in skill.group_by("sweep_id", "card", maintain_order=True):
        up = rows.filter(pl.col("low") > 0)
        down = rows.filter(pl.col("high") < 0)
        if up.height and down.height:
            a, b = up.row(0, named=True), down.row(0, named=True)
            out.append(
                Finding(
                    "agent",
                    "medium",
                    f"{card}'s verdict depends on agent strength (skill study "
                    f"{sweep}): improvement when bought {num(100 * a['estimate'], True)} points "
                    f"{span(a['low'], a['high'], a['n'], ' points')} with {a['agent']}, "
                    f"{num(100 * b['estimate'], True)} points "
                    f"{span(b['low'], b['high'], b['n'], ' points')} with {b['agent']}.",
                    a["estimate"] - b["estimate"],
                    None,
                    None,
                    int(rows.get_column("n").sum()),
                    "cards",
                    str(card),
                    a["estimate"] - b["estimate"],
                )
            )
    return out
