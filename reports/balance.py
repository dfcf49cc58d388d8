"""The balance report's sections, built from the analysis queries (never from the engine).

Reading order: the findings first, then one section per subject, each subject in one place. A
split by board, agent or drafter is shown only when the run has more than one. Seats are
numbered from 1, as people count them (the database keeps them 0-based).
"""

from __future__ import annotations

from collections.abc import Sequence
from dataclasses import asdict, dataclass

import duckdb
import polars as pl

from reports import charts
from reports.html import Chart, FindingList, Section, Table
from workbench.analysis import (
    cards,
    costs,
    draft,
    drafted,
    economy,
    findings,
    sets,
    severity,
    shape,
    stability,
)
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, MIN_SAMPLE, difference_summary
from workbench.analysis.study_findings import stability_findings

CARD_RATES = {
    "wr_in_store": "in_store",
    "wr_bought": "bought",
    "wr_played": "played",
    "wr_never_bought": "never_bought",
    "buy_rate": "in_store",
    "bought_gain": "bought",
}
WIN = {"win_rate": "seats"}


@dataclass(frozen=True)
class Run:
    """What every section needs to know about the runs reported on."""

    con: duckdb.DuckDBPyConnection
    runs: Sequence[int]
    boards: int
    agents: int
    drafters: int
    cards: pl.DataFrame
    """cards.card_table"""
    dead: pl.DataFrame
    """findings.dead_cards"""
    drafts: tuple[pl.DataFrame, pl.DataFrame, pl.DataFrame]
    """draft.draft_tables: per card, per set, per card and drafter (one pass over the packs)"""
    shares: pl.DataFrame
    """drafted.card_shares at the report's Kraken thresholds"""
    th: findings.Thresholds
    verdicts: pl.DataFrame | None = None
    """stability.verdict_table of the runs against the --skill-run runs, if any"""
    players: Sequence[str] = ()
    """their labels, the reported runs first"""

    @property
    def by_board(self) -> list[str]:
        return ["board"] if self.boards > 1 else []


def run_summary(con: duckdb.DuckDBPyConnection, runs: Sequence[int]) -> list[tuple[str, str]]:
    """What was simulated: runs, labels, games, sets, boards, agents, engine."""
    rows = query(
        con,
        f"""SELECT r.*, (SELECT count(*) FROM games g WHERE g.run_id = r.run_id)
                          AS stored FROM runs r WHERE run_id IN ({run_list(runs)})
                          ORDER BY run_id""",
    )
    out = []
    for r in rows.iter_rows(named=True):
        out.append(
            (
                f"run {r['run_id']}",
                f"{r['label'] or '(no label)'}: {r['stored']} of "
                f"{r['games']} games ({r['status']}), sets {r['sets']}, boards {r['boards']}, "
                f"agents {r['agents']}, drafters {r['drafters']}, seed {r['seed']}, "
                f"engine {r['engine_version']}",
            )
        )
    return out


def seats_from_1(df: pl.DataFrame) -> pl.DataFrame:
    """The database's 0-based seat as people count it."""
    return df.with_columns(pl.col("seat") + 1) if "seat" in df.columns else df


def findings_list(found: Sequence[findings.Finding], intro: str, empty: str) -> Section:
    """The Findings section that opens every page: the headline list linking to the sections,
    and every finding in a table when the list leaves some out."""
    shown, left = findings.headline(found)
    where = {f.kind: f.section for f in found}
    items: list[Table | Chart | FindingList] = [
        FindingList(
            [(f.severity, f.text, f.section) for f in shown],
            [(kind, count, where[kind]) for kind, count in left.items()],
            empty,
        )
    ]
    if left:
        items.append(
            Table(
                "findings",
                "Every finding",
                findings.as_frame(found),
                show=["rank", "severity", "kind", "finding"],
            )
        )
    return Section("findings", "Findings", intro, items)


def findings_section(found: Sequence[findings.Finding], th: findings.Thresholds) -> Section:
    limits = ", ".join(f"{k} {v:g}" for k, v in asdict(th).items())
    return findings_list(
        found,
        "What to look at first, most severe first. High: the whole 95% interval lies "
        "beyond the threshold; medium: the estimate does and the interval excludes the even "
        "value; low: the estimate does, but the sample cannot tell it from noise. Intervals are "
        f"95%, n the sample. Thresholds (report --band, --threshold NAME=VALUE): {limits}.",
        "Nothing lies beyond the thresholds: seats, sets and cards are within their bands, "
        "no card is dead, the economy neither stalls nor piles up, and games end in time.",
    )


