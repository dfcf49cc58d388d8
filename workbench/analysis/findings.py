"""Findings: what a designer should look at first, ranked, each computed from the tables.

A finding is one sentence with its number, 95% interval and sample size, a severity, and the id
of the report section that shows it. Severity says how sure and how large:
- high: the whole interval lies beyond the threshold (the problem is real and at least that big);
- medium: the estimate lies beyond the threshold and the interval excludes the neutral value
  (for one-sided checks: the estimate does);
- low: the estimate lies beyond the threshold, but the sample cannot tell it from noise.
Cards use the report's multiple-comparison control instead: significant after Holm's correction
is medium (high when the improvement is at least `strong_gain`), after Benjamini-Hochberg only
low. A sample below `min_sample` makes any finding low. The thresholds are `Thresholds`, options
of `workbench report`.

A seat's or a set's "even share" is the mean win rate per seat on its board (draws and Tyrant
wins count as not won, so on two seats with 6% draws it is 47%). Seats are numbered from 1 here,
as people read them; the database keeps them 0-based.
"""

from __future__ import annotations

import math
from collections.abc import Sequence
from dataclasses import dataclass

import duckdb
import polars as pl

from workbench.analysis import cards, draft, drafted, economy, sets
from workbench.analysis.source import query, run_list
from workbench.analysis.stats import ALPHA, MIN_SAMPLE, mean_ci, proportion_ci, ratio_ci

SEVERITIES = ("high", "medium", "low")


@dataclass(frozen=True)
class Thresholds:
    """Where a measure turns into a finding (every field is a `report --threshold` option)."""

    band: float = 0.05
    """A seat's or set's win rate within this of its even share is balanced."""
    strong_gain: float = 0.10
    """A card significant after Holm is high when its improvement when bought is this large."""
    rare_buy: float = 0.05
    """A drafted card bought in fewer of its games than this is rarely bought; a card affordable
    at fewer of its store's buy steps than this is (almost) never affordable."""
    stall: float = 0.75
    """The economy stalls from the round on which upkeep takes at least this share of income."""
    buy_stop: float = 0.20
    """Buying has stopped from the round on which fewer player-turns than this buy a card."""
    late: float = 0.25
    """A stall or buying stop counts only if its rounds hold at least this share of the turns."""
    hoard: float = 3.0
    """Resource held beyond this many turns of income is piling up (runaway) or unused."""
    round_limit: float = 0.20
    """More games than this decided by the round limit."""
    draws: float = 0.10
    """More draws than this."""
    guard: float = 0.01
    """More games than this stopped by the action guard (R21.18)."""
    short_rounds: int = 3
    """A game of at most this many rounds is very short ..."""
    short_games: float = 0.05
    """... and more very short games than this share is a finding."""
    kraken_drafted: float = drafted.KRAKEN_DRAFTED
    """A card drafted in at least this share of a board's games ..."""
    kraken_bought: float = drafted.KRAKEN_BOUGHT
    """... and bought in at most this share of the seat-games it was drafted in is Kraken-like
    (drafted and never bought, workbench.analysis.drafted)."""
    min_sample: int = MIN_SAMPLE
    """Fewer observations than this make a finding low at most; rounds with fewer player-turns
    are left out of the economy's round-by-round checks."""


@dataclass(frozen=True)
class Finding:
    """One thing to look at. `value`, `low`, `high` and `n` are the sentence's numbers."""

    kind: str
    severity: str
    text: str
    value: float
    low: float | None
    high: float | None
    n: int
    section: str
    subject: str = ""
    excess: float = 0.0
    """How far beyond its threshold, for ranking within a severity."""


# --- words and numbers ------------------------------------------------------------------------

def pct(v: float) -> str:
    return f"{100 * v:.1f}%"


def span(lo: float | None, hi: float | None, n: int, unit: str = "%") -> str:
    """`(30.1–43.0%, n=200)`: the 95% interval and the sample size; `unit` "%" shows
    proportions in percent, " points" differences in percentage points, "" plain numbers."""
    if lo is None or hi is None or math.isnan(lo) or math.isnan(hi):
        return f"(n={n:,})"
    a, b = (100 * lo, 100 * hi) if unit else (lo, hi)
    return f"({num(a)}{' to ' if a < 0 else '–'}{num(b)}{unit}, n={n:,})"


