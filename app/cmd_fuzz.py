"""`workbench fuzz`: random valid card sets and boards, played with the engine's invariants checked
at every decision (workbench/fuzz/); every new kind of failure is written as a spreadsheet pair
and shrunk.

Game i of a run is fixed by (seed, i) alone, so a run interrupted at any moment continues with
`--resume` to the same result; each finished game is one line of `progress.jsonl` in the output
folder. Exit 1 if any game failed, 2 on bad arguments.
"""

from __future__ import annotations

import argparse
import json
import multiprocessing
import os
import sys
import time
from collections import Counter
from collections.abc import Iterator, Sequence
from concurrent.futures import FIRST_COMPLETED, Future, ProcessPoolExecutor, wait
from dataclasses import asdict
from pathlib import Path
from typing import Any

from app.workers import add_workers_option
from workbench import fuzz
from workbench.play.pool import exit_with_parent

DEFAULT_OUT = "fuzz-out"
DEFAULT_GAMES = 200
CHUNK = 8
"""Games per task sent to a worker."""

Record = dict[str, Any]


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "fuzz",
        help="play random valid card sets and boards, checking the engine at every decision",
        description="Generate random valid card sets and boards (every verb, trigger, keyword, "
        "cost, terrain and victory kind; 2-4 players, teams, the Tyrant), play them with random "
        "and heuristic agents, and check the engine's invariants at every decision. Each new "
        "kind of failure (crash, invariant violation, hang) is written to OUT/failures as a "
        "card set and board in CSV, shrunk to what still fails. Exit 1 if any game failed.",
    )
    parser.add_argument(
        "--games",
        type=int,
        help=f"games in the run (default {DEFAULT_GAMES}; with --resume: a new total)",
    )
    parser.add_argument("--seed", type=int, help="run seed (default 1)")
    parser.add_argument(
        "--out",
        default=DEFAULT_OUT,
        help=f"folder for progress and failures (default {DEFAULT_OUT})",
    )
    add_workers_option(parser)
    parser.add_argument(
        "--resume",
        action="store_true",
        help="continue the run in --out (its seed; --games may raise the total)",
    )
    parser.add_argument(
        "--shrink",
        type=float,
        default=120.0,
        metavar="SECONDS",
        help="time to shrink each new failure (default 120; 0: keep as found)",
    )
    parser.add_argument(
        "--replay",
        type=Path,
        metavar="CASE",
        help="play a written failure folder again and say what happens",
    )


def run(args: argparse.Namespace) -> int:
    if args.replay is not None:
        return _replay(args.replay)
    try:
        seed, games, done = _start(args)
    except ValueError as exc:
        print(f"workbench fuzz: error: {exc}", file=sys.stderr)
        return 2
    out = Path(args.out)
    todo = [i for i in range(games) if i not in done]
    start, played = time.perf_counter(), 0
    try:
        with (out / "progress.jsonl").open("a", encoding="utf-8") as progress:
            for record in _stream(seed, todo, args.workers):
                progress.write(json.dumps(record, sort_keys=True) + "\n")
                progress.flush()
                done[record["game"]] = record
                played += 1
                if record["kind"] != "ok":
                    _found(out, seed, record)
                if played % 100 == 0 or played == len(todo):
                    print(
                        f"fuzz: {len(done)}/{games} games, "
                        f"{sum(r['kind'] != 'ok' for r in done.values())} failed",
                        flush=True,
                    )
    except KeyboardInterrupt:
        print(
            f"interrupted: {len(done)} of {games} games kept; continue with "
            f"workbench fuzz --out {out} --resume",
            file=sys.stderr,
        )
        return 130
    _shrink_all(out, seed, done, args.shrink)
    print(_summary(out, seed, games, done, played, time.perf_counter() - start))
    return 1 if any(r["kind"] != "ok" for r in done.values()) else 0


def _start(args: argparse.Namespace) -> tuple[int, int, dict[int, Record]]:
    """(seed, games, finished games) of a new run or of the run being resumed."""
    if args.games is not None and not 1 <= args.games <= 10_000_000:
        raise ValueError(f"--games must be 1 to 10,000,000, not {args.games}")
    out = Path(args.out)
    meta_path = out / "fuzz.json"
    if args.resume:
        if args.seed is not None:
            raise ValueError("--resume takes the seed from the run; drop --seed")
        if not meta_path.is_file():
            raise ValueError(f"no fuzz run in {out} to resume")
        meta = json.loads(meta_path.read_text(encoding="utf-8"))
        seed, games = int(meta["seed"]), args.games or int(meta["games"])
        done = _read_progress(out / "progress.jsonl")
        (out / "progress.jsonl").write_text(
            "".join(  # without a line a kill cut short
                json.dumps(done[i], sort_keys=True) + "\n" for i in sorted(done)
            ),
            encoding="utf-8",
        )
    else:
        if meta_path.exists():
            raise ValueError(
                f"{out} holds a fuzz run already: --resume it, or choose another --out"
            )
        seed, games, done = 1 if args.seed is None else args.seed, args.games or DEFAULT_GAMES, {}
        if out.exists() and not out.is_dir():
            raise ValueError(f"--out {out} is a file, not a folder")
    out.mkdir(parents=True, exist_ok=True)
    meta_path.write_text(json.dumps({"seed": seed, "games": games}), encoding="utf-8")
    return seed, games, done


