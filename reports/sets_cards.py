"""The report's sections on who wins and with what: seats, sets and agents; cards in play; the
draft."""

from __future__ import annotations

import polars as pl

from reports import charts
from reports.html import Chart, FindingList, Section, Table
from workbench.analysis import (
    card_evidence,
    cards,
    draft,
    drafted,
    findings,
    sets,
    severity,
    stability,
    verdicts,
)
from workbench.analysis.runs import Runs
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, difference_summary

CARD_RATES = {
    "wr_in_store": "in_store",
    "wr_bought": "bought",
    "wr_played": "played",
    "wr_never_bought": "never_bought",
    "buy_rate": "in_store",
    "bought_gain": "bought",
}
WIN = {"win_rate": "seats"}
CARD_COLUMNS = (
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
)


def seats_from_1(df: pl.DataFrame) -> pl.DataFrame:
    """The database's 0-based seat as people count it."""
    return df.with_columns(pl.col("seat") + 1) if "seat" in df.columns else df


def sets_section(r: Runs) -> Section:
    seat = seats_from_1(sets.win_rates(r, ["board", "seat"]))
    even = (
        float(seat.get_column("wins").sum()) / float(seat.get_column("seats").sum())
        if r.boards == 1 and seat.height
        else None
    )
    items = [*_by_seat(r, seat, even), *_by_set(r, even)]
    if r.agents > 1:
        items.append(Table("agents", "By agent", sets.win_rates(r, ["agent"]), WIN))
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


def _by_seat(r: Runs, seat: pl.DataFrame, even: float | None) -> list[Table | Chart | FindingList]:
    """Win rate by seat, and the first player against the others when the first player is not
    always the same seat (else the seat table says it)."""
    label = (pl.col("board") + ": seat " if r.boards > 1 else pl.lit("seat ")) + pl.col(
        "seat"
    ).cast(pl.String)
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
    starts = query(
        r.con,
        f"""SELECT count(DISTINCT first_player) FROM games
                             WHERE run_id IN ({run_list(r.runs)})""",
    ).item()
    if starts > 1:
        first = sets.win_rates(r, ["board", "first"])
        items.append(Table("first_player", "First player against the others", first, WIN))
    return items


def _by_set(r: Runs, even: float | None) -> list[Table | Chart | FindingList]:
    """Win rate by dominant set and by pair of sets, and by victory condition when some boards
    (not each its own) share one."""
    dom = sets.win_rates(r, [*r.by_board, "dominant"])
    dom_label = (pl.col("board") + ": " if r.boards > 1 else pl.lit("")) + pl.col(
        "dominant"
    ).fill_null("?")
    items: list[Table | Chart | FindingList] = [
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
        Table("sets_pair", "By pair of sets", sets.win_rates(r, ["pair"]), WIN),
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
                sets.win_rates(r, ["victory", "dominant"]),
                WIN,
            )
        )
    return items


def cards_section(r: Runs) -> Section:
    table = cards.card_table(r)
    show = list(CARD_COLUMNS)
    skill: list[Table | Chart | FindingList] = []
    across = stability.across_skill(r)
    if across is not None:
        table = table.join(across.select("card", "across_skill"), on="card", how="left")
        show.append("across_skill")
        skill.append(_verdicts_table(r, across))
    return Section(
        "cards",
        "Cards in play",
        "Every card's verdict first, with the estimator that supports it; then the "
        "17lands family per card: win rate when in "
        "the store (drafted), when bought, when played, when never bought, and the "
        "improvement when bought (bought minus never bought); buy rate, the average "
        "round of the first buy, damage dealt and units lost to refused upkeep. "
        "Draws count as not won.",
        [
            _card_verdicts_table(r),
            *_card_charts(table),
            Table(
                "cards",
                "Per card",
                table,
                CARD_RATES,
                show,
                _tests_note(cards.card_table(r)),
                {"bought_gain_significant": "bought_gain"},
            ),
            _dead_cards_table(r),
            *skill,
            *_drafted_tables(r),
        ],
    )


def _card_charts(table: pl.DataFrame) -> list[Chart]:
    """Popularity against results per card (the significant ones marked), and the cards that
    win most when bought."""
    return [
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
    ]


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