def num(v: float, sign: bool = False) -> str:
    """One decimal, with a typographic minus (and a plus when `sign`)."""
    return (f"{v:+.1f}" if sign else f"{v:.1f}").replace("-", "\u2212")


def seat_label(seat: int) -> str:
    """A 0-based database seat as people count it."""
    return f"seat {seat + 1}"


EPS = 1e-9
"""Rates on a threshold's edge stay inside (0.55 - 0.5 is 0.05000000000000004 in floats)."""


def _two_sided(v: float, lo: float, hi: float, fair: float, n: int,
               th: Thresholds) -> str | None:
    """v outside fair ± band."""
    if abs(v - fair) <= th.band + EPS:
        return None
    if n < th.min_sample:
        return "low"
    if lo > fair + th.band or hi < fair - th.band:
        return "high"
    if lo > fair or hi < fair:
        return "medium"
    return "low"


def _beyond(v: float, lo: float, hi: float, limit: float, n: int, th: Thresholds,
            above: bool = True) -> str | None:
    """One-sided: v above (or below) the limit."""
    if (v <= limit + EPS) if above else (v >= limit - EPS):
        return None
    if n < th.min_sample:
        return "low"
    return "high" if ((lo > limit) if above else (hi < limit)) else "medium"


def _furthest(rate: float, fair: float) -> tuple[float, float]:
    """Sort key: the furthest from the even share; on a tie (two seats) the one ahead."""
    return round(abs(rate - fair), 9), rate


def _on(board: str, boards: int) -> str:
    return f" on {board}" if boards > 1 else ""


# --- balance of seats, sets and victory conditions -------------------------------------------

def _even_shares(rates: pl.DataFrame, keys: Sequence[str]) -> dict[tuple[object, ...], float]:
    groups = rates.group_by(keys).agg(pl.col("wins").sum(), pl.col("seats").sum())
    return {tuple(r[k] for k in keys): r["wins"] / r["seats"]
            for r in groups.iter_rows(named=True) if r["seats"]}


def seat_findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                  th: Thresholds) -> list[Finding]:
    """Per board, the seat furthest from the even share, when outside the band; the first
    player's advantage too where the first player is not always the same seat."""
    rates = sets.win_rates(con, runs, ["board", "seat"])
    even = _even_shares(rates, ["board"])
    boards = len(even)
    starts = query(con, f"""SELECT board, min(first_player) AS lo, max(first_player) AS hi
                           FROM games WHERE run_id IN ({run_list(runs)}) GROUP BY ALL""")
    fixed = {r["board"]: r["lo"] for r in starts.iter_rows(named=True) if r["lo"] == r["hi"]}
    out = []
    for board, rows in rates.group_by("board", maintain_order=True):
        name = str(board[0])
        fair = even[(name,)]
        worst = max(rows.iter_rows(named=True), key=lambda r: _furthest(r["win_rate"], fair))
        sev = _two_sided(worst["win_rate"], worst["win_rate_lo"], worst["win_rate_hi"], fair,
                         worst["seats"], th)
        if sev is None:
            continue
        who = seat_label(worst["seat"]) + (" (moves first)" if fixed.get(name) == worst["seat"]
                                           else "")
        out.append(Finding(
            "seat", sev, f"{who.capitalize()} wins {pct(worst['win_rate'])} of its games"
            f"{_on(name, boards)} {span(worst['win_rate_lo'], worst['win_rate_hi'], worst['seats'])}"
            f"; an even share is {pct(fair)}.", worst["win_rate"], worst["win_rate_lo"],
            worst["win_rate_hi"], worst["seats"], "sets", name,
            abs(worst["win_rate"] - fair) - th.band))
    first = sets.win_rates(con, runs, ["board", "first"]).filter(pl.col("first"))
    for r in first.iter_rows(named=True):
        if r["board"] in fixed:
            continue
        fair = even[(r["board"],)]
        sev = _two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
        if sev is not None:
            out.append(Finding(
                "seat", sev, f"The first player wins {pct(r['win_rate'])} of games"
                f"{_on(r['board'], boards)} {span(r['win_rate_lo'], r['win_rate_hi'], r['seats'])}"
                f"; an even share is {pct(fair)}.", r["win_rate"], r["win_rate_lo"],
                r["win_rate_hi"], r["seats"], "sets", r["board"],
                abs(r["win_rate"] - fair) - th.band))
    return out


