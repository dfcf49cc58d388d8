"""Recovery of planted mispricings: does the project's own pipeline name a
card that was made too cheap or too dear on purpose, and does tune put its cost back?

Cases (benchmarks/recovery_cases.json, written by --make-cases with
workbench/studies/recovery_cases.py and plants.py): one card of a shipped set per case, of
every card type, made stronger or weaker by a large or a moderate step of its buy price, play
cost, upkeep, a unit's attack or life or one effect number; only cards the truth of the
original content finds inside the band, never a card of the unit tests' tuning data
(tests/data/tuning). PER_RUN cases share a run: their plants go into one copy of one set of a
board (each board with two of the shipped sets: BOARDS; the boards in turn, so every victory
kind).

Per run, with the pipeline's default settings (the CLI, as a designer runs it):
- `workbench simulate --design causal` + `workbench report` on the planted copy of the sets
  (--pipeline own: simulate with the agents' own buying, the observational verdicts), and once
  per board and set pair on the unplanted sets with the same seed; the report's
  `tables/card_verdicts.csv` says which cards it names and which way
  (workbench/studies/recovery.py);
- `workbench tune --fields FIELD` on the planted set, once per cost field of its confirmed
  large cost plants, while fewer than --tune-cases of them are tuned;
- the truth: a large run of the randomised buying design (`simulate --design causal`,
  --confirm-games games, seed --seed + 1) on the planted content, and once per board and set pair on
  the original content: a plant counts only where the planted card's causal effect lies beyond
  the verdicts' band the planted way with its whole 95% interval and moved that way from the
  original card's effect (recovery.confirmed). Its games, seed and estimates are kept with the
  case. With --reconfirm-games N, a plant that leaned the planted way there without being
  confirmed (recovery.leaning) is decided by a second such run of N games on fresh seeds
  (--seed + 2), on its own (recovery.is_confirmed).

Scores: recall (a confirmed plant named the planted way), false alarms (cards the planted run
names that the unplanted run of the same seeds does not name that way, the run's plants aside,
as a share of the cards named), tune's correction (|proposal - original cost|), games and CPU
seconds per run; overall, per card type, per victory kind and per planted field. Resumable:
what is done is kept in --out (results.json, confirm/BOARD.json and RUN.json) and not done
again; the run databases are deleted once scored (--keep-db).

Usage (2 shared cores):
    .venv/bin/python benchmarks/bench_recovery.py --cases 40 --confirm-games 4000 --workers 2 \\
        --out /tmp/recovery
    ... --make-cases 40 --seed 1 --confirm-games 4000 --out /tmp/recovery: write
    benchmarks/recovery_cases.json anew (playing the original content's truth if --out lacks it)
"""

from __future__ import annotations

import argparse
import json
import os
import shlex
import shutil
import subprocess
import sys
import time
from collections.abc import Sequence
from dataclasses import asdict
from pathlib import Path
from typing import Any

ROOT = Path(__file__).resolve().parents[1]
sys.path.insert(0, str(ROOT))


from recovery_cli import cli, design_effects, games_in, options, simulate

from engine.cards import CardType
from workbench.analysis.severity import Thresholds
from workbench.studies import plants as pl
from workbench.studies import recovery as rc
from workbench.studies.recovery_cases import (
    PER_RUN,
    Content,
    content_key,
    make_cases,
    original_files,
    parse_contents,
    plant_of,
    planted_files,
    runs_of,
)

CASES = ROOT / "benchmarks" / "recovery_cases.json"
TUNING_DATA = ROOT / "tests" / "data" / "tuning"
BAND = "-0.05,0.05"
"""tune's --band (it has no default): the band the docs use."""


def excluded_names() -> set[str]:
    """Card names of the unit tests' tuning data: never planted (casefolded)."""
    names: set[str] = set()
    for path in TUNING_DATA.glob("*.csv"):
        lines = path.read_text(encoding="utf-8").splitlines()
        if lines and lines[0].startswith("name,"):
            names |= {line.split(",", 1)[0].casefold() for line in lines[1:] if line}
    return names


# --- the pipeline, through the CLI ---------------------------------------------------------------


