"""Game shape, after Ludii's metrics: length, draws, round-limit stops, balance, lead changes,
how early the winner is decided, and which victory condition ended the game.

The lead per round is read from the end-of-round snapshots with the board's own yardstick:
victory points on capture boards, resource on resource boards, units on the board elsewhere.
A round has a leader only when one seat is strictly ahead. A lead change is a round whose leader
differs from the previous round that had one. The winner is decided at the first round from
which the eventual (single) winner led in every later round; `decided_at` is that round over
the game's rounds (near 0: decided early; 1: only at the end).
"""

from __future__ import annotations

import polars as pl

from workbench.analysis.runs import Runs
from workbench.analysis.source import in_runs, query, run_list
from workbench.analysis.stats import with_rate


def lengths(r: Runs) -> pl.DataFrame:
    """Games per board and number of rounds (the length distribution)."""
    return query(
        r.con,
        f"""SELECT board, rounds, count(*) AS games FROM games
                       WHERE run_id IN ({run_list(r.runs)}) GROUP BY ALL ORDER BY ALL""",
    )


def endings(r: Runs) -> pl.DataFrame:
    """Per board and ending reason: games, and their share of the board's games."""
    df = query(
        r.con,
        f"""
        SELECT board, reason, count(*) AS games,
               sum(count(*)) OVER (PARTITION BY board) AS board_games
        FROM games WHERE run_id IN ({run_list(r.runs)}) GROUP BY board, reason
        ORDER BY board, games DESC
        """,
    )
    return with_rate(df, "games", "board_games", "share")


def leads(r: Runs) -> pl.DataFrame:
    """Per game with snapshots: lead changes, decided round and decided_at (the per-game
    summary of workbench/store/summary.py)."""
    runs = r.runs
    return query(
        r.con,
        f"""
    SELECT g.game_id, g.board, g.rounds, l.lead_changes, l.decided_round,
           l.decided_round / greatest(g.rounds, 1) AS decided_at
    FROM games g JOIN summary_games l USING (game_id)
    WHERE g.run_id IN ({run_list(runs)}) AND {in_runs("g.game_id", runs)}
    ORDER BY g.game_id
    """,
    )


def summary(r: Runs) -> pl.DataFrame:
    """Per board (and 'all'): games, rounds, draws, round-limit and guard stops (+CI), leads."""
    games = query(
        r.con,
        f"""
        SELECT * REPLACE (coalesce(board, 'all') AS board) FROM (
            SELECT board, count(*) AS games, avg(rounds) AS mean_rounds,
                   median(rounds) AS median_rounds, max(rounds) AS max_rounds,
                   count(*) FILTER (WHERE draw) AS draws,
                   count(*) FILTER (WHERE reason LIKE 'round limit%') AS round_limit,
                   count(*) FILTER (WHERE guard_stopped) AS guard_stopped
            FROM games WHERE run_id IN ({run_list(r.runs)}) GROUP BY ROLLUP (board))
        ORDER BY board IS NULL, board""",
    )
    lead = leads(r)
    per_board = pl.concat(
        [
            lead.group_by("board").agg(
                pl.len().alias("games_with_snapshots"),
                pl.col("lead_changes").mean().alias("mean_lead_changes"),
                pl.col("decided_at").mean().alias("mean_decided_at"),
            ),
            lead.select(
                pl.lit("all").alias("board"),
                pl.len().alias("games_with_snapshots"),
                pl.col("lead_changes").mean().alias("mean_lead_changes"),
                pl.col("decided_at").mean().alias("mean_decided_at"),
            ),
        ]
    )
    df = games.join(per_board, on="board", how="left")
    df = with_rate(df, "draws", "games", "draw_rate")
    return with_rate(df, "round_limit", "games", "round_limit_rate")