def _group_findings(rates: pl.DataFrame, keys: Sequence[str], even_keys: Sequence[str],
                    kind: str, th: Thresholds, where: str) -> list[Finding]:
    even = _even_shares(rates, even_keys)
    out = []
    for r in rates.iter_rows(named=True):
        if r["dominant"] in (None, "mixed", "?"):
            continue
        fair = even[tuple(r[k] for k in even_keys)]
        sev = _two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
        if sev is None:
            continue
        place = where.format(**r)
        out.append(Finding(
            kind, sev, f"Players whose store is mostly {r['dominant']} win {pct(r['win_rate'])}"
            f"{place} {span(r['win_rate_lo'], r['win_rate_hi'], r['seats'])}; an even share is "
            f"{pct(fair)}.", r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], r["seats"],
            "sets", " ".join(str(r[k]) for k in keys), abs(r["win_rate"] - fair) - th.band))
    return out


def set_findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                 th: Thresholds) -> list[Finding]:
    """Win rate by dominant set outside the band (per board when the run has several), and per
    victory condition when the boards have more than one."""
    boards = query(con, f"""SELECT count(DISTINCT board) AS n, count(DISTINCT victory_kind) AS k
                           FROM run_boards WHERE run_id IN ({run_list(runs)})""").row(0)
    out: list[Finding] = []
    if boards[0] > 1:
        out += _group_findings(sets.win_rates(con, runs, ["board", "dominant"]),
                               ["board", "dominant"], ["board"], "set", th, " on {board}")
    else:
        out += _group_findings(sets.win_rates(con, runs, ["dominant"]), ["dominant"], [],
                               "set", th, "")
    if 1 < boards[1] < boards[0]:  # with one board per condition it repeats the split by board
        out += _group_findings(sets.win_rates(con, runs, ["victory", "dominant"]),
                               ["victory", "dominant"], ["victory"], "victory", th,
                               " on {victory} boards")
    return out


# --- cards --------------------------------------------------------------------------------

TOO_STRONG, FINE, TOO_WEAK, NO_ESTIMATE = "too strong", "fine", "too weak", "no estimate"
"""The report's verdicts on a card (card_verdict)."""


def card_verdict(gain: float | None, bh: float | None) -> str:
    """The report's verdict on a card, the one definition every page uses: too strong or too
    weak when its improvement when bought survives Benjamini-Hochberg's correction over the
    run's cards (q < ALPHA; card_findings' severity then says how sure), fine when it does not,
    no estimate when there is none (no holder bought it, or every one did). `gain` and `bh`:
    cards.card_results' bought_gain and bought_gain_bh."""
    if gain is None or bh is None:
        return NO_ESTIMATE
    if bh >= ALPHA:
        return FINE
    return TOO_STRONG if gain > 0 else TOO_WEAK