def simulate_report(
    files: Sequence[Path], board: str, folder: Path, opts: argparse.Namespace
) -> tuple[rc.Named, int, float]:
    """simulate + report into `folder`; the cards the report names, the games and CPU s."""
    folder.mkdir(parents=True, exist_ok=True)
    db, log = folder / "run.duckdb", folder / "log.txt"
    db.unlink(missing_ok=True)
    sim = [*simulate(files, board, db, opts.seed, opts.workers), *opts.simulate_arg]
    sim += ["--design", "causal"] if opts.pipeline == "causal" else []
    cpu = cli([*sim, *([] if opts.games is None else ["--games", str(opts.games)])], log)
    for more in opts.simulate:  # more runs into the same file, e.g. a designed one
        cpu += cli([*sim, *shlex.split(more)], log)
    cpu += cli(["report", "--db", str(db), "--out", str(folder / "report"), *opts.report_arg], log)
    games = games_in(db)
    if not opts.keep_db:
        db.unlink()
    return rc.named_cards(folder / "report" / "tables"), games, cpu


def tune(
    files: Sequence[Path],
    plant_file: Path,
    board: str,
    field: str,
    folder: Path,
    opts: argparse.Namespace,
) -> tuple[int, float]:
    """`workbench tune --fields FIELD` on the planted set (default settings otherwise, --band
    BAND); games, CPU s."""
    folder.mkdir(parents=True, exist_ok=True)
    db, log = folder / "tune.duckdb", folder / "log.txt"
    db.unlink(missing_ok=True)
    args = ["tune", "--set", str(plant_file), "--sets", ",".join(map(str, files))]
    args += ["--board", board, "--band", BAND, "--fields", field, "--seed", str(opts.seed)]
    args += ["--workers", str(opts.workers), "--db", str(db), "--out", str(folder / "out")]
    args += [] if opts.tune_games is None else ["--games", str(opts.tune_games)]
    cpu = cli([*args, *opts.tune_arg], log)
    games = games_in(db)
    if not opts.keep_db:
        db.unlink()
    return games, cpu


# --- the truth: a large run of the randomised buying design -----------------------------------


def kept_effects(
    out: Path,
    name: str,
    files: Sequence[Path],
    board: str,
    opts: argparse.Namespace,
    again: bool = False,
) -> dict[str, Any]:
    """The design run NAME (a board's original content, or a case's planted content), played
    once and kept in --out/confirm/NAME.json, so that runs of the benchmark with other pipeline
    settings can take the same truth (copy the folder; its games and seed must match). `again`:
    the second truth run of --reconfirm-games games on fresh seeds (--seed + 2), kept in
    NAME.again.json."""
    games, seed = (
        (opts.reconfirm_games, opts.seed + 2) if again else (opts.confirm_games, opts.seed + 1)
    )
    stem = f"{name}.again" if again else name
    path = out / "confirm" / f"{stem}.json"
    if not path.is_file():
        made = design_effects(files, board, out / "confirm" / stem, games, seed, opts)
        made["seed"] = seed
        path.write_text(json.dumps(made, indent=1), encoding="utf-8")
        print(f"  truth {stem}: {made['games']} design games, {made['cpu']:.0f} CPU s", flush=True)
    found: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    if (found["games"], found.get("seed", opts.seed + 1)) != (games, seed):
        raise SystemExit(
            f"{path} holds {found['games']} games of seed {found.get('seed')}, not "
            f"{games} of seed {seed}: give another --out"
        )
    found.setdefault("seed", seed)
    return found


def confirm(
    out: Path, run: Sequence[dict[str, Any]], opts: argparse.Namespace, again: bool = False
) -> dict[str, Any]:
    """The randomised runs that decide whether each of the run's plants is one (rc.confirmed),
    by case id; the planted content's design run is the run's. `again`: the second truth run
    (kept_effects)."""
    first = run[0]
    board, key = first["board"], content_key(first["board"], first["sets"])
    original = kept_effects(out, key, original_files(out, first["sets"]), board, opts, again)
    planted = kept_effects(out, first["run"], planted_files(out, run), board, opts, again)
    found = {}
    for case in run:
        plant = plant_of(case)
        truth = rc.confirmed(
            planted["cards"].get(plant.card),
            original["cards"].get(plant.card),
            plant.direction,
            Thresholds().card_band,
        )
        found[case["id"]] = {
            "agents": "factorial",
            "games": planted["games"],
            "seed": planted["seed"],
            **asdict(truth),
            "cpu": planted["cpu"],
        }
    return found


def reconfirm(out: Path, scored: Sequence[dict[str, Any]], opts: argparse.Namespace) -> None:
    """--reconfirm-games: the run's cases whose plant leaned the planted way in the truth run
    without being confirmed (rc.leaning) get a second truth on fresh seeds, which decides for
    them on its own (rc.is_confirmed); its CPU is the truth's, not the pipeline's."""
    band = Thresholds().card_band
    pending = [
        r
        for r in scored
        if "reconfirm" not in r
        and rc.leaning(rc.Truth(**_truth_fields(r["confirm"])), plant_of(r).direction, band)
    ]
    if not pending:
        return
    again = confirm(out, scored, opts, again=True)
    for result in pending:
        result["reconfirm"] = again[result["id"]]


