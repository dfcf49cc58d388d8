"""The report's sections on resource: what cards cost (cost curves, prices against buy and win
rates) and where resource comes from and goes (the economy per round and per game)."""

from __future__ import annotations

from collections.abc import Sequence

import polars as pl

from reports import charts
from reports.html import Chart, FindingList, Section, Table
from workbench.analysis import cards, costs, economy, findings
from workbench.analysis.runs import Runs
from workbench.analysis.stats import MIN_SAMPLE

PRICING_COLUMNS = (
    "card",
    "set",
    "type",
    "buy",
    "play",
    "upkeep",
    "life",
    "attack",
    "move",
    "range",
    "armor",
    "stats",
    "stats_per_buy",
    "in_store",
    "buy_rate",
    "wr_bought",
    "buy_rate_residual",
    "pricing",
)
SOURCES = (
    ("carried", "carried over"),
    ("income_base", "income: base"),
    ("income_units", "income: per unit"),
    ("income_fields", "income: fields"),
    ("discard_gain", "discarding 2 (R8.6)"),
    ("card_gain", "gains from cards"),
)
USES = (
    ("spend_buy", "buying"),
    ("spend_play", "playing"),
    ("spend_upkeep", "upkeep"),
    ("spend_free", "free actions"),
    ("card_loss", "lost to cards"),
    ("unspent", "left"),
)


def costs_section(r: Runs) -> Section:
    curve = costs.cost_curve(r)
    priced = costs.price_check(costs.pool_cards(r), cards.card_table(r))
    return Section(
        "costs",
        "Cost curves",
        "How each set spends buy, play and upkeep costs, "
        "and what a price buys, so mispriced cards stand out.",
        [
            *_cost_charts(curve, priced),
            Table("cost_curve", "Cards per cost and set", curve),
            Table(
                "pricing",
                "Cost against what the card does and how it does",
                priced,
                {"buy_rate": "in_store", "wr_bought": "bought"},
                PRICING_COLUMNS,
                f"stats = life + attack + move + range + armor + durability. The buy-rate line is "
                f"fitted over cards with at least {MIN_SAMPLE} stores; a card more than "
                f"{costs.OUTLIER_Z} standard deviations above it is flagged 'underpriced?', "
                f"below it 'overpriced?'.",
            ),
        ],
    )


def _cost_charts(curve: pl.DataFrame, priced: pl.DataFrame) -> list[Chart]:
    """The cost curve of each set, then price against popularity (with the fitted buy-rate
    line, outliers flagged) and against results."""
    return [
        Chart(
            "Cards per cost, per set",
            charts.grouped_counts(
                curve, "kind", "cost", "set", "cards", "cards per cost", "cost", "cards"
            ),
        ),
        Chart(
            "Buy cost against buy rate",
            charts.scatter(
                priced,
                "buy",
                "buy_rate",
                "card",
                "in_store",
                "Price and popularity (red: flagged)",
                "buy cost",
                "buy rate",
                flag="pricing",
                line=costs.buy_rate_line(priced),
            ),
        ),
        Chart(
            "Buy cost against win rate when bought",
            charts.scatter(
                priced,
                "buy",
                "wr_bought",
                "card",
                "bought",
                "Price and results",
                "buy cost",
                "win rate when bought",
            ),
        ),
    ]


def economy_section(r: Runs) -> Section:
    rounds = economy.per_round(r)
    return Section(
        "economy",
        "Resource economy",
        "Every player-turn balances: resource "
        "carried over + income + gains from discarding and from cards (spells, "
        "stealing, field actions) = buying + playing + upkeep + free actions + "
        "losses to cards + resource left, so the two stacked charts have the same "
        "height. Income is split into the board's base income, its income per unit "
        "(estimated from the units at the end of the previous turn) and income "
        "fields. Buying is measured at the buy step: the share of player-turns that "
        "buy a card, and the resource and store cards held then.",
        [*_per_round(rounds, r.th), *_per_board_and_agent(r), _totals_table(r)],
    )


