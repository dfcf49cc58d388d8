"""`workbench replay --db PATH --game ID --out DIR`: rebuild a stored game, check it, page it.

Exit 0 when the rebuilt game reproduces the stored events (the page is written), 1 when it
differs (the page is still written up to the first difference, so one can look at it), 2 when
the game cannot be loaded.
"""

from __future__ import annotations

import argparse
from pathlib import Path
from typing import Any

from engine.picture import picture, seat_name
from reports.replay_html import page, write_png
from workbench.content.tables import ValidationError
from workbench.play.replay import ReplayError, StoredGame, replay_stored


def add_parser(subparsers: Any) -> None:
    parser = subparsers.add_parser(
        "replay",
        help="rebuild a stored game and write its replay page",
        description="Rebuild a stored game from its seed and actions, check that it reproduces "
        "the stored events (reporting the first step where it does not), and write one HTML "
        "page stepping through it turn by turn.",
    )
    parser.add_argument("--db", required=True, type=Path, help="the DuckDB store")
    parser.add_argument("--game", required=True, type=int, help="games.game_id")
    parser.add_argument("--out", required=True, type=Path, help="folder for the page")
    parser.add_argument(
        "--png", type=int, metavar="FRAME", help="also write frame FRAME (0 = the draft) as a PNG"
    )


def run(args: argparse.Namespace) -> int:
    try:
        stored, replay, notes = replay_stored(args.db, args.game)
    except (ReplayError, LookupError, ValueError, ValidationError) as exc:
        print(f"cannot replay game {args.game}: {exc}")
        return 2
    if args.png is not None and not 0 <= args.png < len(replay.frames):
        print(f"--png {args.png}: the game has frames 0..{len(replay.frames) - 1}")
        return 2
    for note in notes:
        print(f"note: {note}")
    check = (
        str(replay.divergence)
        if replay.divergence
        else f"reproduces the stored game: {len(stored.events)} events, "
        f"{len(stored.actions)} actions"
    )
    print(check)
    if replay.divergence:
        print(picture(replay.game.state))
    args.out.mkdir(parents=True, exist_ok=True)
    out = args.out / f"game-{stored.game_id}.html"
    out.write_text(
        page(replay, _heading(stored), [*_facts(stored), f"replay: {check}", *notes]),
        encoding="utf-8",
    )
    print(f"wrote {out} ({len(replay.frames)} frames)")
    if args.png is not None:
        png = write_png(
            replay.frames[args.png], args.out / f"game-{stored.game_id}-frame-{args.png}.png"
        )
        print(f"wrote {png}")
    return 1 if replay.divergence else 0


def _heading(g: StoredGame) -> str:
    return f"Game {g.game_id} (run {g.run_id}): {g.board}, {', '.join(g.sets)}"


def _facts(g: StoredGame) -> list[str]:
    won = ", ".join(seat_name(s) for s in g.winners) or "nobody (draw)"
    return [
        f"seed {g.seed}, {g.players} players",
        f"result: {won} won ({g.reason}) after {g.rounds} rounds",
    ]