def sets_section(r: Run) -> Section:
    seat = seats_from_1(sets.win_rates(r.con, r.runs, ["board", "seat"]))
    label = (pl.col("board") + ": seat " if r.boards > 1 else pl.lit("seat ")) + pl.col(
        "seat"
    ).cast(pl.String)
    dom = sets.win_rates(r.con, r.runs, [*r.by_board, "dominant"])
    dom_label = (pl.col("board") + ": " if r.boards > 1 else pl.lit("")) + pl.col(
        "dominant"
    ).fill_null("?")
    even = (
        float(seat.get_column("wins").sum()) / float(seat.get_column("seats").sum())
        if r.boards == 1 and seat.height
        else None
    )
    items: list[Table | Chart | FindingList] = [
        Chart(
            "Win rate by seat",
            charts.rate_bars(
                seat.with_columns(label.alias("label")),
                "label",
                "win_rate",
                "seats",
                "Win rate by seat",
                "win rate",
                even=even,
            ),
        ),
        Table("seats", "By seat", seat, WIN),
    ]
    first = sets.win_rates(r.con, r.runs, ["board", "first"])
    starts = query(
        r.con,
        f"""SELECT count(DISTINCT first_player) FROM games
                             WHERE run_id IN ({run_list(r.runs)})""",
    ).item()
    if starts > 1:
        items.append(Table("first_player", "First player against the others", first, WIN))
    items += [
        Chart(
            "Win rate by dominant set",
            charts.rate_bars(
                dom.with_columns(dom_label.alias("label")),
                "label",
                "win_rate",
                "seats",
                "Win rate by dominant set",
                "win rate",
                even=even,
            ),
        ),
        Table("sets_dominant", "By dominant set", dom, WIN),
        Table("sets_pair", "By pair of sets", sets.win_rates(r.con, r.runs, ["pair"]), WIN),
    ]
    kinds = query(
        r.con,
        f"""SELECT count(DISTINCT victory_kind) FROM run_boards
                            WHERE run_id IN ({run_list(r.runs)})""",
    ).item()
    if 1 < kinds < r.boards:
        items.append(
            Table(
                "sets_victory",
                "By victory condition and dominant set",
                sets.win_rates(r.con, r.runs, ["victory", "dominant"]),
                WIN,
            )
        )
    if r.agents > 1:
        items.append(Table("agents", "By agent", sets.win_rates(r.con, r.runs, ["agent"]), WIN))
    return Section(
        "sets",
        "Seats, sets and agents",
        "Win rates by seat (seat 1 moves first "
        "unless the first-player table says otherwise), by the set that dominates "
        "a player's drafted store ('mixed' on a tie) and by its two most drafted "
        "sets"
        + (", by board" if r.boards > 1 else "")
        + (" and by agent" if r.agents > 1 else "")
        + ". Draws count as not won.",
        items,
    )


def cards_section(r: Run) -> Section:
    table = r.cards
    show = [
        "card",
        "set",
        "in_store",
        "wr_in_store",
        "wr_bought",
        "wr_played",
        "wr_never_bought",
        "bought_gain",
        "bought_gain_p",
        "bought_gain_holm",
        "buy_rate",
        "avg_round_bought",
        "plays",
        "damage_dealt",
        "damage_per_play",
        "upkeep_deaths",
    ]
    skill: list[Table | Chart | FindingList] = []
    if r.verdicts is not None:
        table = table.join(r.verdicts.select("card", "across_skill"), on="card", how="left")
        show.append("across_skill")
        skill.append(_verdicts_table(r, r.verdicts))
    return Section(
        "cards",
        "Cards in play",
        "The 17lands family per card: win rate when in "
        "the store (drafted), when bought, when played, when never bought, and the "
        "improvement when bought (bought minus never bought); buy rate, the average "
        "round of the first buy, damage dealt and units lost to refused upkeep. "
        "Draws count as not won.",
        [
            Chart(
                "Buy rate against win rate when bought",
                charts.scatter(
                    table,
                    "buy_rate",
                    "wr_bought",
                    "card",
                    "bought",
                    "Cards: popularity and results",
                    "buy rate (bought / in store)",
                    "win rate when bought",
                    flag="bought_gain_significant",
                ),
            ),
            Chart(
                "Win rate when bought: the top 30",
                charts.rate_bars(
                    table,
                    "card",
                    "wr_bought",
                    "bought",
                    "Win rate when bought",
                    "win rate when bought",
                ),
            ),
            Table(
                "cards",
                "Per card",
                table,
                CARD_RATES,
                show,
                _tests_note(r.cards),
                {"bought_gain_significant": "bought_gain"},
            ),
            _dead_cards_table(r),
            *skill,
            *_drafted_tables(r),
        ],
    )