def _truth_fields(kept: dict[str, Any]) -> dict[str, Any]:
    return {f: kept[f] for f in rc.Truth.__dataclass_fields__}


# --- one run of cases ----------------------------------------------------------------------------


def unplanted(
    out: Path, board: str, sets: Sequence[str], results: dict[str, Any], opts: argparse.Namespace
) -> rc.Named:
    """The unplanted run of a content (once; its named cards kept in results)."""
    key = content_key(board, sets)
    done = results["unplanted"].get(key)
    if done is None:
        files = original_files(out, sets)
        named, games, cpu = simulate_report(files, board, out / "unplanted" / key, opts)
        done = {
            "named": {c: sorted(w) for c, w in named.items()},
            "games": games,
            "cpu": round(cpu, 1),
        }
        results["unplanted"][key] = done
        save(out, results)
        print(
            f"  unplanted {key}: {games} games, {cpu:.0f} CPU s, {len(named)} cards named",
            flush=True,
        )
    return {c: frozenset(pl.Direction(x) for x in w) for c, w in done["named"].items()}


def run_cases(
    out: Path, run: Sequence[dict[str, Any]], results: dict[str, Any], opts: argparse.Namespace
) -> list[dict[str, Any]]:
    """Play and score one run's cases: the truth, the unplanted run of the board, the pipeline
    on the planted copy; each case keeps the run's names, games and CPU."""
    start = time.perf_counter()
    truth = confirm(out, run, opts)
    first = run[0]
    before = unplanted(out, first["board"], first["sets"], results, opts)
    files = planted_files(out, run)
    folder = out / "cases" / first["run"]
    named, games, cpu = simulate_report(files, first["board"], folder, opts)
    wall = round(time.perf_counter() - start, 1)
    planted = [plant_of(c).card for c in run]
    scored = []
    for case in run:
        plant = plant_of(case)
        score = rc.score(plant.card, plant.direction, named, before, planted)
        scored.append(
            {
                **case,
                "confirm": truth[case["id"]],
                "named": {c: sorted(w) for c, w in named.items()},
                "recalled": score.recalled,
                "named_before": score.named_before,
                "named_count": score.named,
                "false_alarms": list(score.false_alarms),
                "tune": None,
                "games": games,
                "cpu": round(cpu, 1),
                "wall": wall,
            }
        )
    return scored


def tune_run(out: Path, scored: Sequence[dict[str, Any]], opts: argparse.Namespace) -> None:
    """Run tune on a scored run's planted set, once per cost field its cases still to tune
    planted (`--fields FIELD`, the cost a designer would search for them); each gets the
    proposal for its card and field, and the cases of the run share the cost."""
    files = planted_files(out, scored)
    first = scored[0]
    plant_file = files[first["sets"].index(plant_of(first).set)]
    pending = [r for r in rc.tuned_cases(scored) if r["tune"] is None]
    for field in dict.fromkeys(plant_of(r).field for r in pending):
        folder = out / "cases" / first["run"] / f"tune-{field}"
        games, cpu = tune(files, plant_file, first["board"], field, folder, opts)
        for result in (r for r in pending if plant_of(r).field == field):
            plant = plant_of(result)
            proposed = rc.proposal(folder / "out" / "proposals.csv", plant.card, field)
            result["tune"] = {
                "proposal": proposed,
                "correction": None if proposed is None else abs(proposed - plant.old),
                "games": games,
                "cpu": round(cpu, 1),
            }
        for result in scored:
            result.update(games=result["games"] + games, cpu=round(result["cpu"] + cpu, 1))


# --- results -----------------------------------------------------------------------------------


def save(out: Path, results: dict[str, Any]) -> None:
    tmp = out / "results.json.tmp"
    tmp.write_text(json.dumps(results, indent=1), encoding="utf-8")
    os.replace(tmp, out / "results.json")


def load(out: Path, settings: dict[str, Any]) -> dict[str, Any]:
    """The results so far, made with the same settings (those given: not None, not [])."""
    path = out / "results.json"
    if not path.is_file():
        return {"settings": settings, "unplanted": {}, "cases": {}}
    results: dict[str, Any] = json.loads(path.read_text(encoding="utf-8"))
    given = [
        {k: v for k, v in d.items() if v not in (None, [])} for d in (results["settings"], settings)
    ]
    if given[0] != given[1]:
        raise SystemExit(
            f"{path} was made with {results['settings']}, not {settings}: give another --out"
        )
    return results


