"""The balance report's sections, built from the analysis queries (never from the engine)."""

from __future__ import annotations

from collections.abc import Sequence

import duckdb
import polars as pl
from scipy import stats as sstats

from reports import charts
from reports.html import Chart, Section, Table
from workbench.analysis import cards, costs, draft, economy, sets, shape
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, MIN_SAMPLE, difference_summary

CARD_RATES = {"wr_in_store": "in_store", "wr_bought": "bought", "wr_played": "played",
              "wr_never_bought": "never_bought", "buy_rate": "in_store"}


def run_summary(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[tuple[str, str]]:
    """What was simulated: runs, labels, games, sets, boards, agents, engine."""
    rows = query(con, f"""SELECT r.*, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id)
                          AS stored FROM runs r WHERE run_id IN ({run_list(runs)})
                          ORDER BY run_id""")
    out = []
    for r in rows.iter_rows(named=True):
        out.append((f"run {r['run_id']}", f"{r['label'] or '(no label)'}: {r['stored']} of "
                    f"{r['games']} games ({r['status']}), sets {r['sets']}, boards {r['boards']}, "
                    f"agents {r['agents']}, drafters {r['drafters']}, seed {r['seed']}, "
                    f"engine {r['engine_version']}"))
    return out


def draft_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> Section:
    per_card, per_set, by_drafter = draft.draft_tables(con, runs)
    rates = {"pick_rate": "seen", "first_pick_rate": "seen_first"}
    show = ["card", "set", "seen", "picks", "pick_rate", "ata", "alsa", "first_pick_rate"]
    return Section("draft", "Draft", "Pick rate when seen, average pick taken (ATA), average "
                   "last seen (ALSA) and first-pick rate, per card, per set and per drafter. "
                   "A low ATA and a high pick rate mark the cards drafters want first.", [
        Chart("Pick rate when seen (top 30)", charts.rate_bars(
            per_card, "card", "pick_rate", "seen", "Pick rate when seen")),
        Table("draft_cards", "Per card", per_card, rates, show),
        Table("draft_sets", "Per set", per_set, rates,
              ["set", "seen", "picks", "pick_rate", "ata", "alsa", "first_pick_rate"]),
        Table("draft_by_drafter", "Per card and drafter", by_drafter, rates,
              ["card", "drafter", "seen", "picks", "pick_rate", "ata", "alsa"]),
    ])


def cards_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                  table: pl.DataFrame) -> Section:
    s = difference_summary(table, "bought_gain")
    note = (f"Per-card tests of win rate when bought against never bought (two-proportion z "
            f"test): {s['tests']:.0f} tests, {s['raw_below_alpha']:.0f} below p = {ALPHA}; "
            f"about {s['expected_by_chance']:.1f} would be expected by chance alone. After "
            f"Holm's correction {s['holm_significant']:.0f} remain (marked red), after "
            f"Benjamini-Hochberg {s['bh_significant']:.0f}.")
    show = ["card", "set", "in_store", "wr_in_store", "wr_bought", "wr_played",
            "wr_never_bought", "bought_gain", "bought_gain_p", "bought_gain_holm", "buy_rate",
            "avg_round_bought", "plays", "damage_dealt", "damage_per_play", "upkeep_deaths"]
    return Section("cards", "Cards in play", "The 17lands family per card: win rate when in "
                   "the store (drafted), when bought, when played, when never bought, and the "
                   "improvement when bought (bought minus never bought); buy rate, the average "
                   "round of the first buy, damage dealt and units lost to refused upkeep. "
                   "Draws count as not won.", [
        Chart("Buy rate against win rate when bought", charts.scatter(
            table, "buy_rate", "wr_bought", "card", "bought", "Cards: popularity and results",
            "buy rate (bought / in store)", "win rate when bought",
            flag="bought_gain_significant")),
        Chart("Win rate when bought (top 30)", charts.rate_bars(
            table, "card", "wr_bought", "bought", "Win rate when bought")),
        Table("cards", "Per card", table, CARD_RATES, show, note,
              {"bought_gain_significant": "bought_gain"}),
    ])


