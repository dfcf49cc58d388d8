"""Summary tables: what the analysis reads instead of the event-level rows (docs/schema.md).

Built in SQL from a run's stored games once, when the run has all its games (store.finish_run,
before it marks the run finished), and recorded in `summaries` with SUMMARY_VERSION and the
number of games they cover. A reader whose runs lack current summaries (an interrupted run, a file
of schema version 3, summaries of another version) builds the same rows into a scratch database
that shadows the file's tables for the session, so every figure comes from one definition either
way.

Per game: `summary_seats` (per seat: dominant set, set pair, economy totals), `summary_cards`
(per seat and card seen or drafted: draft, buys, plays, buy chances, early picks bought,
resource paid), `summary_damage` (per card: damage dealt, deaths, resource gained) and
`summary_games` (lead changes, decided round). Per run: `summary_rounds` (sums per board,
agent and round; a run built in chunks has a row per chunk, readers add them).
"""

from __future__ import annotations

import atexit
import shutil
import tempfile
from collections.abc import Sequence
from pathlib import Path
from typing import Final

import duckdb

from engine.vocab import DamageCause, DestroyCause, PushStop
from workbench.store.keys import GAME_ID_BASE

SUMMARY_VERSION: Final = 3
"""Bumped whenever a summary's definition changes: older summaries are then rebuilt on read.
2 added summary_cards' early_picks and early_bought; 3 summary_cards' paid and
summary_damage's gained (the resource a card cost and brought, analysis/verdicts.py)."""

SCRATCH: Final = "workbench_summaries"
"""The database a reader attaches for summaries its file lacks (removed when it exits)."""
CHUNK_GAMES: Final = 20_000
"""Games summarised per statement: keeps the build's memory flat however large the run."""
EARLY_PICKS = 3
"""The first picks of each pack (pack round) that count as early (analysis/drafted.py)."""

FLOWS: Final = (
    *("income", "card_gain", "discard_gain"),
    *("spend_buy", "spend_play", "spend_upkeep", "spend_free", "card_loss"),
    *("upkeep_paid", "upkeep_deaths", "bought"),
)
"""Snapshot columns summed per seat-game (economy totals)."""

TURN_MEANS: Final = (
    "held",
    "income",
    "income_base",
    "income_units",
    "income_fields",
    "discard_gain",
    "card_gain",
    "spend_buy",
    "spend_play",
    "spend_upkeep",
    "spend_free",
    "card_loss",
    "unspent",
)
"""The economy's quantities a round's table gives as means per player-turn
(analysis/economy.per_round)."""

ROUND_SUMS: Final = (
    "before",
    *TURN_MEANS,
    "bought",
    "buy_resource",
    "store_cards",
    "upkeep_deaths",
)
"""Per player-turn quantities summed per board, agent and round (s_<name>)."""

SQUARES: Final = (
    ("ss_income", "income * income"),
    ("ss_upkeep", "spend_upkeep * spend_upkeep"),
    ("s_income_upkeep", "income * spend_upkeep"),
    ("ss_unspent", "unspent * unspent"),
)