def _per_round(rounds: pl.DataFrame, th: findings.Thresholds) -> list[Table | Chart | FindingList]:
    """Sources and uses stacked on one scale (so their heights match), buying and upkeep
    against the thresholds the findings use, and the table behind them (with each round's
    player-turns). Late rounds rest on the few games that last that long: rounds with fewer
    than the report's minimum sample of player-turns are greyed on every chart and named in
    its title."""
    top = float(rounds.get_column("held").max() or 1.0) * 1.05  # type: ignore[arg-type]
    sparse = sparse_rounds(rounds, th.min_sample)
    label = f"fewer than {th.min_sample} player-turns"
    note = (
        f" (grey: round{'s' if len(sparse) > 1 else ''} {spans(sparse)}, {label})" if sparse else ""
    )
    stacks = (("comes from", SOURCES), ("goes", USES))
    return [
        *(
            Chart(
                f"Where resource {what}, per round{note}",
                charts.stacked(
                    rounds,
                    "round",
                    ys,
                    f"Where resource {what} (mean per player-turn)",
                    "round",
                    "resource",
                    top,
                    sparse,
                    label,
                ),
            )
            for what, ys in stacks
        ),
        Chart(
            f"Buying and upkeep per round{note}",
            charts.lines(
                rounds,
                "round",
                [("buy_share", "turns that buy a card"), ("upkeep_share", "upkeep / income")],
                "Buying and upkeep per round",
                "round",
                "share",
                refs=[
                    (th.buy_stop, "buying stops below", "buy_share"),
                    (th.stall, "upkeep stalls from", "upkeep_share"),
                ],
                sparse=sparse,
                sparse_label=label,
            ),
        ),
        Table(
            "economy_rounds",
            "Economy per round",
            rounds,
            {"buy_share": "turns"},
            note=f"turns: the player-turns behind each round's means; below {th.min_sample} "
            "the round is grey on the charts above.",
        ),
    ]


def sparse_rounds(rounds: pl.DataFrame, min_sample: int) -> list[int]:
    """The rounds whose means rest on fewer than `min_sample` player-turns."""
    return rounds.filter(pl.col("turns") < min_sample).get_column("round").sort().to_list()


def spans(values: Sequence[int]) -> str:
    """`3, 21–25`: whole numbers with their runs joined."""
    runs: list[list[int]] = []
    for v in sorted(values):
        if runs and v == runs[-1][-1] + 1:
            runs[-1].append(v)
        else:
            runs.append([v])
    return ", ".join(str(r[0]) if len(r) == 1 else f"{r[0]}–{r[-1]}" for r in runs)


def _per_board_and_agent(r: Runs) -> list[Table | Chart | FindingList]:
    """Buying per round by board and spending per round by agent, when the run has several."""
    items: list[Table | Chart | FindingList] = []
    if r.boards > 1:
        by_board = economy.per_round(r, ["board"])
        items += [
            Chart(
                "Buying per round, by board",
                charts.lines(
                    by_board,
                    "round",
                    [("buy_share", "buys")],
                    "Turns that buy a card",
                    "round",
                    "share of player-turns",
                    group="board",
                ),
            ),
            Table("economy_board", "Economy per round and board", by_board, {"buy_share": "turns"}),
        ]
    if r.agents > 1:
        by_agent = economy.per_round(r, ["agent"])
        items += [
            Chart(
                "Spending per round, by agent",
                charts.lines(
                    by_agent,
                    "round",
                    [("spend_buy", "buying"), ("spend_upkeep", "upkeep")],
                    "Spending per round, by agent",
                    "round",
                    "resource",
                    group="agent",
                ),
            ),
            Table("economy_agent", "Economy per round and agent", by_agent, {"buy_share": "turns"}),
        ]
    return items


def _totals_table(r: Runs) -> Table:
    """Whole-game means per player, overall and per board and agent when there are several."""
    parts = [economy.totals(r).rename({"scope": "group"})]
    for key, many in (("board", r.boards), ("agent", r.agents)):
        if many > 1:
            parts.append(economy.totals(r, [key]).rename({key: "group"}))
    return Table(
        "economy_totals",
        "Whole game, per player",
        pl.concat(parts, how="vertical_relaxed"),
        note="Means per player and game; bought: cards bought; "
        "upkeep_deaths: units lost to refused upkeep (R5.3), by card in the cards table.",
    )