def sets_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> Section:
    dom = sets.win_rates(con, runs, ["dominant"])
    pair = sets.win_rates(con, runs, ["pair"])
    seat = sets.win_rates(con, runs, ["seat"])
    first = sets.win_rates(con, runs, ["first"])
    agent = sets.win_rates(con, runs, ["agent"])
    by_board = sets.win_rates(con, runs, ["board", "dominant"])
    r = {"win_rate": "seats"}
    return Section("sets", "Sets, seats and agents", "Win rates by the set that dominates a "
                   "player's drafted store ('mixed' on a tie), by its two most drafted sets, by "
                   "board, by seat (first-player advantage) and by agent.", [
        Chart("Win rate by dominant set", charts.rate_bars(
            dom, "dominant", "win_rate", "seats", "Win rate by dominant set")),
        Table("sets_dominant", "By dominant set", dom, r),
        Table("sets_pair", "By pair of sets", pair, r),
        Table("sets_board", "By board and dominant set", by_board, r),
        Table("seats", "By seat", seat, r),
        Table("first_player", "First player against the others", first, r),
        Table("agents", "By agent", agent, r),
    ])


def costs_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                  table: pl.DataFrame) -> Section:
    curve = costs.cost_curve(con, runs)
    priced = costs.price_check(costs.pool_cards(con, runs), table)
    fit = priced.filter((pl.col("in_store") >= MIN_SAMPLE) & pl.col("buy").is_not_null()
                        & pl.col("buy_rate").is_not_null())
    line = None
    if fit.height >= 3 and fit.get_column("buy").n_unique() > 1:
        lr = sstats.linregress(fit.get_column("buy").to_numpy(),
                               fit.get_column("buy_rate").to_numpy())
        line = (float(lr.intercept), float(lr.slope))
    items: list[Table | Chart] = [
        Chart("Cost curves per set", charts.grouped_counts(
            curve, "kind", "cost", "set", "cards", "cards per cost")),
        Chart("Buy cost against buy rate", charts.scatter(
            priced, "buy", "buy_rate", "card", "in_store", "Price and popularity (red: flagged)",
            "buy cost", "buy rate", flag="pricing", line=line)),
        Chart("Buy cost against win rate when bought", charts.scatter(
            priced, "buy", "wr_bought", "card", "bought", "Price and results", "buy cost",
            "win rate when bought")),
        Table("cost_curve", "Cards per cost, per set", curve),
        Table("pricing", "Cost against what the card does and how it does", priced,
              {"buy_rate": "in_store", "wr_bought": "bought"},
              ["card", "set", "type", "buy", "play", "upkeep", "life", "attack", "move",
               "range", "armor", "stats", "stats_per_buy", "in_store", "buy_rate", "wr_bought",
               "buy_rate_residual", "pricing"],
              f"stats = life + attack + move + range + armor + durability. The buy-rate line is "
              f"fitted over cards with at least {MIN_SAMPLE} stores; a card more than "
              f"{costs.OUTLIER_Z} standard deviations above it is flagged 'underpriced?', "
              f"below it 'overpriced?'."),
    ]
    return Section("costs", "Cost curves", "How each set spends buy, play and upkeep costs, "
                   "and what a price buys, so mispriced cards stand out.", items)


def economy_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> Section:
    rounds = economy.per_round(con, runs)
    by_board = economy.per_round(con, runs, ["board"])
    by_agent = economy.per_round(con, runs, ["agent"])
    totals = pl.concat([economy.totals(con, runs).rename({"scope": "group"}),
                        economy.totals(con, runs, ["board"]).rename({"board": "group"}),
                        economy.totals(con, runs, ["agent"]).rename({"agent": "group"})],
                       how="vertical_relaxed")
    return Section("economy", "Resource economy", economy.__doc__.split("\n\n")[1].replace(
        "\n", " ") if economy.__doc__ else "", [
        Chart("Resource per round", charts.lines(
            rounds, "round", ["held", "income", "spend_buy", "spend_play", "spend_upkeep",
                              "unspent"], "Mean per player-turn", "resource")),
        Chart("Income split per round", charts.lines(
            rounds, "round", ["income_base", "income_units", "income_fields", "discard_gain"],
            "Where income comes from", "resource")),
        Chart("Spending on buys per round, by agent", charts.lines(
            by_agent, "round", ["spend_buy", "spend_upkeep"], "By agent", "resource",
            group="agent")),
        Table("economy_rounds", "Per round", rounds),
        Table("economy_board", "Per round and board", by_board),
        Table("economy_agent", "Per round and agent", by_agent),
        Table("economy_totals", "Whole game, per player: all, per board, per agent", totals,
              note="upkeep_deaths: units lost to refused upkeep (R5.3); the cards that died "
                   "so are in the cards table."),
    ])


