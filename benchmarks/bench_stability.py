"""Conclusions that hold across skill: do a fast agent and a strong one,
playing the same seeds, rank the cards alike and give them the same verdict?

Per board, the setup (sets + board) is played twice on the same seeds, every seat (and every
drafter) the fast agent in one run and the strong agent in the other: a `workbench skill` study
(workbench/studies/study.py, kind 'skill', no studied card) stored in --db like any other, so
`workbench report --run A --skill-run B` shows the same comparison on the report's page.
--fast-games N gives the fast agent, whose games cost about a hundredth of the strong one's, N
games in all: after the study, an extra run of N - --games games of the fast agent (seats and
drafters as in its study run) on seeds of their own (extra_seed), stored under the study's id
(sweeps kind EXTRA) and pooled into the fast agent's runs wherever the study is analysed; the
strong agent keeps the study's games. Then, per set and board (and over all cards, set "all"):
- Spearman's rank correlation (scipy.stats.spearmanr) between the two agents of each per-card
  metric: win rate when in store, improvement when bought, buy rate, over the cards both agents
  measured from --min-sample observations (n; the report's 30 by default), with its 95%
  interval (Fisher's z with Bonett and Wright's variance);
- the cards whose verdict (too strong / fine / too weak: the report's own,
  findings.card_verdict) differs between the two agents, and how many each judged.
- each run's own reliability per metric (its even and odd games' card orders compared, carried to
  the whole run: stability.reliability), the ceiling the two runs' noise puts on their
  correlation (stability.ceiling), and the games each run would need for its reliability to
  reach the issue's 0.7 (stability.games_for): a low correlation under a low ceiling says the
  runs are too short; under a high one, that the card order changes with skill.
The per-card metrics are analysis/cards.card_results' and the comparison is
analysis/stability.py's: the report, `workbench skill` and this benchmark share one definition.
The correlations are also stored in the database (sweep_results, quantity
`spearman:METRIC:SET`).

Prints a Markdown table and writes --out (JSON: command, commit, studies with their runs, game
counts, correlations and unstable cards).

Usage (search:budget=16 takes several seconds a game; run long measurements under nice):
    nice -n 10 .venv/bin/python benchmarks/bench_stability.py --games 40 --workers 1 \\
        --db /tmp/stability.duckdb --out /tmp/stability.json
    .venv/bin/python benchmarks/bench_stability.py --games 2000 --fast-games 10000 --workers 2
        (8,000 more of the fast agent's games, on other seeds: less of its noise in the rho)
    .venv/bin/python benchmarks/bench_stability.py --db stability.duckdb --study 1 --study 2
        (analyse studies already played, with their extra runs, without playing)
    .venv/bin/python benchmarks/bench_stability.py --db stability.duckdb --study 1 --study 2 --pool
        (two studies of the same agents and setup on other seeds, analysed as one)
"""

from __future__ import annotations

import argparse
import json
import subprocess
import sys
from collections.abc import Sequence
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))

import duckdb
import polars as pl
from rich.console import Console

from app.cmd_simulate import new_spec
from engine.agents.registry import make_agent
from engine.play import derive_seed
from workbench.analysis import stability
from workbench.analysis.findings import NO_ESTIMATE
from workbench.analysis.runs import Runs
from workbench.analysis.source import open_db, query, run_list
from workbench.analysis.stats import MIN_SAMPLE
from workbench.content.setup import DEFAULT_BOARD, DEFAULT_SETS
from workbench.store import RunSpec
from workbench.studies.skill import agent_variants
from workbench.studies.study import record_results, run_study

Row = dict[str, Any]
EXTRA = "skill-extra"
"""The sweeps kind of a skill study's extra run of its fast agent (--fast-games), stored under
the study's sweep_id."""