def card_findings(table: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """Cards whose improvement when bought survives the multiple-comparison control."""
    out = []
    for r in table.iter_rows(named=True):
        holm, gain = r["bought_gain_holm"], r["bought_gain"]
        verdict = card_verdict(gain, r["bought_gain_bh"])
        if verdict in (FINE, NO_ESTIMATE):
            continue
        if holm is not None and holm < ALPHA and r["bought"] >= th.min_sample:
            sev = "high" if abs(gain) >= th.strong_gain else "medium"
        else:
            sev = "low"
        out.append(Finding(
            "card", sev, f"{r['card']} looks {verdict}: its holders win "
            f"{pct(r['wr_bought'])} when they buy it and {pct(r['wr_never_bought'])} when they "
            f"draft it but never buy it: {num(100 * gain, True)} points "
            f"{span(r['bought_gain_lo'], r['bought_gain_hi'], r['bought'], ' points')}.",
            gain, r["bought_gain_lo"], r["bought_gain_hi"], r["bought"], "cards", r["card"],
            abs(gain)))
    return out


NEVER_DRAFTED = "never drafted"
NEVER_AFFORDABLE = "never affordable"
PASSED = "passed when affordable"
WHY = {NEVER_DRAFTED: "because no drafter ever picks a copy",
       NEVER_AFFORDABLE: "because the price is (almost) never there at a buy step with a copy "
                         "in the store",
       PASSED: "although the price is there at the buy step"}
"""The reasons a card is not bought, as the dead-card table names them and as findings say it."""


def dead_cards(con: duckdb.DuckDBPyConnection, runs: Sequence[int], table: pl.DataFrame,
               th: Thresholds, picks: pl.DataFrame | None = None) -> pl.DataFrame:
    """Pool cards with a buy price that are never or rarely bought, and why: never drafted;
    drafted but (almost) never affordable at a buy step while in the store; or affordable but
    passed. `chances` is the sample behind the verdict (packs seen, or store turns). `table` is
    cards.card_table, `picks` draft.card_picks (computed when not given: it unnests every
    pack, the report's dearest query)."""
    picks = (draft.card_picks(con, runs) if picks is None else picks).select(
        "card", "seen", "picks")
    chances = cards.buy_chances(con, runs)
    df = chances.join(picks, on="card", how="left").join(
        table.select("card", "in_store", "bought", "buy_rate", "buy_rate_lo", "buy_rate_hi"),
        on="card", how="left"
    ).with_columns(pl.col("seen", "picks", "in_store", "bought").fill_null(0))
    rare = (pl.col("in_store") > 0) & (pl.col("bought") < th.rare_buy * pl.col("in_store"))
    reason = (pl.when(pl.col("picks") == 0).then(pl.lit(NEVER_DRAFTED))
              .when(pl.col("affordable_turns") < th.rare_buy * pl.col("store_turns"))
              .then(pl.lit(NEVER_AFFORDABLE)).otherwise(pl.lit(PASSED)))
    return df.filter((pl.col("picks") == 0) | rare).with_columns(
        reason.alias("reason"),
        pl.when(pl.col("picks") == 0).then(pl.col("seen")).otherwise(pl.col("store_turns"))
        .alias("chances"),
    ).select("card", "set", "buy", "reason", "seen", "picks", "in_store", "bought", "buy_rate",
             "buy_rate_lo", "buy_rate_hi", "store_turns", "affordable_turns", "chances"
             ).sort("reason", "bought", "card")


def _dead_detail(r: dict[str, object]) -> str:
    if r["reason"] == NEVER_DRAFTED:
        return f"{r['card']} (passed in {r['seen']} packs)"
    return (f"{r['card']} (buy {r['buy']}: affordable at {r['affordable_turns']:,} of "
            f"{r['store_turns']:,} buy steps; bought by {r['bought']} of {r['in_store']} "
            f"drafters)")


def dead_card_findings(dead: pl.DataFrame, pool: int, th: Thresholds) -> list[Finding]:
    """One finding per reason: how many pool cards, which, and their numbers."""
    out = []
    for reason in (NEVER_DRAFTED, NEVER_AFFORDABLE, PASSED):
        rows = list(dead.filter(pl.col("reason") == reason).iter_rows(named=True))
        if not rows:
            continue
        sure = [r for r in rows if r["chances"] >= th.min_sample]
        sev = ("high" if any(r["bought"] == 0 for r in sure) else
               "medium" if sure else "low")
        lo, hi = proportion_ci(len(rows), pool)
        names = "; ".join(_dead_detail(r) for r in rows[:3])
        more = f"; {len(rows) - 3} more in the table" if len(rows) > 3 else ""
        what = "never bought" if all(r["bought"] == 0 for r in rows) else "rarely or never bought"
        out.append(Finding(
            "dead card", sev, f"{len(rows)} of {pool} cards {'is' if len(rows) == 1 else 'are'} "
            f"{what} {WHY[reason]} "
            f"{span(lo, hi, pool)}: {names}{more}.", len(rows) / pool, lo, hi,
            pool, "cards", ", ".join(str(r["card"]) for r in rows), len(rows) / pool))
    return out


def kraken_findings(shares: pl.DataFrame, th: Thresholds) -> list[Finding]:
    """Per board, the Kraken-like cards of `drafted.card_shares` (at the thresholds of `th`):
    drafted in many games, (almost) never bought by the seat that drafted them."""
    out = []
    boards = shares.get_column("board").n_unique()
    for key, df in shares.group_by("board", maintain_order=True):
        board = str(key[0])
        rows = list(drafted.kraken_like(df).iter_rows(named=True))
        if not rows:
            continue
        pool = df.height
        sure = [r for r in rows if r["seats_drafted"] >= th.min_sample]
        sev = ("high" if any(r["seats_bought"] == 0 for r in sure) else
               "medium" if sure else "low")
        lo, hi = proportion_ci(len(rows), pool)
        names = "; ".join(
            f"{r['card']} (drafted in {r['games_drafted']:,} of {r['games']:,} games, bought by "
            f"{r['seats_bought']} of {r['seats_drafted']:,} drafting seats, taken at pick "
            f"{r['ata']:.1f} on average)" for r in rows[:3])
        more = f"; {len(rows) - 3} more in the table" if len(rows) > 3 else ""
        out.append(Finding(
            "drafted never bought", sev, f"{len(rows)} of {pool} drafted cards"
            f"{_on(board, boards)} {'is' if len(rows) == 1 else 'are'} Kraken-like, drafted "
            f"in many games and (almost) never bought by the seat that drafted them "
            f"{span(lo, hi, pool)}: {names}{more}. Their picks go to cards the players do not "
            f"use: a drafter that drafts what its agent will not buy, or an agent that never "
            f"buys them.", len(rows) / pool, lo, hi, pool, "cards",
            ", ".join(str(r["card"]) for r in rows), len(rows) / pool))
    return out


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


def economy_findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                     th: Thresholds) -> list[Finding]:
    """Per board: the round from which upkeep eats income (stall), from which buying stops, and
    resource that piles up over the rounds (runaway) or is left unused at the end."""
    sums = economy.round_sums(con, runs)
    finals = {r["board"]: r for r in economy.final_sums(con, runs).iter_rows(named=True)}
    kinds = dict(query(con, f"""SELECT board, any_value(victory_kind) FROM run_boards
                               WHERE run_id IN ({run_list(runs)}) GROUP BY ALL""").rows())
    boards = sums.get_column("board").n_unique()
    out = []
    for key, df in sums.group_by("board", maintain_order=True):
        board = str(key[0])
        total = int(df.get_column("turns").sum())
        ok = df.filter(pl.col("turns") >= th.min_sample).sort("round")
        if ok.height < 2 or total == 0:
            continue
        on = _on(board, boards)
        income_per_turn = float(df.get_column("s_income").sum()) / total

        share = [(r["round"], r["s_income"] > 0 and r["s_upkeep"] >= th.stall * r["s_income"])
                 for r in ok.iter_rows(named=True)]
        stall = _from_round(share)
        if stall is not None:
            late = ok.filter(pl.col("round") >= stall)
            s = late.sum()
            v, lo, hi = ratio_ci(int(s["turns"][0]), float(s["s_upkeep"][0]),
                                 float(s["s_income"][0]), float(s["ss_upkeep"][0]),
                                 float(s["ss_income"][0]), float(s["s_income_upkeep"][0]))
            n = int(s["turns"][0])
            sev = _beyond(v, lo, hi, th.stall, n, th)
            if sev is not None and n >= th.late * total:
                out.append(Finding(
                    "economy stall", sev, f"The economy stalls{on} from round {stall}: from "
                    f"then on upkeep takes {pct(v)} of income {span(lo, hi, n)}; those rounds "
                    f"hold {pct(n / total)} of all player-turns.", v, lo, hi, n, "economy",
                    board, v - th.stall))

        buys = [(r["round"], r["buys"] < th.buy_stop * r["turns"]) for r in ok.iter_rows(named=True)]
        stop = _from_round(buys)
        if stop is not None and stop > int(ok.get_column("round").min()):  # type: ignore[arg-type]
            late = ok.filter(pl.col("round") >= stop)
            n, k = int(late.get_column("turns").sum()), int(late.get_column("buys").sum())
            early = ok.filter(pl.col("round") < stop)
            before = int(early.get_column("buys").sum()) / int(early.get_column("turns").sum())
            lo, hi = proportion_ci(k, n)
            sev = _beyond(k / n, lo, hi, th.buy_stop, n, th, above=False)
            if sev is not None and n >= th.late * total:
                out.append(Finding(
                    "buying stops", sev, f"Buying stops{on} from round {stop}: "
                    f"{pct(k / n)} of player-turns buy a card from then on {span(lo, hi, n)}, "
                    f"against {pct(before)} before.", k / n, lo, hi, n, "economy", board,
                    th.buy_stop - k / n))

        if kinds.get(board) == "resource" or income_per_turn <= 0:
            continue  # holding resource is the goal there
        limit = th.hoard * income_per_turn
        last, mid = ok.row(-1, named=True), ok.row(ok.height // 2, named=True)
        v, lo, hi = mean_ci(last["turns"], last["s_unspent"], last["ss_unspent"])
        rising = last["s_unspent"] / last["turns"] > mid["s_unspent"] / mid["turns"]
        sev = _beyond(v, lo, hi, limit, last["turns"], th) if rising else None
        if sev is not None:
            out.append(Finding(
                "runaway resource", sev, f"Resource piles up{on}: players end round "
                f"{last['round']} holding {v:.1f} {span(lo, hi, last['turns'], '')}, "
                f"{v / income_per_turn:.1f} turns of income, up from "
                f"{mid['s_unspent'] / mid['turns']:.1f} in round {mid['round']}.", v, lo, hi,
                last["turns"], "economy", board, (v - limit) / income_per_turn))
            continue
        f = finals.get(board)
        if f is None:
            continue
        v, lo, hi = mean_ci(f["player_games"], f["s_final"], f["ss_final"])
        sev = _beyond(v, lo, hi, limit, f["player_games"], th)
        if sev is not None:
            out.append(Finding(
                "unused resource", sev, f"Players end the game{on} with {v:.1f} resource "
                f"unspent {span(lo, hi, f['player_games'], '')}, "
                f"{v / income_per_turn:.1f} turns of income.", v, lo, hi, f["player_games"],
                "economy", board, (v - limit) / income_per_turn))
    return out


# --- game shape ---------------------------------------------------------------------------------

def shape_findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int],
                   th: Thresholds) -> list[Finding]:
    """Per board: games decided by the round limit, draws, action-guard stops, very short games."""
    games = query(con, f"""
        SELECT board, count(*) AS games,
               count(*) FILTER (WHERE reason LIKE 'round limit%') AS round_limit,
               count(*) FILTER (WHERE draw) AS draws,
               count(*) FILTER (WHERE guard_stopped) AS guard,
               count(*) FILTER (WHERE rounds <= {int(th.short_rounds)}) AS short
        FROM games WHERE run_id IN ({run_list(runs)}) GROUP BY ALL ORDER BY board""")
    boards = games.height
    checks = (
        ("round_limit", th.round_limit, "round limit",
         ("{share} of games{on} reach the round limit before the victory condition ends them "
          "{span}.")),
        ("draws", th.draws, "draws", "{share} of games{on} end in a draw {span}."),
        ("guard", th.guard, "action guard",
         ("The action guard (R21.18) stopped {share} of games{on} {span}; they count as "
          "draws.")),
        ("short", th.short_games, "short games",
         f"{{share}} of games{{on}} last {int(th.short_rounds)} rounds or fewer {{span}}."),
    )
    out = []
    for r in games.iter_rows(named=True):
        n = r["games"]
        for col, limit, kind, text in checks:
            k = r[col]
            lo, hi = proportion_ci(k, n)
            sev = _beyond(k / n, lo, hi, limit, n, th)
            if sev is not None:
                out.append(Finding(kind, sev, text.format(
                    share=pct(k / n).capitalize(), on=_on(r["board"], boards),
                    span=span(lo, hi, n)), k / n, lo, hi, n, "shape", r["board"],
                    k / n - limit))
    return out


