"""Card ratings learned from earlier runs in the DuckDB event store, for the `ratings` drafter.

A card's rating is its win rate when in store: over every seat whose draft took at least one
copy of the card (table `picks`, docs/schema.md), the share of those seats that won
(`game_seats.won`; a draw counts as not won). Ratings are smoothed toward the overall win rate
by `prior` pseudo-games, so a card seen in few games stays near the mean and drafting improves
as the data grows.

The engine never imports a database driver: importing this module registers `load_ratings`
with `engine.agents.drafters.register_ratings_loader`, so the agent spec
`ratings:db=runs.duckdb` works wherever the workbench is loaded (`board=NAME` restricts to one
board, `prior=N` sets the smoothing, `min_games=N` drops cards seen in fewer games).
`write_ratings_file` writes the JSON that `ratings:ratings_file=PATH` reads.
"""

from __future__ import annotations

import json
from pathlib import Path

from engine.agents.drafters import register_ratings_loader

QUERY = """
WITH held AS (
    SELECT DISTINCT p.game_id, p.player AS seat, p.card
    FROM picks p JOIN games g ON g.game_id = p.game_id
    {where}
)
SELECT h.card, count(*) AS games, sum(CASE WHEN s.won THEN 1 ELSE 0 END) AS wins
FROM held h JOIN game_seats s ON s.game_id = h.game_id AND s.seat = h.seat
GROUP BY h.card
"""


def card_stats(db: str | Path, board: str | None = None) -> dict[str, tuple[int, int]]:
    """card name -> (seats that drafted it, of those the winners)."""
    import duckdb
    con = duckdb.connect(str(db), read_only=True)
    try:
        where, args = ("WHERE g.board = ?", [board]) if board else ("", [])
        rows = con.execute(QUERY.format(where=where), args).fetchall()
    finally:
        con.close()
    return {card: (int(n), int(w)) for card, n, w in rows}


def ratings_from_stats(stats: dict[str, tuple[int, int]], prior: float = 10.0,
                       min_games: int = 0) -> dict[str, float]:
    """Smoothed win rates: (wins + prior * mean) / (games + prior)."""
    total = sum(n for n, _ in stats.values())
    mean = sum(w for _, w in stats.values()) / total if total else 0.5
    return {card: (w + prior * mean) / (n + prior) for card, (n, w) in stats.items()
            if n >= min_games}


def load_ratings(db: str, params: dict[str, str] | None = None) -> dict[str, float]:
    """The loader the `ratings` drafter calls for `db=PATH`."""
    params = params or {}
    stats = card_stats(db, params.get("board"))
    return ratings_from_stats(stats, float(params.get("prior", 10.0)),
                              int(params.get("min_games", 0)))


def write_ratings_file(db: str, path: str | Path, board: str | None = None,
                       prior: float = 10.0) -> dict[str, float]:
    """Write `{"ratings": {card: score}, "games": {card: n}}` for `ratings_file=PATH`."""
    stats = card_stats(db, board)
    ratings = ratings_from_stats(stats, prior)
    Path(path).write_text(json.dumps({"ratings": ratings,
                                      "games": {c: n for c, (n, _) in stats.items()}},
                                     indent=1, sort_keys=True), encoding="utf-8")
    return ratings


register_ratings_loader(load_ratings)