def play(args: argparse.Namespace, console: Console) -> list[int]:
    """One skill study per board, with the fast agent's extra run when --fast-games asks for
    more games than --games; their sweep ids."""
    for spec in (args.fast, args.strong):
        make_agent(spec)  # a typo costs no games
    studies = []
    for board in [b.strip() for b in args.board.split(",") if b.strip()]:
        st = run_study(
            args.db,
            _spec(args, board, args.games, args.seed),
            "skill",
            "",
            "agents",
            agent_variants([args.fast, args.strong]),
            args.workers,
            console,
        )
        if args.fast_games > args.games:
            run_study(
                args.db,
                _spec(args, board, args.fast_games - args.games, extra_seed(args.seed)),
                EXTRA,
                "",
                "agents",
                agent_variants([args.fast]),
                args.workers,
                console,
                extend=st,
            )
        studies.append(st.sweep_id)
    return studies


def _spec(args: argparse.Namespace, board: str, games: int, seed: int) -> RunSpec:
    """The setup of a study's runs, every seat (and drafter) the fast agent."""
    ns = argparse.Namespace(
        sets=args.sets,
        board=board,
        games=games,
        players=None,
        agents=args.fast,
        drafters=None,
        seed=seed,
        label=None,
    )
    return new_spec(ns)[0]


def extra_seed(seed: int) -> int:
    """The run seed of the fast agent's extra games: derived from the study's, so its games'
    seeds (derive_seed(run seed, game index)) are none of the study's, nor of a study played
    on another small --seed to be pooled with it."""
    return derive_seed(seed, "fast-games")


def study_runs(con: duckdb.DuckDBPyConnection, sweep: int) -> list[tuple[str, int]]:
    """A stored skill study's (agent, run) pairs, weakest first as played."""
    rows = query(
        con,
        f"""SELECT variant, run_id FROM sweeps WHERE sweep_id = {int(sweep)}
                         AND kind = 'skill' ORDER BY value""",
    )
    if rows.height != 2:
        raise SystemExit(f"study {sweep}: not a skill study of two agents in this database")
    return [(str(a), int(r)) for a, r in rows.iter_rows()]


def extra_runs(con: duckdb.DuckDBPyConnection, sweep: int, fast_run: int) -> list[int]:
    """A stored skill study's extra runs of its fast agent (kind EXTRA, --fast-games); refused
    unless played as the study's fast run (the same seats and drafters)."""
    rows = query(
        con,
        f"""SELECT s.run_id, r.agents, r.drafters FROM sweeps s JOIN runs r USING (run_id)
            WHERE s.sweep_id = {int(sweep)} AND (s.kind = '{EXTRA}' OR s.run_id = {int(fast_run)})
            ORDER BY s.kind = '{EXTRA}', s.run_id""",
    )
    (_, *want), *extras = rows.iter_rows()
    for run, *players in extras:
        if players != want:
            raise SystemExit(
                f"study {sweep}: extra run {run} is played by {players[0]} (drafters "
                f"{players[1]}), not as run {fast_run} ({want[0]}, drafters {want[1]})"
            )
    return [int(r) for r, *_ in extras]


def pooled_runs(
    con: duckdb.DuckDBPyConnection, sweeps: Sequence[int]
) -> tuple[dict[str, list[int]], list[int]]:
    """Each agent's runs over the given skill studies (weakest first as played), the fast
    agent's with the studies' extra runs, and those extra runs; the studies must be of the same
    two agents on the same setup, so that their games pool."""
    runs: dict[str, list[int]] = {}
    extras: list[int] = []
    for sweep in sweeps:
        agents = study_runs(con, sweep)
        if runs and [a for a, _ in agents] != list(runs):
            raise SystemExit(
                f"study {sweep}: played by {' and '.join(a for a, _ in agents)}, not "
                f"{' and '.join(runs)}; only studies of the same two agents pool"
            )
        for agent, run in agents:
            runs.setdefault(agent, []).append(run)
        more = extra_runs(con, sweep, agents[0][1])
        runs[agents[0][0]] += more
        extras += more
    first = runs[next(iter(runs))][:1]
    for run in [r for group in runs.values() for r in group]:
        why = stability.setup_difference(con, first, [run])
        if why is not None:
            raise SystemExit(f"studies {', '.join(map(str, sweeps))} do not pool: {why}")
    return runs, extras