def _tests_note(table: pl.DataFrame) -> str:
    """How many per-card tests, how many pass by chance, how many survive the corrections."""
    s = difference_summary(table, "bought_gain")
    return (
        f"Per-card tests of win rate when bought against never bought (two-proportion z "
        f"test): {s['tests']:.0f} tests, {s['raw_below_alpha']:.0f} below p = {ALPHA}; "
        f"about {s['expected_by_chance']:.1f} would be expected by chance alone. After "
        f"Holm's correction {s['holm_significant']:.0f} remain (marked red), after "
        f"Benjamini-Hochberg {s['bh_significant']:.0f}. bought_gain is in points, with "
        f"Newcombe's interval."
    )


def _verdicts_table(r: Run, verdicts: pl.DataFrame) -> Table:
    """Each card's verdict in the reported runs and in each --skill-run."""
    return Table(
        "verdicts",
        "Verdicts across skill",
        verdicts,
        {},
        [
            "card",
            "set",
            *(c for p in r.players for c in (f"verdict@{p}", f"bought_gain@{p}")),
            "across_skill",
        ],
        "The report's verdict on each card (too strong or too weak when its improvement "
        "when bought survives Benjamini-Hochberg's correction, else fine; no estimate when "
        "no holder bought it or every one did) in the reported runs and in each run given "
        "by --skill-run, the same setup played by other agents. across_skill: stable when "
        "every player that judged the card agrees, else which players disagree.",
    )


def _dead_cards_table(r: Run) -> Table:
    note = (
        f"Pool cards bought by fewer than the rare-buy share of the players who "
        f"drafted them, and why: {findings.NEVER_DRAFTED} (drafters pass them in every "
        f"pack); {findings.NEVER_AFFORDABLE} (at fewer than that share of the buy steps "
        f"where a copy was in the store, the player held its buy price); "
        f"{findings.PASSED} (the price was there, the player bought something else or "
        f"nothing). chances: packs seen, or buy steps with a copy in the store."
    )
    return Table(
        "dead_cards",
        "Cards rarely or never bought, and why",
        r.dead,
        {"buy_rate": "in_store"},
        note=note,
    )


def _drafted_tables(r: Run) -> list[Table]:
    """Drafted and never bought: per set (and board), and per card with the Kraken-like."""
    return [
        Table(
            "drafted_sets",
            "Drafted and never bought, per set" + (" and board" if r.boards > 1 else ""),
            drafted.set_shares(r.con, r.runs),
            {"never_bought_share": "picks", "early_never_bought_share": "early_picks"},
            [
                *r.by_board,
                "set",
                "picks",
                "never_bought",
                "never_bought_share",
                "early_picks",
                "early_never_bought",
                "early_never_bought_share",
            ],
            note=f"Drafted copies their seat never bought in that game, of all picks and of "
            f"the first {drafted.EARLY_PICKS} picks of each pack (a seat's buys of a "
            f"card count against its earliest picks of it). One card a turn can be "
            f"bought (R7.2), so most of a store stays unbought whatever the drafter "
            f"does; the early picks show what the drafter chose freely.",
        ),
        Table(
            "drafted_cards",
            "Drafted and never bought, per card" + (" and board" if r.boards > 1 else ""),
            r.shares.sort(["kraken", "seats_drafted"], descending=True),
            {"bought_share": "seats_drafted"},
            [
                *r.by_board,
                "card",
                "set",
                "games",
                "games_drafted",
                "seats_drafted",
                "seats_bought",
                "bought_share",
                "picks",
                "ata",
                "kraken",
            ],
            note=f"games_drafted: games in which a seat drafted it; seats_bought: drafting "
            f"seats that bought a copy; ata: mean pick number. kraken: drafted in at "
            f"least {severity.pct(r.th.kraken_drafted)} of the games and bought by at "
            f"most {severity.pct(r.th.kraken_bought)} of its drafting seats, like the "
            f"demo's Kraken.",
        ),
    ]


