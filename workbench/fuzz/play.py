"""Playing a fuzzed game with checks: the engine's invariants at every decision, a
clone against the original now and then, and at the end the referee of `workbench check`, the
text picture, the game stored as `simulate` stores it and replayed from its seed. What a game
found is an `Outcome` with a signature that names the failure without its numbers.
"""

from __future__ import annotations

import random
import re
import signal
import time
import traceback
from collections.abc import Iterator, Sequence
from contextlib import contextmanager
from dataclasses import dataclass, replace
from pathlib import Path
from types import FrameType

from engine.actions import parse_action
from engine.game import Game
from engine.invariants import violations
from engine.play import derive_seed
from engine.state import GameConfig
from workbench.check.core import Events, GameInfo, Violation
from workbench.check.run import walk
from workbench.fuzz.random_cards import GENERATED_NAME
from workbench.play.agents import make_agent
from workbench.store import PlayedGame, batch_tables

AGENT_MIXES = ("random", "heuristic", "mixed")
"""Who plays a fuzzed game: random agents, heuristic agents, or the two alternating by seat."""
GAME_SECONDS = 60.0
"""A game that has used this much CPU time without ending (guards notwithstanding) is a hang.
CPU time, not wall time: on a loaded machine a long but finite game took more than 60 s of wall
time and was called a hang (a fuzz run's game, 10 s of CPU under a load of 8 on two cores)."""


def check_decision(game: Game) -> list[str]:
    """What is checked at each decision of a fuzzed game: the engine's invariants
    (engine/invariants.py), and that a live game offers a real choice (the engine takes forced
    ones itself). One line per finding, led by the rule id or the check's name."""
    found = violations(game.state)
    if len(game.legal_actions()) < 2:
        found.append(f"API: a decision with fewer than 2 legal actions: {game.legal_actions()}")
    return found


def referee(game: Game) -> list[Violation]:
    """The referee of `workbench check` (docs/check.md: a second, independent reading of the
    rules) over the game's events, as it walks a stored game."""
    s = game.state
    config = s.config
    columns: dict[str, list[object]] = dict(s.events.columns())  # type: ignore[arg-type]
    columns["game_id"] = [0] * len(s.events)
    packs = sum(c.copies for c in config.pool if c.buy is not None) // config.pack_size
    info = GameInfo(
        0,
        config.board,
        dict(config.catalog),
        config.players,
        tuple(s.winners or ()),
        s.guard_stopped,
        packs,
    )
    return walk(Events(columns), info, 0, len(s.events))


def check_game(game: Game, agents: Sequence[str], replay: bool = True) -> list[str]:
    """What is checked once a game is over: the invariants, the referee, the text picture, the
    game stored as `workbench simulate` stores it, and its recorded actions replayed from the
    seed to the same end. Checks of a whole game plug in here."""
    found = violations(game.state)
    str(game)
    record = game.record()
    batch_tables(
        1, [PlayedGame(0, game.state.config.board.name, 0, tuple(agents), tuple(agents), record)]
    )
    found += [f"{v.rule} (referee): {v.message}" for v in referee(game)]
    if replay:
        again = Game(game.state.config, game.state.seed)
        for text in record.actions:
            again.apply(parse_action(text, 0))
        if (again.state.winners, len(again.state.events)) != (
            game.state.winners,
            len(game.state.events),
        ):
            found.append(
                f"replay: the recorded actions give another game (winners "
                f"{again.state.winners}, not {game.state.winners})"
            )
    return found


@dataclass(frozen=True)
class Outcome:
    """How a fuzzed game went: `kind` ok, crash, violation (of the invariants or the API),
    referee (a departure from the rules the referee sees), hang, or invalid (content the loader
    refuses); `signature` names the failure so the same defect is counted once; `detail` is
    the message or traceback."""

    kind: str
    signature: str = ""
    detail: str = ""
    steps: int = 0
    reason: str = ""
    guard: bool = False
    cpu: float = 0.0

    @property
    def failed(self) -> bool:
        return self.kind != "ok"


class Hang(Exception):
    """A game ran past GAME_SECONDS."""


@contextmanager
def _time_limit(seconds: float) -> Iterator[None]:
    """Raise Hang in this (main) thread after `seconds` of the process's CPU time (ITIMER_PROF,
    user and system); a no-op elsewhere."""

    def alarm(signum: int, frame: FrameType | None) -> None:
        raise Hang(f"no end after {seconds:.0f} s of CPU")

    try:
        old = signal.signal(signal.SIGPROF, alarm)
    except ValueError:  # not the main thread: no alarm
        yield
        return
    signal.setitimer(signal.ITIMER_PROF, seconds)
    try:
        yield
    finally:
        signal.setitimer(signal.ITIMER_PROF, 0)
        signal.signal(signal.SIGPROF, old)