def analyse(con: duckdb.DuckDBPyConnection, sweeps: Sequence[int], min_sample: int) -> Row:
    """One study, or several pooled: the correlations per set and metric over the metrics from
    `min_sample` observations (stability.card_verdicts), the verdict table's differing cards,
    each run's reliability and the split halves compared. The fast agent's extra runs count as
    its games; the strong agent plays only the study's seeds."""
    runs, extras = pooled_runs(con, sweeps)
    (fast, runs_a), (strong, runs_b) = runs.items()
    both = Runs(con, [*runs_a, *runs_b])
    a, b = (stability.card_verdicts(both.of(r), None, min_sample) for r in (runs_a, runs_b))
    corr = stability.rank_correlations(a, b)
    table = stability.verdict_table(both, [(fast, runs_a), (strong, runs_b)])
    judged = {
        p: int((table.get_column(f"verdict@{p}") != NO_ESTIMATE).sum()) for p in (fast, strong)
    }
    size = sizes(con, runs, extras)
    return {
        "study": sweeps[0] if len(sweeps) == 1 else list(sweeps),
        **size,
        "fast": fast,
        "strong": strong,
        "runs": {fast: runs_a, strong: runs_b},
        "min_sample": min_sample,
        "reliability": stability.noise_ceilings(both, runs, size["games"], min_sample),
        "halves": stability.split_halves(
            both, (fast, runs_a), (strong, runs_b), min_sample=min_sample
        ),
        "cards": table.height,
        "judged": judged,
        "both_judged": int(
            table.filter(
                (pl.col(f"verdict@{fast}") != NO_ESTIMATE)
                & (pl.col(f"verdict@{strong}") != NO_ESTIMATE)
            ).height
        ),
        "correlations": corr.to_dicts(),
        "unstable": differing(stability.unstable(table), (fast, strong)),
    }


def sizes(con: duckdb.DuckDBPyConnection, runs: dict[str, list[int]], extras: list[int]) -> Row:
    """The setup, the studies' seeds, each agent's games, and the fast agent's extra runs with
    their seeds and games (games on seeds the strong agent did not play)."""
    every = [r for group in runs.values() for r in group]
    info = query(
        con,
        f"""SELECT r.run_id, r.boards, r.sets, r.seed,
                         (SELECT count(*) FROM games g WHERE g.run_id = r.run_id) AS games
                         FROM runs r WHERE run_id IN ({run_list(every)}) ORDER BY run_id""",
    )
    first = info.row(0, named=True)

    def of(rs: Sequence[int]) -> pl.DataFrame:
        return info.filter(pl.col("run_id").is_in(rs))

    study = [r for r in runs[next(iter(runs))] if r not in extras]
    return {
        "board": first["boards"],
        "sets": first["sets"],
        "seed": sorted(set(of(study).get_column("seed"))),
        "games": {p: int(of(rs).get_column("games").sum()) for p, rs in runs.items()},
        "extra_runs": extras,
        "extra_seed": sorted(set(of(extras).get_column("seed"))),
        "extra_games": int(of(extras).get_column("games").sum()),
    }


def differing(unstable: pl.DataFrame, players: tuple[str, str]) -> list[Row]:
    """The cards whose verdicts differ: each player's verdict and improvement when bought."""
    return [
        {"card": r["card"], "set": r["set"]}
        | {p: r[f"verdict@{p}"] for p in players}
        | {f"bought_gain@{p}": r[f"bought_gain@{p}"] for p in players}
        for r in unstable.iter_rows(named=True)
    ]


def _num(v: float | None) -> str:
    return "–" if v is None else f"{v:+.2f}".replace("-", "\u2212")