# --- agents ---------------------------------------------------------------------------------

def agent_findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int], th: Thresholds,
                   pool: Sequence[str]) -> list[Finding]:
    """Caveats: the agent furthest from an even share when the run mixes agents (the verdicts
    mix strong and weak play), and cards
    whose improvement when bought points opposite ways for different agents in a skill study
    of the same database (`workbench skill`)."""
    out = []
    rates = sets.win_rates(con, runs, ["agent"])
    if rates.height > 1:
        fair = float(rates.get_column("wins").sum()) / float(rates.get_column("seats").sum())
        r = max(rates.iter_rows(named=True), key=lambda r: _furthest(r["win_rate"], fair))
        sev = _two_sided(r["win_rate"], r["win_rate_lo"], r["win_rate_hi"], fair, r["seats"], th)
        if sev is not None:
            out.append(Finding(
                "agent", sev, f"Agent {r['agent']} wins {pct(r['win_rate'])} of its seats "
                f"{span(r['win_rate_lo'], r['win_rate_hi'], r['seats'])} against an even "
                f"{pct(fair)}: the verdicts mix strong and weak play.", r["win_rate"],
                r["win_rate_lo"], r["win_rate_hi"], r["seats"], "sets", r["agent"],
                abs(r["win_rate"] - fair) - th.band))
    if not pool:
        return out
    names = ", ".join("'" + c.replace("'", "''") + "'" for c in pool)
    skill = query(con, f"""
        SELECT r.sweep_id, r.card, v.variant AS agent, r.estimate, r.low, r.high, g.n
        FROM sweep_results r JOIN sweeps v ON v.sweep_id = r.sweep_id AND v.kind = 'skill'
             AND r.quantity = 'bought_gain@' || v.variant
        JOIN (SELECT run_id, count(*) AS n FROM games GROUP BY ALL) g ON g.run_id = v.run_id
        WHERE r.card IN ({names}) AND r.estimate IS NOT NULL ORDER BY r.sweep_id, v.value""")
    for (sweep, card), rows in skill.group_by("sweep_id", "card", maintain_order=True):
        up = rows.filter(pl.col("low") > 0)
        down = rows.filter(pl.col("high") < 0)
        if up.height and down.height:
            a, b = up.row(0, named=True), down.row(0, named=True)
            out.append(Finding(
                "agent", "medium", f"{card}'s verdict depends on agent strength (skill study "
                f"{sweep}): improvement when bought {num(100 * a['estimate'], True)} points "
                f"{span(a['low'], a['high'], a['n'], ' points')} with {a['agent']}, "
                f"{num(100 * b['estimate'], True)} points "
                f"{span(b['low'], b['high'], b['n'], ' points')} with {b['agent']}.", a["estimate"] - b["estimate"], None, None,
                int(rows.get_column("n").sum()), "cards", str(card),
                a["estimate"] - b["estimate"]))
    return out