def _card_verdicts_table(r: Runs) -> Table:
    """Every pool card's verdict, its estimator, interval and the reason, with the rest of the
    evidence beside it (card_evidence.py)."""
    judged = verdicts.card_verdicts(r)
    evidence = judged.get_column("evidence")
    whose = str(evidence[0]) if evidence.len() else card_evidence.OWN_PLAY
    return Table(
        "card_verdicts",
        "Verdict per card",
        judged,
        {
            "wr_forced": "n_forced",
            "wr_banned": "n_banned",
            "wr_drafted": "drafted",
            "first_pick": "seen_first",
        },
        [
            "card",
            "set",
            "type",
            "verdict",
            "effect",
            "low",
            "high",
            "n",
            "estimator",
            "wr_drafted",
            "wr_base",
            "first_pick",
            "dmg_per_paid",
            "dmg_curve",
            "gain_per_paid",
            "gain_curve",
            "why",
        ],
        f"{verdicts.CAUSAL}: the run played the randomised buying design (`simulate --design "
        "causal`): each card of a seat's store forced (bought, saved up for) or banned by a "
        "coin; effect = win rate of the seats holding it forced minus banned, adjusted for "
        "the other cards' arms (95% interval, robust errors), n the seats holding it. Too "
        f"strong or too weak: beyond +-{100 * r.th.card_band:.0f} points (--threshold "
        "card_band) after Benjamini-Hochberg's correction; fine: not, with the smallest "
        "effect the run would have found; agents do not use it: the seats made to buy it "
        "hardly play it; "
        f"{verdicts.OBSERVATIONAL}: no design run of this setup exists, so the verdict is the "
        "confounded comparison of buyers and non-buyers. "
        f"The evidence beside the verdict is from {whose}; it informs, it does not decide: "
        "wr_drafted, the win rate of the seats that drafted it (Wilson interval), against "
        "wr_base, all seats' mean win rate; first_pick, its share of the first picks whose "
        "pack held it; dmg_per_paid and gain_per_paid, the damage it dealt and the resource "
        "its effects gained per resource paid for it (buy, play and upkeep), against "
        "dmg_curve and gain_curve, their medians over its set's cards of its type.",
    )


def _verdicts_table(r: Runs, skill: pl.DataFrame) -> Table:
    """Each card's verdict in the reported runs and in each --skill-run."""
    return Table(
        "verdicts",
        "Verdicts across skill",
        skill,
        {},
        [
            "card",
            "set",
            *(
                c
                for p, _ in stability.skill_players(r)
                for c in (f"verdict@{p}", f"bought_gain@{p}")
            ),
            "across_skill",
        ],
        "The report's verdict on each card (too strong or too weak when its improvement "
        "when bought survives Benjamini-Hochberg's correction, else fine; no estimate when "
        "no holder bought it or every one did) in the reported runs and in each run given "
        "by --skill-run, the same setup played by other agents. across_skill: stable when "
        "every player that judged the card agrees, else which players disagree.",
    )


def _dead_cards_table(r: Runs) -> Table:
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
        findings.dead_cards(r),
        {"buy_rate": "in_store"},
        note=note,
    )


def _drafted_tables(r: Runs) -> list[Table]:
    """Drafted and never bought: per set (and board), and per card with the Kraken-like."""
    return [
        Table(
            "drafted_sets",
            "Drafted and never bought, per set" + (" and board" if r.boards > 1 else ""),
            drafted.set_shares(r),
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
            drafted.card_shares(r).sort(["kraken", "seats_drafted"], descending=True),
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
                "ata_pack",
                "ata_in_pack",
                "kraken",
            ],
            note=f"games_drafted: games in which a seat drafted it; seats_bought: drafting "
            f"seats that bought a copy; ata_pack, ata_in_pack: where it is taken on average, "
            f"pack and pick within the pack (the files also hold ata, the mean pick number "
            f"over the whole draft). kraken: drafted in at "
            f"least {severity.pct(r.th.kraken_drafted)} of the games and bought by at "
            f"most {severity.pct(r.th.kraken_bought)} of its drafting seats, like the "
            f"demo's Kraken.",
        ),
    ]


def draft_section(r: Runs) -> Section:
    per_card, per_set = draft.card_picks(r), draft.set_picks(r)
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
                draft.card_picks(r, by_drafter=True),
                rates,
                ["card", "drafter", "seen", "picks", "pick_rate", "ata", "alsa"],
            )
        )
    return Section(
        "draft",
        "Draft",
        "Pick rate when seen, average pick taken (ATA), average last seen (ALSA) and "
        "first-pick rate (ATA and ALSA count a seat's picks over the whole draft, across its "
        "packs: a high number can be an early pick of a later pack), per card and per set"
        + (" and drafter" if r.drafters > 1 else "")
        + ". A low ATA and a high pick "
        "rate mark the cards drafters want first.",
        items,
    )