def markdown(results: list[Row]) -> str:
    """Per study: the correlation table and the cards whose verdict differs."""
    out = []
    for s in results:
        fast, strong = s["fast"], s["strong"]
        out += [
            (
                f"### {s['board']}: {fast} against {strong} ({_studies(s['study'])}, "
                f"seed {', '.join(map(str, s['seed']))}; {games_text(s)}"
                + (f"; metrics from {s['min_sample']}+ observations)" if s["min_sample"] else ")")
            ),
            "",
            "| set | metric | cards | Spearman rho | 95% interval |",
            "|---|---|---:|---:|---|",
        ]
        for c in s["correlations"]:
            interval = "–" if c["rho_lo"] is None else f"{_num(c['rho_lo'])} to {_num(c['rho_hi'])}"
            out.append(
                f"| {c['set']} | {stability.METRICS[c['metric']]} | {c['cards']} | "
                f"{_num(c['rho'])} | {interval} |"
            )
        out += [
            "",
            (
                f"| metric (all cards) | reliability, {fast} | reliability, {strong} | "
                f"ceiling on rho | games for a reliability of {stability.TARGET_RHO}, "
                f"{fast} / {strong} |"
            ),
            "|---|---:|---:|---:|---|",
        ]
        for r in s["reliability"]:
            need = r[f"games_for_{stability.TARGET_RHO}"]
            out.append(
                f"| {stability.METRICS[r['metric']]} | {_num(r[fast])} | {_num(r[strong])} | "
                f"{_num(r['ceiling'])} | {need[fast] or '–'} / {need[strong] or '–'} |"
            )
        out += halves_table(s["halves"])
        words = (
            "; ".join(
                f"{u['card']} ({u['set']}: {u[fast]} with {fast}, {u[strong]} with {strong})"
                for u in s["unstable"]
            )
            or "none"
        )
        out += [
            "",
            (
                f"Verdicts that differ ({len(s['unstable'])} of {s['both_judged']} cards "
                f"judged by both; {s['judged'][fast]} judged by {fast}, {s['judged'][strong]} "
                f"by {strong}, of {s['cards']} held): {words}."
            ),
            "",
        ]
    return "\n".join(out)


def games_text(s: Row) -> str:
    """Each agent's games, and how many of the fast agent's are on seeds of their own
    (`heuristic 10,000 games, search:budget=16 2,000: the same seeds for 2,000, the heuristic's
    other 8,000 on seeds of their own`), so no reader takes them for equal same-seed runs."""
    fast, strong, extra = s["fast"], s["strong"], s["extra_games"]
    both = f"{fast} {s['games'][fast]:,} games, {strong} {s['games'][strong]:,}"
    if not extra:
        return f"{both}, on the same seeds"
    return (
        f"{both}: the same seeds for {s['games'][fast] - extra:,}, the {fast}'s other "
        f"{extra:,} on seeds of their own (run seed {', '.join(map(str, s['extra_seed']))})"
    )


def halves_table(halves: list[Row]) -> list[str]:
    """The split halves compared (stability.split_halves) as Markdown lines."""
    return [
        "",
        "| halves compared (improvement when bought, all cards) | seeds | games | rho | cards |",
        "|---|---|---|---:|---:|",
        *(
            f"| {h['compared']} | {h['seeds']} | {h['games'][0]:,} / {h['games'][1]:,} | "
            f"{_num(h['rho'])} | {h['cards']} |"
            for h in halves
        ),
    ]


def _studies(study: int | list[int]) -> str:
    return (
        f"study {study}"
        if isinstance(study, int)
        else f"studies {', '.join(map(str, study))} pooled"
    )


def commit() -> str:
    try:
        return subprocess.run(
            ["git", "rev-parse", "--short", "HEAD"],
            cwd=ROOT,
            check=True,
            capture_output=True,
            text=True,
        ).stdout.strip()
    except (OSError, subprocess.CalledProcessError):
        return "?"