def _read_progress(path: Path) -> dict[int, Record]:
    """Finished games by index; a line cut short by a kill is left out (it is played again)."""
    done: dict[int, Record] = {}
    if not path.is_file():
        return done
    for line in path.read_text(encoding="utf-8").splitlines():
        try:
            record = json.loads(line)
        except json.JSONDecodeError:
            continue
        done[int(record["game"])] = record
    return done


def play_chunk(seed: int, indices: Sequence[int]) -> list[Record]:
    """Play fuzzed games in this process; one record each (spawn-safe)."""
    records = []
    for i in indices:
        start = time.process_time()
        outcome, agents = fuzz.play_planned(fuzz.plan(seed, i))
        records.append(
            {
                "game": i,
                "agents": list(agents),
                **asdict(outcome),
                "cpu": time.process_time() - start,
            }
        )
    return records


def _stream(seed: int, todo: Sequence[int], workers: int) -> Iterator[Record]:
    """Records of the games in `todo`, from a pool of spawned processes (here for one)."""
    chunks = [list(todo[i : i + CHUNK]) for i in range(0, len(todo), CHUNK)]
    if workers == 1:
        for chunk in chunks:
            yield from play_chunk(seed, chunk)
        return
    context = multiprocessing.get_context("spawn")
    with ProcessPoolExecutor(
        workers, mp_context=context, initializer=exit_with_parent, initargs=(os.getpid(),)
    ) as pool:
        pending: set[Future[list[Record]]] = set()
        try:
            for chunk in chunks:
                if len(pending) >= 2 * workers:
                    ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                    for f in ready:
                        yield from f.result()
                pending.add(pool.submit(play_chunk, seed, chunk))
            while pending:
                ready, pending = wait(pending, return_when=FIRST_COMPLETED)
                for f in ready:
                    yield from f.result()
        finally:
            for f in pending:
                f.cancel()


def _folder(out: Path, signature: str) -> Path:
    return out / "failures" / fuzz.slug(signature)


def _failing(seed: int, record: Record) -> fuzz.Failing:
    outcome = fuzz.Outcome(
        **{k: record[k] for k in ("kind", "signature", "detail", "steps", "reason", "guard", "cpu")}
    )
    return fuzz.failing_of(fuzz.plan(seed, int(record["game"])), outcome, tuple(record["agents"]))


def _found(out: Path, seed: int, record: Record) -> None:
    """The first game of a new kind of failure is written at once, as found."""
    folder = _folder(out, record["signature"])
    if folder.exists():
        return
    print(f"fuzz: game {record['game']}: {record['signature']}", flush=True)
    if record["kind"] == "invalid":
        folder.mkdir(parents=True)
        (folder / "README.md").write_text(
            f"# {record['signature']}\n\nGame {record['game']}\n\n```\n{record['detail']}\n```\n",
            encoding="utf-8",
        )
        return
    write = fuzz.write_failure
    write(
        folder,
        _failing(seed, record),
        note=f"Found in fuzzed game {record['game']} (seed {seed}); not shrunk yet.",
    )


def _shrink_all(out: Path, seed: int, done: dict[int, Record], seconds: float) -> None:
    """Shrink each failure written but not shrunk yet (its first game in the run)."""
    if seconds <= 0:
        return
    first: dict[str, Record] = {}
    for i in sorted(done):
        if done[i]["kind"] not in ("ok", "invalid"):
            first.setdefault(done[i]["signature"], done[i])
    for signature, record in first.items():
        folder = _folder(out, signature)
        readme = folder / "README.md"
        if readme.is_file() and "not shrunk yet" not in readme.read_text(encoding="utf-8"):
            continue
        found = _failing(seed, record)
        print(f"fuzz: shrinking {signature} (up to {seconds:.0f} s)", flush=True)
        small = fuzz.minimise(found, seconds)
        fuzz.write_failure(
            folder,
            small,
            found,
            note=f"Found in fuzzed game {record['game']} "
            f"(seed {seed}); shrunk from {len(found.case.cards)} cards.",
        )


def _summary(
    out: Path, seed: int, games: int, done: dict[int, Record], played: int, wall: float
) -> str:
    kinds = Counter(r["kind"] for r in done.values())
    signatures = Counter(r["signature"] for r in done.values() if r["kind"] != "ok")
    guards = Counter(r["reason"] for r in done.values() if r["guard"])
    cpu = sum(float(r["cpu"]) for r in done.values())
    stops = ", ".join(f"{r} {n}" for r, n in guards.most_common()) or "none"
    lines = [
        (
            f"fuzz run {out} (seed {seed}): {len(done)} of {games} games, {played} in this "
            f"session ({wall:.0f} s wall)"
        ),
        (f"  CPU time of the games: {cpu:.0f} s in all ({cpu / max(1, len(done)):.2f} s a game)"),
        (
            f"  crashes {kinds['crash']}, invariant violations {kinds['violation']}, referee "
            f"findings {kinds['referee']}, hangs {kinds['hang']}, invalid generated content "
            f"{kinds['invalid']}"
        ),
        f"  stopped by a guard (R21.18, draws, not failures): {stops}",
    ]
    for signature, n in signatures.most_common():
        lines.append(f"  {n} x {signature}: {_folder(out, signature)}")
    return "\n".join(lines)


def _replay(folder: Path) -> int:
    if not (folder / "case.json").is_file():
        print(
            f"workbench fuzz: error: {folder} holds no case.json of a written failure",
            file=sys.stderr,
        )
        return 2
    outcome, _ = fuzz.replay_folder(folder)
    print(f"{outcome.kind}: {outcome.signature or outcome.reason}")
    if outcome.failed:
        print(outcome.detail)
        return 1
    return 0
