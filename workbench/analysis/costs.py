"""Cost curves: how each set spends its buy, play and upkeep costs, and what a cost buys.

"Stats" of a card are its printed numbers added up (life + attack + move + range + armor +
durability); stats per buy cost compares bodies across prices. Mispricing is read from the buy
rate: a line fitted through (buy cost, buy rate) over cards with enough samples says what a
price predicts; cards far above the line are bought more than their price suggests
(underpriced?), far below less (overpriced?).
"""

from __future__ import annotations

import polars as pl
from scipy import stats

from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import MIN_SAMPLE
from workbench.content.card_sets import COSTS

OUTLIER_Z = 2.0
"""A card is flagged when its buy-rate residual is this many standard deviations off the line."""


def pool_cards(r: Runs) -> pl.DataFrame:
    """The draftable cards of the runs (run_cards, in_pool), one row per name (latest run)."""
    return query(
        r.con,
        f"""
        SELECT * EXCLUDE (run_id, in_pool),
               coalesce(life, 0) + coalesce(attack, 0) + coalesce(move, 0) + coalesce(range, 0)
               + coalesce(armor, 0) + coalesce(durability, 0) AS stats
        FROM run_cards WHERE in_pool AND run_id IN ({run_list(r.runs)})
        QUALIFY row_number() OVER (PARTITION BY name ORDER BY run_id DESC) = 1
        ORDER BY "set", name""",
    ).with_columns(
        pl.when(pl.col("buy") > 0)
        .then(pl.col("stats") / pl.col("buy"))
        .otherwise(None)
        .alias("stats_per_buy")
    )


def cost_curve(r: Runs) -> pl.DataFrame:
    """Per set, cost kind and value: distinct cards and copies (cards without that cost skip)."""
    cards = pool_cards(r)
    parts = [
        cards.filter(pl.col(c).is_not_null())
        .group_by("set", pl.col(c).alias("cost"))
        .agg(pl.len().alias("cards"), pl.col("copies").sum())
        .with_columns(pl.lit(c).alias("kind"))
        for c in COSTS
    ]
    return (
        pl.concat(parts)
        .select("set", "kind", "cost", "cards", "copies")
        .sort("set", "kind", "cost")
    )


def fitted(cards: pl.DataFrame) -> pl.DataFrame:
    """The cards the price line is fitted to: a buy cost, a buy rate, and at least MIN_SAMPLE
    seats with the card in store (so noise alone does not bend the line)."""
    return cards.filter(
        (pl.col("in_store") >= MIN_SAMPLE)
        & pl.col("buy").is_not_null()
        & pl.col("buy_rate").is_not_null()
    )


def buy_rate_line(cards: pl.DataFrame) -> tuple[float, float] | None:
    """(intercept, slope) of the least-squares line of buy rate on buy cost over `fitted`
    cards; None with fewer than 3 of them or a single price."""
    fit = fitted(cards)
    if fit.height < 3 or fit.get_column("buy").n_unique() < 2:
        return None
    line = stats.linregress(fit.get_column("buy").to_numpy(), fit.get_column("buy_rate").to_numpy())
    return float(line.intercept), float(line.slope)


def price_check(cards: pl.DataFrame, results: pl.DataFrame) -> pl.DataFrame:
    """Cards with their costs, stats, buy rate and win rate when bought, and a pricing flag.

    `results` is cards.card_results; only cards with at least MIN_SAMPLE seats in store enter
    the fit (and get a flag), so noise alone does not mark a card.
    """
    df = cards.rename({"name": "card"}).join(
        results.select("card", "in_store", "buy_rate", "bought", "wr_bought", "bought_gain"),
        on="card",
        how="left",
    )
    fit = fitted(df)
    line = buy_rate_line(df)
    if line is None:
        return df.with_columns(
            pl.lit(None, dtype=pl.Float64).alias("buy_rate_residual"),
            pl.lit(None, dtype=pl.Float64).alias("residual_z"),
            pl.lit("").alias("pricing"),
        )
    intercept, slope = line
    resid = pl.col("buy_rate") - (intercept + slope * pl.col("buy"))
    spread = float(
        (
            fit.get_column("buy_rate").to_numpy()
            - (intercept + slope * fit.get_column("buy").to_numpy())
        ).std(ddof=1)
    )
    df = df.with_columns(resid.alias("buy_rate_residual")).with_columns(
        (pl.col("buy_rate_residual") / spread if spread > 0 else pl.lit(None, pl.Float64)).alias(
            "residual_z"
        )
    )
    flag = (
        pl.when(pl.col("in_store") < MIN_SAMPLE)
        .then(pl.lit(""))
        .when(pl.col("residual_z") > OUTLIER_Z)
        .then(pl.lit("underpriced?"))
        .when(pl.col("residual_z") < -OUTLIER_Z)
        .then(pl.lit("overpriced?"))
        .otherwise(pl.lit(""))
    )
    return df.with_columns(flag.fill_null("").alias("pricing"))