def main(argv: list[str] | None = None) -> int:
    """Play (or take the stored --study), analyse, record, print the table and write --out."""
    parser = _parser()
    args = parser.parse_args(argv)
    if args.pool and not args.study:
        parser.error("--pool analyses stored studies: give them with --study")
    if args.fast_games is None:
        args.fast_games = args.games
    elif args.study:
        parser.error("--fast-games plays: the extra runs of a --study are found in --db")
    elif args.fast_games < args.games:
        parser.error(f"--fast-games {args.fast_games} is fewer than --games {args.games}")
    code = commit()  # the code that plays, not what the tree holds when the games are done
    studies = args.study or play(args, Console(stderr=True))
    con = open_db(args.db)
    try:
        groups = [studies] if args.pool else [[s] for s in studies]
        results = [analyse(con, g, args.min_sample) for g in groups]
    finally:
        con.close()
    if not args.study:
        _record(args.db, results)
    doc = {"command": " ".join(sys.argv), "commit": code, "db": str(args.db), "studies": results}
    Path(args.out).write_text(json.dumps(doc, indent=2) + "\n")
    print(markdown(results))
    print(f"\n{args.out}")
    return 0


def _parser() -> argparse.ArgumentParser:
    """The agents, setup and size of the study, or --study to analyse stored ones."""
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0] if __doc__ else "")
    parser.add_argument(
        "--fast", default="heuristic", help="the fast agent's registry spec (default: heuristic)"
    )
    parser.add_argument(
        "--strong",
        default="search:budget=16",
        help="the strong agent's registry spec (default: search:budget=16)",
    )
    parser.add_argument(
        "--sets",
        default=",".join(DEFAULT_SETS),
        help=f"card sets (default: {','.join(DEFAULT_SETS)}, the demo's)",
    )
    parser.add_argument(
        "--board",
        default=DEFAULT_BOARD,
        help=f"board(s), comma-separated, one study each (default: {DEFAULT_BOARD}, the demo's)",
    )
    parser.add_argument(
        "--games", type=int, default=400, help="games per agent and board (default: 400)"
    )
    parser.add_argument(
        "--fast-games",
        type=int,
        metavar="N",
        help="games of the fast agent per board (default: --games): --games on the strong "
        "agent's seeds, the rest on seeds of their own, pooled into the fast agent's",
    )
    parser.add_argument("--workers", type=int, default=1, help="worker processes (default: 1)")
    parser.add_argument("--seed", type=int, default=1, help="seed shared by both agents")
    parser.add_argument(
        "--db",
        default="stability.duckdb",
        help="DuckDB file the runs go to (default: stability.duckdb)",
    )
    parser.add_argument(
        "--study",
        type=int,
        action="append",
        default=[],
        metavar="ID",
        help="analyse this stored study of --db instead of playing, repeatable",
    )
    parser.add_argument(
        "--pool",
        action="store_true",
        help="analyse the --study ids as one: each agent's runs pooled (the same two agents "
        "and setup, e.g. a second study on another --seed to reach more games)",
    )
    parser.add_argument(
        "--min-sample",
        type=int,
        default=MIN_SAMPLE,
        help=f"observations a card's metric needs to be ranked (default: report's {MIN_SAMPLE})",
    )
    parser.add_argument("--out", default="stability.json", help="JSON results file")
    return parser


def _record(db: str, results: list[Row]) -> None:
    """Store each new study's correlations with it, so the database holds its conclusions."""
    for s in results:
        record_results(
            db,
            s["study"],
            [
                (
                    "",
                    f"spearman:{c['metric']}:{c['set']}",
                    c["rho"],
                    c["rho_lo"],
                    c["rho_hi"],
                    f"{c['cards']} cards, {games_text(s)}",
                )
                for c in s["correlations"]
            ],
        )


if __name__ == "__main__":
    raise SystemExit(main())