def draft_section(r: Run) -> Section:
    per_card, per_set, by_drafter = r.drafts
    rates = {"pick_rate": "seen", "first_pick_rate": "seen_first"}
    show = ["card", "set", "seen", "picks", "pick_rate", "ata", "alsa", "first_pick_rate"]
    items: list[Table | Chart | FindingList] = [
        Chart(
            "Pick rate when seen: the top 30",
            charts.rate_bars(
                per_card, "card", "pick_rate", "seen", "Pick rate when seen", "pick rate when seen"
            ),
        ),
        Table("draft_cards", "Picks per card", per_card, rates, show),
        Table(
            "draft_sets",
            "Picks per set",
            per_set,
            rates,
            ["set", "seen", "picks", "pick_rate", "ata", "alsa", "first_pick_rate"],
        ),
    ]
    if r.drafters > 1:
        items.append(
            Table(
                "draft_by_drafter",
                "Picks per card and drafter",
                by_drafter,
                rates,
                ["card", "drafter", "seen", "picks", "pick_rate", "ata", "alsa"],
            )
        )
    return Section(
        "draft",
        "Draft",
        "Pick rate when seen, average pick taken (ATA), average "
        "last seen (ALSA) and first-pick rate, per card and per set"
        + (" and drafter" if r.drafters > 1 else "")
        + ". A low ATA and a high pick "
        "rate mark the cards drafters want first.",
        items,
    )


def costs_section(r: Run) -> Section:
    curve = costs.cost_curve(r.con, r.runs)
    priced = costs.price_check(costs.pool_cards(r.con, r.runs), r.cards)
    line = costs.buy_rate_line(priced)
    return Section(
        "costs",
        "Cost curves",
        "How each set spends buy, play and upkeep costs, "
        "and what a price buys, so mispriced cards stand out.",
        [
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
                    line=line,
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
            Table("cost_curve", "Cards per cost and set", curve),
            Table(
                "pricing",
                "Cost against what the card does and how it does",
                priced,
                {"buy_rate": "in_store", "wr_bought": "bought"},
                [
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
                ],
                f"stats = life + attack + move + range + armor + durability. The buy-rate line is "
                f"fitted over cards with at least {MIN_SAMPLE} stores; a card more than "
                f"{costs.OUTLIER_Z} standard deviations above it is flagged 'underpriced?', "
                f"below it 'overpriced?'.",
            ),
        ],
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


def economy_section(r: Run, th: findings.Thresholds) -> Section:
    rounds = economy.per_round(r.con, r.runs)
    top = float(rounds.get_column("held").max() or 1.0) * 1.05  # type: ignore[arg-type]
    items: list[Table | Chart | FindingList] = [
        Chart(
            "Where resource comes from, per round",
            charts.stacked(
                rounds,
                "round",
                SOURCES,
                "Where resource comes from (mean per player-turn)",
                "round",
                "resource",
                top,
            ),
        ),
        Chart(
            "Where resource goes, per round",
            charts.stacked(
                rounds,
                "round",
                USES,
                "Where resource goes (mean per player-turn)",
                "round",
                "resource",
                top,
            ),
        ),
        Chart(
            "Buying and upkeep per round",
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
            ),
        ),
        Table("economy_rounds", "Economy per round", rounds, {"buy_share": "turns"}),
    ]
    if r.boards > 1:
        by_board = economy.per_round(r.con, r.runs, ["board"])
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
        by_agent = economy.per_round(r.con, r.runs, ["agent"])
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
    parts = [economy.totals(r.con, r.runs).rename({"scope": "group"})]
    for key, many in (("board", r.boards), ("agent", r.agents)):
        if many > 1:
            parts.append(economy.totals(r.con, r.runs, [key]).rename({key: "group"}))
    items.append(
        Table(
            "economy_totals",
            "Whole game, per player",
            pl.concat(parts, how="vertical_relaxed"),
            note="Means per player and game; bought: cards bought; "
            "upkeep_deaths: units lost to refused upkeep (R5.3), by card in the cards table.",
        )
    )
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
        items,
    )


def shape_section(r: Run) -> Section:
    summary = shape.summary(r.con, r.runs)
    if r.boards == 1:
        summary = summary.filter(pl.col("board") != "all")
    lengths = shape.lengths(r.con, r.runs)
    return Section(
        "shape",
        "Game shape",
        shape.__doc__.replace("\n", " ") if shape.__doc__ else "",
        [
            Chart(
                "Game length",
                charts.grouped_counts(
                    lengths.with_columns(pl.lit("rounds").alias("panel")),
                    "panel",
                    "rounds",
                    "board",
                    "games",
                    "Games per length",
                    "rounds played",
                    "games",
                ),
            ),
            Table(
                "shape",
                "Length, draws and leads" + (" per board" if r.boards > 1 else ""),
                summary,
                {"draw_rate": "games", "round_limit_rate": "games"},
            ),
            Table(
                "endings", "How games ended", shape.endings(r.con, r.runs), {"share": "board_games"}
            ),
            Table("lengths", "Games per length", lengths),
        ],
    )