CLONE_EVERY = 7
"""Every this many decisions the chosen action is also applied to a clone (search relies on
`Game.clone`), and the two states must agree."""


def fingerprint(game: Game) -> tuple[object, ...]:
    """What a game's future depends on, to compare a clone with its original."""
    s = game.state
    perms = tuple(
        (
            c,
            p.controller,
            p.field,
            p.damage,
            tuple(p.markers.items()),
            p.used_move,
            p.used_attack,
            p.tapped,
            tuple(p.stack),
            p.under,
            p.durability,
        )
        for c, p in sorted(s.perms.items())
    )
    players = tuple(
        (
            tuple(pl.deck),
            tuple(pl.hand),
            tuple(pl.discard),
            tuple(pl.store),
            tuple(pl.equip_next),
            pl.resource,
            pl.points,
        )
        for pl in s.players
    )
    return (
        s.phase,
        s.active,
        s.round,
        s.turn,
        s.steps,
        s.winners,
        players,
        perms,
        tuple(s.stack),
        tuple(s.pending),
        tuple(s.priority),
        s.activated,
        tuple(s.occ),
        tuple(s.out),
        len(s.cards),
        s.rng.getstate(),
        game.legal_actions(),
    )


def agents_of(mix: str, players: int) -> tuple[str, ...]:
    if mix == "mixed":
        return tuple("random" if s % 2 else "heuristic" for s in range(players))
    return (mix,) * players


def _signature(exc: BaseException) -> str:
    """`crash:KeyError@engine/flow.py:_move`: the exception type and the innermost frame of the
    project's own code."""
    frames = traceback.extract_tb(exc.__traceback__)
    ours = [f for f in frames if "/engine/" in f.filename or "/workbench/" in f.filename]
    where = ours[-1] if ours else (frames[-1] if frames else None)
    place = (
        f"@{Path(where.filename).parent.name}/{Path(where.filename).name}:{where.name}"
        if where
        else ""
    )
    return f"crash:{type(exc).__name__}{place}"


def _violation_signature(kind: str, found: str) -> str:
    """A finding without its ids, numbers and names: `violation:R9.2:field N holds cN ...`."""
    rule, _, rest = found.partition(":")
    rest = re.sub(r"\d+", "N", re.sub(r"\([^)]*\)", "", re.sub(GENERATED_NAME, "CARD", rest)))
    return f"{kind}:{rule.replace(' (referee)', '')}:{' '.join(rest.split())}"


def play_checked(
    config: GameConfig,
    run_seed: int,
    agents: Sequence[str],
    seconds: float = GAME_SECONDS,
    replay: bool = True,
) -> Outcome:
    """Play game 0 of a simulate run with seed `run_seed` (the same game `workbench simulate
    --seed RUN_SEED --games 1` plays) with `check_decision` at every decision and `check_game`
    at the end; every `CLONE_EVERY`th action is applied to a clone too, which must agree."""
    start = time.process_time()
    seed = derive_seed(run_seed, 0)
    players = [make_agent(a) for a in agents]
    rngs = [random.Random(derive_seed(seed, "seat", s)) for s in range(len(agents))]
    game: Game | None = None

    def outcome(kind: str, found: list[str]) -> Outcome:
        steps = game.state.steps if game is not None else 0
        return Outcome(
            kind,
            _violation_signature(kind, found[0]),
            "\n".join(found),
            steps,
            cpu=time.process_time() - start,
        )

    try:
        with _time_limit(seconds):
            game = Game(config, seed)
            while not game.is_terminal():
                found = check_decision(game)
                if found:
                    return outcome("violation", found)
                seat = game.current_player()
                game.observation(seat)
                action = players[seat].act(game, game.legal_actions(), rngs[seat])
                twin = game.clone() if game.state.steps % CLONE_EVERY == 0 else None
                game.apply(action, check=False)
                if twin is not None:
                    twin.apply(action, check=False)
                    if fingerprint(twin) != fingerprint(game):
                        found = [f"clone: a clone plays on differently after {action.text()}"]
                        return outcome("violation", found)
            found = check_game(game, agents, replay)
            if found:  # the referee's findings alone are the referee's (docs/check.md)
                judged = all("(referee):" in f for f in found)
                return outcome("referee" if judged else "violation", found)
    except Hang as exc:
        return replace(outcome("hang", [str(exc)]), signature="hang")
    except Exception as exc:  # noqa: BLE001  # every crash is a finding, kept with its traceback
        return replace(outcome("crash", [traceback.format_exc()]), signature=_signature(exc))
    s = game.state
    return Outcome(
        "ok", steps=s.steps, reason=s.reason, guard=s.guard_stopped, cpu=time.process_time() - start
    )