def shape_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> Section:
    summary = shape.summary(con, runs)
    lengths = shape.lengths(con, runs)
    ends = shape.endings(con, runs)
    return Section("shape", "Game shape", shape.__doc__.replace("\n", " ")
                   if shape.__doc__ else "", [
        Chart("Game length", charts.grouped_counts(
            lengths.with_columns(pl.lit("rounds").alias("panel")), "panel", "rounds", "board",
            "games", "games per length")),
        Table("shape", "Per board and overall", summary,
              {"draw_rate": "games", "round_limit_rate": "games"}),
        Table("endings", "How games ended", ends, {"share": "board_games"}),
        Table("lengths", "Length distribution", lengths),
    ])


def boards_section(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> Section:
    balance = sets.seat_balance(con, runs)
    seat = sets.win_rates(con, runs, ["board", "seat"])
    boards = query(con, f"""SELECT board, any_value(victory_kind) AS victory_kind,
                           any_value(victory_target) AS victory_target,
                           any_value(income) AS income, any_value(unit_income) AS unit_income,
                           any_value(round_limit) AS round_limit,
                           any_value(width) || 'x' || any_value(height) AS size
                           FROM run_boards WHERE run_id IN ({run_list(runs)})
                           GROUP BY board ORDER BY board""")
    board_rows = boards.join(balance, on="board", how="left")
    first = sets.win_rates(con, runs, ["board", "first"]).filter(pl.col("first")).select(
        "board", pl.col("win_rate").alias("first_player_win_rate"),
        pl.col("win_rate_lo").alias("first_player_win_rate_lo"),
        pl.col("win_rate_hi").alias("first_player_win_rate_hi"))
    ends = shape.endings(con, runs)
    top_end = ends.sort("games", descending=True).group_by("board", maintain_order=True).first()
    side = board_rows.join(first, on="board", how="left").join(
        shape.summary(con, runs).select("board", "games", "mean_rounds", "median_rounds",
                                        "draws", "draw_rate", "draw_rate_lo", "draw_rate_hi"),
        on="board", how="left").join(top_end.select(
            "board", pl.col("reason").alias("main_ending"), pl.col("share").alias("ending_share"),
            pl.col("share_lo").alias("ending_share_lo"), pl.col("share_hi").alias("ending_share_hi"),
            pl.col("board_games")), on="board", how="left")
    economy_rounds = economy.per_round(con, runs, ["board"])
    by_set = sets.win_rates(con, runs, ["board", "dominant"])
    return Section("boards", "Boards", "Each board's rules and balance side by side: seat win "
                   "rates and Ludii's balance (one minus the largest win-rate gap between "
                   "seats; 1 = every seat wins equally often), the first player's win rate, "
                   "game length, draws, the condition that ended most games, the economy per "
                   "round and which sets win on which board. In a comparison run "
                   "(`simulate --board A,B,C`) every board plays the same sets, agents and "
                   "seeds.", [
        Chart("Seat win rate per board", charts.rate_bars(
            seat.with_columns((pl.col("board") + " seat " + pl.col("seat").cast(pl.String))
                              .alias("label")), "label", "win_rate", "seats",
            "Win rate per board and seat")),
        Table("boards", "Boards", board_rows),
        Table("boards_side_by_side", "Boards side by side", side,
              {"first_player_win_rate": "seat_games", "draw_rate": "games",
               "ending_share": "board_games"}),
        Table("board_seats", "Per board and seat", seat, {"win_rate": "seats"}),
        Table("board_endings", "Which condition ended the games, per board", ends,
              {"share": "board_games"}),
        Chart("Resource per round, by board", charts.lines(
            economy_rounds, "round", ["income", "spend_buy", "unspent"],
            "Economy per round and board", "resource", group="board")),
        Table("board_economy", "Economy per round and board", economy_rounds),
        Chart("Win rate by board and dominant set", charts.rate_bars(
            by_set.with_columns((pl.col("board") + ": " + pl.col("dominant").fill_null("?"))
                                .alias("label")), "label", "win_rate", "seats",
            "Which sets win on which board")),
        Table("board_sets", "Which sets win on which board", by_set, {"win_rate": "seats"}),
    ])


def sections(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[Section]:
    """Every section of the report, in reading order."""
    table = cards.card_table(con, runs)
    return [draft_section(con, runs), cards_section(con, runs, table), sets_section(con, runs),
            costs_section(con, runs, table), economy_section(con, runs),
            shape_section(con, runs), boards_section(con, runs)]