def commit() -> str:
    git = ["git", "rev-parse", "--short", "HEAD"]
    return subprocess.run(git, capture_output=True, text=True, cwd=ROOT).stdout.strip()


SETTINGS = (
    "pipeline",
    "games",
    "confirm_games",
    "seed",
    "simulate_arg",
    "simulate",
    "report_arg",
    "tune_arg",
)
"""The options a results file holds to: a resumed run must give the same."""


def write_cases(opts: argparse.Namespace) -> int:
    """--make-cases: write the case list anew, or add to it (--append)."""
    try:
        kinds = tuple(CardType(k.strip()) for k in opts.kinds.split(","))
        fields = None if opts.fields is None else tuple(f.strip() for f in opts.fields.split(","))
    except ValueError as e:
        raise SystemExit(f"--kinds: {e}") from None
    if fields is not None and not set(fields) <= set(pl.FIELDS):
        raise SystemExit(f"--fields: {opts.fields!r}: each one of {', '.join(pl.FIELDS)}")
    made = {"seed": opts.seed, "made_by": [], "cases": []}
    if opts.append:
        made = json.loads(CASES.read_text(encoding="utf-8"))
        if len(made["cases"]) % PER_RUN:
            raise SystemExit(f"{CASES}: {len(made['cases'])} cases, not whole runs of {PER_RUN}")
    try:
        contents = parse_contents(opts.contents)
    except ValueError as e:
        raise SystemExit(f"--contents: {e}") from None
    command = " ".join(["bench_recovery.py", *sys.argv[1:]])

    def truth(content: Content) -> dict[str, Any]:
        board, sets = content
        files = original_files(opts.out, sets)
        key = content_key(board, sets)
        cards: dict[str, Any] = kept_effects(opts.out, key, files, board, opts)["cards"]
        return cards

    scratch = opts.out / "scratch"
    made["cases"] = make_cases(
        opts.make_cases,
        opts.seed,
        truth,
        excluded_names(),
        scratch,
        (kinds, fields),
        made["cases"],
        contents,
    )
    made["made_by"] = [*made["made_by"], command]
    shutil.rmtree(scratch, ignore_errors=True)
    CASES.write_text(json.dumps(made, indent=1) + "\n", encoding="utf-8")
    print(f"{len(made['cases'])} cases written to {CASES}")
    return 0


def main(argv: Sequence[str] | None = None) -> int:
    opts = options(argv, __doc__.split("\n\n")[0])
    if opts.make_cases:
        opts.out.mkdir(parents=True, exist_ok=True)
        return write_cases(opts)
    if opts.skip % PER_RUN or opts.skip < 0:
        raise SystemExit(f"--skip {opts.skip}: whole runs, a multiple of {PER_RUN} cases")
    cases = json.loads(CASES.read_text(encoding="utf-8"))["cases"][opts.skip : opts.cases]
    settings = {k: getattr(opts, k) for k in (*SETTINGS, "tune_games")}
    opts.out.mkdir(parents=True, exist_ok=True)
    results = load(opts.out, settings)
    results.setdefault("runs", []).append({"commit": commit(), "argv": sys.argv[1:]})
    for k, run in enumerate(runs_of(cases).values(), 1):
        print(f"[run {k}] {run[0]['run']} {run[0]['board']}:", flush=True)
        for case in run:
            print(f"  {case['id']}: {plant_of(case).label()}", flush=True)
        if any(c["id"] not in results["cases"] for c in run):
            for result in run_cases(opts.out, run, results, opts):
                results["cases"][result["id"]] = result
            save(opts.out, results)
        scored = [results["cases"][c["id"]] for c in run]
        if opts.reconfirm_games:
            reconfirm(opts.out, scored, opts)
            save(opts.out, results)
        if opts.tune_again and any(r["tune"] is not None for r in scored):
            rc.untune(scored)
        tuned = sum(r["tune"] is not None for r in results["cases"].values())
        if any(r["tune"] is None for r in rc.tuned_cases(scored)) and tuned < opts.tune_cases:
            tune_run(opts.out, scored, opts)
            save(opts.out, results)
        for result in scored:
            print("  " + rc.case_line(result, plant_of(result).label()), flush=True)
    done = [results["cases"][c["id"]] for c in cases if c["id"] in results["cases"]]
    table = rc.markdown(rc.summary([rc.case_result(r) for r in done]))
    (opts.out / "summary.md").write_text(table + "\n", encoding="utf-8")
    print(table)
    return 0


if __name__ == "__main__":
    sys.exit(main())