def boards_section(r: Run) -> Section:
    boards = query(
        r.con,
        f"""SELECT board, any_value(victory_kind) AS victory_kind,
                           any_value(victory_target) AS victory_target,
                           any_value(income) AS income, any_value(unit_income) AS unit_income,
                           any_value(round_limit) AS round_limit,
                           any_value(width) || 'x' || any_value(height) AS size,
                           any_value(players) AS players
                           FROM run_boards WHERE run_id IN ({run_list(r.runs)})
                           GROUP BY board ORDER BY board""",
    )
    items: list[Table | Chart | FindingList] = [Table("boards", "Rules of each board", boards)]
    if r.boards > 1:
        balance = sets.seat_balance(r.con, r.runs)
        first = (
            sets.win_rates(r.con, r.runs, ["board", "first"])
            .filter(pl.col("first"))
            .select(
                "board",
                pl.col("win_rate").alias("first_player_win_rate"),
                pl.col("win_rate_lo").alias("first_player_win_rate_lo"),
                pl.col("win_rate_hi").alias("first_player_win_rate_hi"),
            )
        )
        ends = shape.endings(r.con, r.runs)
        top_end = ends.sort("games", descending=True).group_by("board", maintain_order=True).first()
        side = (
            balance.join(first, on="board", how="left")
            .join(
                shape.summary(r.con, r.runs).select(
                    "board",
                    "games",
                    "mean_rounds",
                    "draws",
                    "draw_rate",
                    "draw_rate_lo",
                    "draw_rate_hi",
                ),
                on="board",
                how="left",
            )
            .join(
                top_end.select(
                    "board",
                    pl.col("reason").alias("main_ending"),
                    pl.col("share").alias("ending_share"),
                    pl.col("share_lo").alias("ending_share_lo"),
                    pl.col("share_hi").alias("ending_share_hi"),
                    pl.col("board_games"),
                ),
                on="board",
                how="left",
            )
        )
        items.append(
            Table(
                "boards_side_by_side",
                "Boards side by side",
                side,
                {
                    "first_player_win_rate": "seat_games",
                    "draw_rate": "games",
                    "ending_share": "board_games",
                },
                note="balance: one minus the largest gap between the seats' win "
                "rates (Ludii's; 1 = every seat wins equally often).",
            )
        )
    return Section(
        "boards",
        "Boards",
        "The rules of each board played"
        + (
            ", and their balance side by side (in a comparison run every board "
            "plays the same sets, agents and seeds)"
            if r.boards > 1
            else ""
        )
        + ".",
        items,
    )


def sections(
    con: duckdb.DuckDBPyConnection,
    runs: Sequence[int],
    th: findings.Thresholds | None = None,
    skill_runs: Sequence[int] = (),
) -> list[Section]:
    """Every section of the report, in reading order, the findings first. `skill_runs`: runs
    of the same setup played by other agents; each card's verdict is set beside its verdict
    there (stability.verdict_table)."""
    th = th or findings.Thresholds()
    counts = query(
        con,
        f"""
        SELECT (SELECT count(DISTINCT board) FROM games WHERE run_id IN ({run_list(runs)})),
               count(DISTINCT agent), count(DISTINCT drafter)
        FROM game_seats WHERE run_id IN ({run_list(runs)})""",
    ).row(0)
    table = cards.card_table(con, runs)
    drafts = draft.draft_tables(con, runs)
    verdicts, labels, extra = None, [], []
    if skill_runs:
        players = stability.players_of(con, [runs, *([s] for s in skill_runs)])
        labels = [p for p, _ in players]
        verdicts = stability.verdict_table(con, players)
        extra = stability_findings(verdicts, labels, "cards")
    r = Run(
        con,
        runs,
        int(counts[0]),
        int(counts[1]),
        int(counts[2]),
        table,
        findings.dead_cards(con, runs, table, th, drafts[0]),
        drafts,
        drafted.card_shares(con, runs, th.kraken_drafted, th.kraken_bought),
        th,
        verdicts,
        labels,
    )
    found = findings.findings(con, runs, th, table, r.dead, r.shares, extra)
    return [
        findings_section(found, th),
        sets_section(r),
        cards_section(r),
        costs_section(r),
        draft_section(r),
        economy_section(r, th),
        shape_section(r),
        boards_section(r),
    ]