# --- all of them ----------------------------------------------------------------------------

def findings(con: duckdb.DuckDBPyConnection, runs: Sequence[int], th: Thresholds | None = None,
             table: pl.DataFrame | None = None, dead: pl.DataFrame | None = None,
             shares: pl.DataFrame | None = None, extra: Sequence[Finding] = ()) -> list[Finding]:
    """Every finding, ranked: by severity, agent caveats first, then by how far beyond its
    threshold. `table` (cards.card_table), `dead` (dead_cards) and `shares` (drafted.card_shares
    at the thresholds of `th`) are computed when not given; `extra` are ranked with them (the
    verdicts across skill of `report --skill-run`)."""
    th = th or Thresholds()
    table = cards.card_table(con, runs) if table is None else table
    dead = dead_cards(con, runs, table, th) if dead is None else dead
    shares = (drafted.card_shares(con, runs, th.kraken_drafted, th.kraken_bought)
              if shares is None else shares)
    pool = query(con, f"""SELECT DISTINCT name FROM run_cards WHERE in_pool AND buy IS NOT NULL
                         AND run_id IN ({run_list(runs)})""").get_column("name").to_list()
    found = [*seat_findings(con, runs, th), *set_findings(con, runs, th),
             *card_findings(table, th), *dead_card_findings(dead, len(pool), th),
             *kraken_findings(shares, th),
             *economy_findings(con, runs, th), *shape_findings(con, runs, th),
             *agent_findings(con, runs, th, pool), *extra]
    # a caveat about the agents qualifies every other finding: it leads its severity
    return sorted(found, key=lambda f: (SEVERITIES.index(f.severity), f.kind != "agent",
                                        -f.excess))