TABLES: Final[dict[str, tuple[tuple[str, str], ...]]] = {
    "summaries": (
        ("run_id", "BIGINT"),
        ("version", "INTEGER"),
        ("games", "INTEGER"),
        ("built_at", "TIMESTAMP"),
    ),
    "summary_seats": (
        ("game_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("dominant", "VARCHAR"),
        ("pair", "VARCHAR"),
        ("turns", "INTEGER"),
        *((f, "BIGINT") for f in FLOWS),
        ("final_resource", "INTEGER"),
    ),
    "summary_cards": (
        ("game_id", "BIGINT"),
        ("seat", "INTEGER"),
        ("card", "VARCHAR"),
        ("picks", "INTEGER"),
        ("pick_sum", "INTEGER"),
        ("first_picks", "INTEGER"),
        ("seen", "INTEGER"),
        ("seen_first", "INTEGER"),
        ("last_seen", "INTEGER"),
        ("bought", "INTEGER"),
        ("first_bought", "INTEGER"),
        ("plays", "INTEGER"),
        ("store_turns", "INTEGER"),
        ("affordable_turns", "INTEGER"),
        ("early_picks", "INTEGER"),
        ("early_bought", "INTEGER"),
        ("paid", "INTEGER"),
    ),
    "summary_damage": (
        ("game_id", "BIGINT"),
        ("card", "VARCHAR"),
        ("damage_dealt", "BIGINT"),
        ("hits", "BIGINT"),
        ("upkeep_deaths", "BIGINT"),
        ("deaths", "BIGINT"),
        ("gained", "BIGINT"),
    ),
    "summary_games": (
        ("game_id", "BIGINT"),
        ("lead_changes", "BIGINT"),
        ("decided_round", "INTEGER"),
    ),
    "summary_rounds": (
        ("run_id", "BIGINT"),
        ("board", "VARCHAR"),
        ("agent", "VARCHAR"),
        ("round", "INTEGER"),
        ("turns", "BIGINT"),
        *((f"s_{c}", "BIGINT") for c in ROUND_SUMS),
        *((name, "BIGINT") for name, _ in SQUARES),
    ),
}
"""Every summary table's columns and types, in docs/schema.md's order."""


def ddl(catalog: str) -> list[str]:
    """CREATE TABLE statements for the summary tables in the database `catalog`."""
    return [
        f"CREATE TABLE {catalog}.{t} ({', '.join(f'{c} {ty}' for c, ty in cols)})"
        for t, cols in TABLES.items()
    ]


def _between(column: str, run: int, lo: int, hi: int) -> str:
    return f"{column} BETWEEN {run * GAME_ID_BASE + lo} AND {run * GAME_ID_BASE + hi - 1}"


def _seats(run: int, lo: int, hi: int) -> str:
    """Per seat-game: the dominant set and set pair of its picks (analysis/sets.py) and the
    sums of its snapshots' flows with the resource left after its last turn."""
    rng = _between("game_id", run, lo, hi)
    sums = ", ".join(f"sum({c}) AS {c}" for c in FLOWS)
    return f"""
    WITH names AS (SELECT DISTINCT name, "set" FROM run_cards WHERE run_id = {run}),
    counts AS (
        SELECT p.game_id, p.player AS seat, coalesce(n."set", '?') AS "set", count(*) AS cards
        FROM picks p LEFT JOIN names n ON n.name = p.card
        WHERE {rng.replace("game_id", "p.game_id")} GROUP BY ALL),
    ranked AS (
        SELECT *, row_number() OVER (PARTITION BY game_id, seat ORDER BY cards DESC, "set") AS r,
               count(*) OVER (PARTITION BY game_id, seat, cards) AS tied
        FROM counts),
    tops AS (
        SELECT game_id, seat,
               max(CASE WHEN r = 1 THEN (CASE WHEN tied > 1 THEN 'mixed' ELSE "set" END) END)
                   AS dominant,
               array_to_string(list_sort(list("set") FILTER (WHERE r <= 2)), ' + ') AS pair
        FROM ranked GROUP BY ALL),
    flows AS (
        SELECT game_id, player AS seat, count(*) AS turns, {sums},
               arg_max(resource, round) AS final_resource
        FROM snapshots WHERE {rng} GROUP BY ALL)
    SELECT s.game_id, s.seat, t.dominant, t.pair, coalesce(f.turns, 0),
           {", ".join(f"f.{c}" for c in FLOWS)}, f.final_resource
    FROM game_seats s LEFT JOIN tops t USING (game_id, seat) LEFT JOIN flows f USING (game_id, seat)
    WHERE s.run_id = {run} AND {rng.replace("game_id", "s.game_id")}
    """


def _cards(run: int, lo: int, hi: int) -> str:
    """Per seat-game and card seen in a pack or drafted: the draft (analysis/draft.py), buys and
    plays (analysis/cards.py), the resource the seat paid for it (its buy, play and paid upkeep
    events' amounts: what engine/zones.pay charged, R7.2, R6.2, R5.3), for cards of the run's
    pool with a buy price, the buy steps with a copy in the store and those where its price was
    held (cards.buy_chances), and the copies among the first EARLY_PICKS of a pack with those of
    them bought, the seat's buys of the card credited to its earliest picks of it
    (analysis/drafted.py).

    One aggregation over a union (packs unnested, picks, buys, plays, upkeep) rather than joins:
    it is the build's largest step, and an aggregation spills to disk where joins would not."""
    rng = _between("game_id", run, lo, hi)
    return f"""
    WITH {_seen_and_bought(rng)},
    {_buy_chances(run, rng)},
    {_early_copies()}
    SELECT game_id, player, card, picks, pick_sum, first_picks, seen, seen_first, last_seen,
           bought, first_bought, plays, c.turns, c.affordable, coalesce(e.early_picks, 0),
           coalesce(e.early_bought, 0), paid
    FROM agg LEFT JOIN chances c USING (game_id, player, card)
    LEFT JOIN early e USING (game_id, player, card)
    """


def _seen_and_bought(rng: str) -> str:
    """`_cards`' CTEs p (the picks with their place in the pack), buys, rows (the union) and
    agg (its one aggregation per seat-game and card)."""
    return f"""p AS (
        SELECT p.game_id, p.player, p.pick, p.card, p.pack,
               (p.pick = min(p.pick) OVER w)::INT AS first_of_pack,
               p.pick - min(p.pick) OVER w + 1 AS in_pack
        FROM picks p JOIN game_seats s ON s.game_id = p.game_id AND s.seat = p.player
        WHERE {rng.replace("game_id", "p.game_id")}
        WINDOW w AS (PARTITION BY p.game_id, p.player, p.pack_round)),
    buys AS (SELECT game_id, player, card, round, amount FROM events
             WHERE kind = 'buy' AND {rng}),
    rows AS (
        SELECT game_id, player, unnest(list_distinct(string_split(pack, '|'))) AS card,
               1 AS seen, first_of_pack AS seen_first, pick AS last_seen, 0 AS picks,
               0 AS pick_sum, 0 AS first_picks, 0 AS bought, NULL::INT AS first_bought,
               0 AS plays, 0 AS paid FROM p
        UNION ALL
        SELECT game_id, player, card, 0, 0, NULL, 1, pick, first_of_pack, 0, NULL, 0, 0 FROM p
        UNION ALL
        SELECT game_id, player, card, 0, 0, NULL, 0, 0, 0, 1, round, 0, amount FROM buys
        UNION ALL
        SELECT game_id, player, card, 0, 0, NULL, 0, 0, 0, 0, NULL, (kind = 'play')::INT,
               amount FROM events
        WHERE (kind = 'play' OR (kind = 'upkeep' AND detail = 'paid')) AND {rng}),
    agg AS (
        SELECT game_id, player, card, sum(seen) AS seen, sum(seen_first) AS seen_first,
               max(last_seen) AS last_seen, sum(picks) AS picks, sum(pick_sum) AS pick_sum,
               sum(first_picks) AS first_picks, sum(bought) AS bought,
               min(first_bought) AS first_bought, sum(plays) AS plays, sum(paid) AS paid
        FROM rows GROUP BY ALL HAVING sum(seen) > 0 OR sum(picks) > 0)"""


def _buy_chances(run: int, rng: str) -> str:
    """`_cards`' CTEs from price to chances: per seat-game and card of the pool with a buy
    price, the buy steps with a copy in the store and those where the price was held."""
    return f"""price AS (
        SELECT name AS card, max(buy) AS buy FROM run_cards
        WHERE run_id = {run} AND in_pool AND buy IS NOT NULL GROUP BY ALL),
    drafted AS (SELECT game_id, player, card, count(*) AS copies FROM p GROUP BY ALL),
    gone AS (SELECT game_id, player, card, count(*) AS n, max(round) AS last FROM buys
             GROUP BY ALL),
    held AS (
        SELECT d.game_id, d.player, d.card, pr.buy,
               CASE WHEN coalesce(b.n, 0) >= d.copies THEN b.last END AS gone_after
        FROM drafted d JOIN price pr USING (card) LEFT JOIN gone b USING (game_id, player, card)),
    turns AS (
        SELECT game_id, player, round, buy_resource FROM snapshots WHERE {rng}),
    whole AS (  -- per seat-game and price: every turn, for cards still in the store at the end
        SELECT t.game_id, t.player, pr.buy, count(*) AS turns,
               count(*) FILTER (WHERE t.buy_resource >= pr.buy) AS affordable
        FROM turns t, (SELECT DISTINCT buy FROM price) pr GROUP BY ALL),
    chances AS (
        SELECT h.game_id, h.player, h.card, coalesce(w.turns, 0) AS turns,
               coalesce(w.affordable, 0) AS affordable
        FROM held h LEFT JOIN whole w USING (game_id, player, buy) WHERE h.gone_after IS NULL
        UNION ALL
        SELECT h.game_id, h.player, h.card, count(t.round),
               count(t.round) FILTER (WHERE t.buy_resource >= h.buy) FROM held h
        LEFT JOIN turns t ON t.game_id = h.game_id AND t.player = h.player
             AND t.round <= h.gone_after
        WHERE h.gone_after IS NOT NULL GROUP BY ALL)"""


def _early_copies() -> str:
    """`_cards`' CTEs copies and early: the copies among the first EARLY_PICKS of a pack, and
    how many of them the seat bought."""
    return f"""copies AS (  -- the k-th copy drafted is bought when the seat bought at least k
        SELECT game_id, player, card, in_pack,
               row_number() OVER (PARTITION BY game_id, player, card ORDER BY pick) AS copy
        FROM p),
    early AS (
        SELECT c.game_id, c.player, c.card, count(*) AS early_picks,
               count(*) FILTER (WHERE c.copy <= coalesce(b.n, 0)) AS early_bought
        FROM copies c LEFT JOIN gone b USING (game_id, player, card)
        WHERE c.in_pack <= {int(EARLY_PICKS)} GROUP BY ALL)"""


def _damage(run: int, lo: int, hi: int) -> str:
    """Per game and card: damage it dealt (the dealer found from the neighbouring events, as
    analysis/cards.card_effects explains), units of it lost to refused upkeep, its deaths, and
    the resource its effects gained (a `gain` other than income and discarding 2, R5.1, R8.6,
    credited to the source of the latest `resolve`, as effect damage is)."""
    ev = _between("game_id", run, lo, hi)
    return f"""
    WITH dmg AS (
        SELECT game_id, seq, amount, detail FROM events WHERE kind = 'damage' AND {ev}),
    combats AS (
        SELECT game_id, seq, card AS attacker, target AS defender FROM events
        WHERE kind = 'combat' AND {ev}),
    resolves AS (
        SELECT game_id, seq, card AS source FROM events WHERE kind = 'resolve' AND {ev}),
    stops AS (
        SELECT game_id, seq, target AS occupant FROM events
        WHERE kind = 'push_stop' AND detail = '{PushStop.COLLISION}' AND {ev}),
    dealt AS (
        SELECT d.game_id,
               CASE d.detail WHEN '{DamageCause.ATTACK}' THEN c.attacker
                   WHEN '{DamageCause.RETALIATION}' THEN c.defender
                   WHEN '{DamageCause.EFFECT}' THEN r.source
                   WHEN '{DamageCause.COLLISION}' THEN s.occupant END AS card,
               sum(d.amount) AS damage_dealt, count(*) AS hits
        FROM dmg d
        ASOF LEFT JOIN combats c ON d.game_id = c.game_id AND d.seq <= c.seq
        ASOF LEFT JOIN resolves r ON d.game_id = r.game_id AND d.seq >= r.seq
        ASOF LEFT JOIN stops s ON d.game_id = s.game_id AND d.seq >= s.seq
        GROUP BY ALL),
    gains AS (
        SELECT g.game_id, r.source AS card, sum(g.amount) AS gained
        FROM (SELECT game_id, seq, amount FROM events
              WHERE kind = 'gain' AND detail NOT IN ('income', 'discard 2') AND {ev}) g
        ASOF JOIN resolves r ON g.game_id = r.game_id AND g.seq >= r.seq
        GROUP BY ALL),
    died AS (
        SELECT game_id, card,
               count(*) FILTER (WHERE detail = '{DestroyCause.UPKEEP}') AS upkeep_deaths,
               count(*) AS deaths
        FROM events WHERE kind = 'death' AND {ev} GROUP BY ALL)
    SELECT game_id, card, coalesce(damage_dealt, 0), coalesce(hits, 0),
           coalesce(upkeep_deaths, 0), coalesce(deaths, 0), coalesce(gained, 0)
    FROM dealt FULL JOIN died USING (game_id, card) FULL JOIN gains USING (game_id, card)
    WHERE card IS NOT NULL AND card <> ''
    """


def _games(run: int, lo: int, hi: int) -> str:
    """Per game with snapshots: lead changes and the round from which the single winner led in
    every later round (analysis/shape.py)."""
    rng = _between("s.game_id", run, lo, hi)
    return f"""
    WITH score AS (
        SELECT s.game_id, s.round, s.player,
               CASE b.victory_kind WHEN 'capture' THEN s.points WHEN 'resource' THEN s.resource
                                   ELSE s.units END AS score
        FROM snapshots s JOIN games g USING (game_id)
        LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
        WHERE {rng}),
    per_round AS (
        SELECT game_id, round,
               CASE WHEN count(*) FILTER (WHERE top) = 1
                    THEN max(player) FILTER (WHERE top) END AS leader
        FROM (SELECT *, score = max(score) OVER (PARTITION BY game_id, round) AS top FROM score)
        GROUP BY ALL),
    changes AS (
        SELECT game_id, count(*) FILTER (WHERE prev IS NOT NULL AND prev <> leader) AS changes
        FROM (SELECT game_id, leader, lag(leader) OVER (PARTITION BY game_id ORDER BY round)
                  AS prev FROM per_round WHERE leader IS NOT NULL)
        GROUP BY ALL),
    decided AS (
        SELECT g.game_id,
               coalesce(max(r.round) FILTER (WHERE r.leader IS DISTINCT FROM g.winners[1]), 0)
                   + 1 AS decided_round
        FROM games g JOIN per_round r USING (game_id)
        WHERE len(g.winners) = 1 AND g.winners[1] >= 0 GROUP BY ALL)
    SELECT game_id, coalesce(c.changes, 0), d.decided_round
    FROM (SELECT DISTINCT game_id FROM per_round)
    LEFT JOIN changes c USING (game_id) LEFT JOIN decided d USING (game_id)
    """


def _rounds(run: int, lo: int, hi: int) -> str:
    """Per board, agent and round: player-turns and sums of the economy's per-turn quantities
    (analysis/economy.py), income split with the board's numbers."""
    rng = _between("s.game_id", run, lo, hi)
    sums = ", ".join(f"sum({c})" for c in ROUND_SUMS)
    squares = ", ".join(f"sum({e})" for _, e in SQUARES)
    return f"""
    WITH t AS (
        SELECT g.board, gs.agent, s.round, s.resource AS unspent, s.resource_start AS before,
               s.buy_resource, s.store AS store_cards, s.income, s.card_gain, s.discard_gain,
               s.spend_buy, s.spend_play, s.spend_upkeep, s.spend_free, s.card_loss,
               s.upkeep_deaths, s.bought,
               coalesce(lag(s.units) OVER w, 0) AS units_before,
               coalesce(b.income, 0) AS board_income,
               coalesce(b.unit_income, 0) AS board_unit_income
        FROM snapshots s JOIN games g USING (game_id)
        JOIN game_seats gs ON gs.game_id = s.game_id AND gs.seat = s.player
        LEFT JOIN run_boards b ON b.run_id = g.run_id AND b.board = g.board
        WHERE {rng}
        WINDOW w AS (PARTITION BY s.game_id, s.player ORDER BY s.round)),
    split AS (
        SELECT *, before + income + discard_gain + card_gain AS held,
               greatest(least(board_income, income), 0) AS income_base,
               greatest(least(board_unit_income * units_before,
                              income - greatest(least(board_income, income), 0)), 0)
                   AS income_units
        FROM t),
    fields AS (SELECT *, income - income_base - income_units AS income_fields FROM split)
    SELECT {run}, board, agent, round, count(*), {sums}, {squares} FROM fields GROUP BY ALL
    """


BUILDERS: Final = (
    ("summary_seats", _seats),
    ("summary_cards", _cards),
    ("summary_damage", _damage),
    ("summary_games", _games),
    ("summary_rounds", _rounds),
)


def _build(con: duckdb.DuckDBPyConnection, run: int, schema: str) -> int:
    """Insert the run's summary rows into `schema`'s tables, chunk by chunk; the games covered."""
    games, top = con.execute(
        "SELECT count(*), coalesce(max(game_index), -1) FROM games WHERE run_id = ?", [run]
    ).fetchall()[0]
    for lo in range(0, int(top) + 1, CHUNK_GAMES):
        for table, sql in BUILDERS:
            con.execute(f'INSERT INTO "{schema}".{table} {sql(run, lo, lo + CHUNK_GAMES)}')
    con.execute(
        f'INSERT INTO "{schema}".summaries VALUES (?, ?, ?, now()::TIMESTAMP)',
        [run, SUMMARY_VERSION, games],
    )
    return int(games)


def _drop(con: duckdb.DuckDBPyConnection, run: int, schema: str) -> None:
    lo, hi = run * GAME_ID_BASE, (run + 1) * GAME_ID_BASE - 1
    for table in TABLES:
        where = (
            f"run_id = {run}"
            if table in ("summaries", "summary_rounds")
            else f"game_id BETWEEN {lo} AND {hi}"
        )
        con.execute(f'DELETE FROM "{schema}".{table} WHERE {where}')


def write(con: duckdb.DuckDBPyConnection, run: int) -> None:
    """Store the run's summaries in the file (one transaction: whole or absent), replacing any
    older ones. For a writer holding every game of the run."""
    catalog = str(con.execute("SELECT current_database()").fetchall()[0][0])
    con.execute("BEGIN TRANSACTION")
    try:
        _drop(con, run, catalog)
        _build(con, run, catalog)
        con.execute("COMMIT")
    except BaseException:
        con.execute("ROLLBACK")
        raise


def _current(con: duckdb.DuckDBPyConnection, runs: Sequence[int], catalog: str) -> set[int]:
    """The runs whose summaries in `catalog` are of this version and cover every stored game."""
    ids = ", ".join(str(int(r)) for r in runs)
    return {
        int(r[0])
        for r in con.execute(f"""
        SELECT s.run_id FROM "{catalog}".summaries s
        LEFT JOIN (SELECT run_id, count(*) AS n FROM games WHERE run_id IN ({ids})
                   GROUP BY ALL) g USING (run_id)
        WHERE s.run_id IN ({ids}) AND s.version = {SUMMARY_VERSION}
              AND coalesce(g.n, 0) = s.games""").fetchall()
    }


def ensure(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> None:
    """Make the summary tables answer for `runs`: the file's when they are current; otherwise
    a scratch database in the temp folder (SCRATCH, first on the search path from then on, so
    it shadows the file's tables for this connection) holding every run asked for so far."""
    databases = {
        r[0] for r in con.execute("SELECT database_name FROM duckdb_databases()").fetchall()
    }
    if SCRATCH not in databases:
        home = str(con.execute("SELECT current_database()").fetchall()[0][0])
        stored = con.execute(
            "SELECT count(*) FROM duckdb_tables() WHERE database_name = ? "
            "AND table_name = 'summaries'",
            [home],
        ).fetchall()[0][0]
        if stored and _current(con, runs, home) >= set(runs):
            return
        folder = Path(tempfile.mkdtemp(prefix="workbench-summaries-"))
        atexit.register(shutil.rmtree, folder, True)
        con.execute(f"ATTACH '{folder / 'summaries.duckdb'}' AS {SCRATCH} (READ_WRITE)")
        for statement in ddl(SCRATCH):
            con.execute(statement)
    # per connection, while an attached database is shared by the connections to one file
    if not str(con.execute("SELECT current_setting('search_path')").fetchall()[0][0]).startswith(
        SCRATCH
    ):
        home = str(con.execute("SELECT current_database()").fetchall()[0][0])
        con.execute(f"""SET search_path = '{SCRATCH},"{home.replace('"', '""')}"'""")
    for run in sorted(set(runs) - _current(con, runs, SCRATCH)):
        _drop(con, run, SCRATCH)
        _build(con, run, SCRATCH)
