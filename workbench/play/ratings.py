"""Card ratings learned from earlier runs in the DuckDB event store, for the `ratings` drafter.

A card's rating is its win rate when in store: over every seat whose draft took at least one
copy of the card (table `picks`, docs/schema.md), the share of those seats that won
(`game_seats.won`; a draw counts as not won). Ratings are smoothed toward the overall win rate
by `prior` pseudo-games, so a card seen in few games stays near the mean and drafting improves
as the data grows.

The engine opens no files, so the ratings drafter gets its ratings from here as data
(`ratings_of`, called by `workbench.play.agents.make_agent`): `ratings:db=runs.duckdb` reads the
store (`board=NAME` restricts to one board, `prior=N` sets the smoothing, `min_games=N` drops
cards seen in fewer games), `ratings:ratings_file=PATH` a JSON file (`read_ratings_file`), as
`write_ratings_file` writes it.
"""

from __future__ import annotations

import json
from pathlib import Path

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
    """card name -> (seats that drafted it, of those the winners); ValueError in one line when
    `db` is not a workbench store to read."""
    import duckdb

    from workbench.store.files import unusable

    try:
        con = duckdb.connect(str(db), read_only=True)
    except duckdb.Error as exc:
        raise ValueError(f"ratings db={db}: {unusable(db, exc)}") from exc
    try:
        where, args = ("WHERE g.board = ?", [board]) if board else ("", [])
        rows = con.execute(QUERY.format(where=where), args).fetchall()
    except duckdb.Error as exc:
        raise ValueError(
            f"ratings db={db}: not a workbench store with games to learn from (no table "
            f"of picks and games it can read: {type(exc).__name__})"
        ) from exc
    finally:
        con.close()
    return {card: (int(n), int(w)) for card, n, w in rows}


def ratings_from_stats(
    stats: dict[str, tuple[int, int]], prior: float = 10.0, min_games: int = 0
) -> dict[str, float]:
    """Smoothed win rates: (wins + prior * mean) / (games + prior)."""
    total = sum(n for n, _ in stats.values())
    mean = sum(w for _, w in stats.values()) / total if total else 0.5
    return {
        card: (w + prior * mean) / (n + prior) for card, (n, w) in stats.items() if n >= min_games
    }


def load_ratings(db: str, params: dict[str, str] | None = None) -> dict[str, float]:
    """The loader the `ratings` drafter calls for `db=PATH`."""
    params = params or {}
    stats = card_stats(db, params.get("board"))
    return ratings_from_stats(
        stats, float(params.get("prior", 10.0)), int(params.get("min_games", 0))
    )


def write_ratings_file(
    db: str, path: str | Path, board: str | None = None, prior: float = 10.0
) -> dict[str, float]:
    """Write `{"ratings": {card: score}, "games": {card: n}}` for `ratings_file=PATH`."""
    stats = card_stats(db, board)
    ratings = ratings_from_stats(stats, prior)
    Path(path).write_text(
        json.dumps(
            {"ratings": ratings, "games": {c: n for c, (n, _) in stats.items()}},
            indent=1,
            sort_keys=True,
        ),
        encoding="utf-8",
    )
    return ratings


def read_ratings_file(path: str | Path) -> dict[str, float]:
    """A JSON file `{"name": score}`, `{"name": {"score": s, "games": n}}`, or either under
    `"ratings"` (as `write_ratings_file` writes it)."""
    raw = json.loads(Path(path).read_text(encoding="utf-8"))
    if isinstance(raw, dict) and "ratings" in raw and isinstance(raw["ratings"], dict):
        raw = raw["ratings"]
    return {name: float(v["score"]) if isinstance(v, dict) else float(v) for name, v in raw.items()}


def ratings_of(params: dict[str, str]) -> dict[str, float] | None:
    """The ratings a `ratings` spec names (`ratings_file=PATH` first, then `db=PATH`), or None
    when it names no source."""
    if "ratings_file" in params:
        return read_ratings_file(params["ratings_file"])
    if "db" in params:
        return load_ratings(params["db"], params)
    return None