def headline(found: Sequence[Finding], per_kind: int = 5) -> tuple[list[Finding], dict[str, int]]:
    """The short list to read first: at most `per_kind` findings of each kind, in rank order,
    and how many more of each kind the sections hold."""
    shown: list[Finding] = []
    left: dict[str, int] = {}
    for f in found:
        if sum(1 for g in shown if g.kind == f.kind) < per_kind:
            shown.append(f)
        else:
            left[f.kind] = left.get(f.kind, 0) + 1
    return shown, left


def as_frame(found: Sequence[Finding]) -> pl.DataFrame:
    """The findings as a table (rank from 1), for the report's files."""
    return pl.DataFrame(
        {"rank": list(range(1, len(found) + 1)), "severity": [f.severity for f in found],
         "kind": [f.kind for f in found], "subject": [f.subject for f in found],
         "finding": [f.text for f in found], "value": [f.value for f in found],
         "low": [f.low for f in found], "high": [f.high for f in found],
         "n": [f.n for f in found], "section": [f.section for f in found]},
        schema={"rank": pl.Int64, "severity": pl.String, "kind": pl.String,
                "subject": pl.String, "finding": pl.String, "value": pl.Float64,
                "low": pl.Float64, "high": pl.Float64, "n": pl.Int64, "section": pl.String})
