"""The fuzzer (workbench/fuzz/, `workbench fuzz`): its generated content is valid and covers the
card language and the board format, a sample of fuzzed games plays clean on every run, and a
failure is written as spreadsheets that show it again, shrunk."""

from __future__ import annotations

import json
import time
from collections import Counter
from pathlib import Path

import pytest

from app.cli import main
from engine.board import Terrain, VictoryKind
from engine.game import Game
from engine.language import TRIGGER_EVENTS
from engine.markers import Marker
from engine.verbs import VERBS
from engine.vocab import ResourceReason
from engine.zones import gain
from tests.builder import IDLE, Position, board
from workbench import fuzz
from workbench.check.core import Events, GameInfo, Violation
from workbench.check.run import walk
from workbench.content.setup import load_setup
from workbench.fuzz import play as fuzz_play

CASES = 40
SAMPLE_GAMES = 12


@pytest.fixture(scope="module")
def configs():
    return [fuzz.load_case(fuzz.generate_case(seed)) for seed in range(CASES)]


def test_generated_content_loads_and_covers_the_language_and_the_boards(configs):
    """Every generated case loads (the loader is the judge of validity), and together they use
    every verb, trigger event, keyword, cost, target form, terrain, field mark, victory kind,
    2-4 players, teams and the Tyrant."""
    assert set(fuzz.EVENT_WORDS) == TRIGGER_EVENTS
    seen: Counter[str] = Counter()
    for config in configs:
        board = config.board
        seen.update({f"victory:{board.victory.kind.value}", f"players:{config.players}"})
        seen.update(f"terrain:{f.terrain.value}" for f in board.fields)
        seen.update("area" for f in board.fields if f.area)
        seen.update("income field" for f in board.fields if f.income)
        seen.update("field action" for f in board.fields if f.actions)
        seen.update({"teams"} if board.teams else set())
        seen.update({f"tie break:{board.tie_break.value}", "placements" * bool(board.placements)})
        for card in {*config.pool, *config.catalog.values()}:
            if card.set != "cards":
                continue
            k = card.keywords
            seen[f"type:{card.type.value}"] += 1
            for word in (
                "armor",
                "crew",
                "swimming",
                "veiled",
                "protections",
                "solid",
                "building",
                "staff",
                "tyrant",
                "moves_on",
            ):
                if getattr(k, word) not in (0, False, (), None):
                    seen[f"keyword:{word}"] += 1
                    seen[f"drafted keyword:{word}"] += card.buy is not None
            given = card.modifiers.keywords
            for word in ("building", "staff", "solid", "moves_on"):
                if given is not None and getattr(given, word) not in (0, False, (), None):
                    seen[f"modifier keyword:{word}"] += 1
            groups = [
                card.effects,
                *(t.effects for t in card.triggers),
                *(a.effects for a in card.free_actions),
                *card.full_actions,
            ]
            seen.update(f"trigger:{t.event}" for t in card.triggers)
            for a in card.free_actions:
                seen.update(
                    f"cost:{c}" for c in ("resource", "discard", "sacrifice") if getattr(a.cost, c)
                )
            for e in (e for g in groups for e in g):
                seen[f"verb:{e.verb}"] += 1
                seen[f"target:{e.target.kind.value}:{'each' if e.target.each else 'one'}"] += 1
                seen["in range"] += e.target.range is not None
            seen["modifiers"] += card.modifiers != type(card.modifiers)()
    wanted = (
        {f"verb:{v}" for v in VERBS}
        | {f"trigger:{t}" for t in TRIGGER_EVENTS}
        | {f"victory:{k.value}" for k in VictoryKind}
        | {f"terrain:{t.value}" for t in Terrain}
        | {f"players:{n}" for n in (2, 3, 4)}
        | {
            f"keyword:{w}"
            for w in (
                "armor",
                "crew",
                "swimming",
                "veiled",
                "protections",
                "solid",
                "building",
                "staff",
                "tyrant",
                "moves_on",
            )
        }
        | {f"drafted keyword:{w}" for w in ("building", "staff")}
        | {f"modifier keyword:{w}" for w in ("building", "staff", "solid", "moves_on")}
        | {f"cost:{c}" for c in ("resource", "discard", "sacrifice")}
        | {f"type:{t}" for t in ("unit", "spell", "artifact", "equipment", "potion", "intention")}
        | {
            "target:self:one",
            "target:unit:one",
            "target:unit:each",
            "target:opponent:one",
            "target:opponent:each",
            "target:permanent:each",
            "target:artifact:one",
            "target:equipment:one",
            "in range",
            "modifiers",
            "area",
            "income field",
            "field action",
            "teams",
            "placements",
        }
    )
    assert not wanted - {k for k, n in seen.items() if n}, sorted(wanted - set(seen))


def test_a_sample_of_fuzzed_games_plays_clean():
    """A few fuzzed games on every test run: random, heuristic and mixed tables, invariants
    checked at every decision, replayed from their actions and stored as simulate would."""
    outcomes = [fuzz.play_planned(fuzz.plan(20, i))[0] for i in range(SAMPLE_GAMES)]
    failed = [(o.signature, o.detail[-600:]) for o in outcomes if o.failed]
    assert not failed, failed
    assert sum(o.steps for o in outcomes) > 0


def test_a_game_is_the_one_simulate_plays_with_that_seed(configs):
    """A written case names a simulate seed: its game 0 is the game the fuzzer checked."""
    config = configs[0]
    agents = fuzz.agents_of("random", config.players)
    outcome = fuzz.play_checked(config, 77, agents)
    from engine.agents.registry import make_agent
    from engine.play import derive_seed, play_game

    record = play_game(config, derive_seed(77, 0), [make_agent(a) for a in agents])
    assert outcome.kind == "ok" and record.reason == outcome.reason


def test_a_game_past_its_time_is_a_hang(configs):
    outcome = fuzz.play_checked(
        configs[1], 5, fuzz.agents_of("heuristic", configs[1].players), seconds=0.001
    )
    assert (outcome.kind, outcome.signature) == ("hang", "hang")


def test_a_game_slowed_by_a_loaded_machine_is_no_hang(configs, monkeypatch: pytest.MonkeyPatch):
    """The limit is CPU time: a game of well under a second of CPU, kept waiting 1.5 s (as a
    loaded machine keeps a worker waiting), is no hang with a 1 s limit. A fuzz run called
    such a game a hang: 10 s of CPU took over 60 s of wall time under a load of 8."""
    config = configs[3]
    agents = fuzz.agents_of("random", config.players)
    waits = [1.5]
    checked = fuzz_play.check_decision

    def slow(game: Game) -> list[str]:
        if waits:
            time.sleep(waits.pop())
        return checked(game)

    monkeypatch.setattr(fuzz_play, "check_decision", slow)
    outcome = fuzz.play_checked(config, 3, agents, seconds=1.0)
    assert outcome.kind == "ok" and not waits and outcome.cpu < 1.0


def test_the_referee_judges_every_fuzzed_game(configs, monkeypatch: pytest.MonkeyPatch):
    """check_game runs the referee of `workbench check` over the game's events; what it finds
    is a failure of its own kind."""
    config = configs[2]
    agents = fuzz.agents_of("random", config.players)
    assert fuzz.play_checked(config, 3, agents).kind == "ok"
    monkeypatch.setattr(
        fuzz_play,
        "referee",
        lambda game: [Violation(0, 4, 17, "R7.2", "seat 1 bought 2 cards in one turn")],
    )
    outcome = fuzz.play_checked(config, 3, agents)
    assert (outcome.kind, outcome.signature) == (
        "referee",
        "referee:R7.2:seat N bought N cards in one turn",
    )


def test_the_referee_takes_a_negative_income_as_far_as_the_resource_goes():
    """R18.2 with R18.1: unit income -2 with 1 resource loses 1 (the resource never goes below
    0); the referee used to expect -2 and flag the engine in fuzzed games."""
    b = board("0 . . 1", income=0, unit_income=-2)
    pos = Position(b, [IDLE])
    pos.idle(0, 0, 0)
    pos.idle(1, 3, 0)
    gain(pos.state, 0, 1, ResourceReason.EFFECT)
    g = pos.game(phase="start", advance=True)
    s = g.state
    assert s.players[0].resource == 0
    columns = {**s.events.columns(), "game_id": [0] * len(s.events)}
    info = GameInfo(0, b, {"idle": IDLE}, 2, (), False, 0)
    assert walk(Events(columns), info, 0, len(s.events)) == []


def _poison_is_a_violation(monkeypatch: pytest.MonkeyPatch) -> None:
    """A stand-in defect: any poisoned unit breaks an invariant."""
    real = fuzz.check_decision

    def check(game: Game) -> list[str]:
        poisoned = [p.cid for p in game.state.perms.values() if p.markers[Marker.POISON] > 0]
        return [f"R99.1: c{poisoned[0]} is poisoned"] if poisoned else real(game)

    monkeypatch.setattr(fuzz_play, "check_decision", check)


def test_a_failure_is_shrunk_into_spreadsheets_that_show_it_again(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    _poison_is_a_violation(monkeypatch)
    found = next(
        f
        for f in (
            fuzz.failing_of(p, *fuzz.play_planned(p)) for p in (fuzz.plan(5, i) for i in range(400))
        )
        if f.outcome.failed
    )
    assert found.outcome.signature == "violation:R99.1:cN is poisoned"
    small = fuzz.minimise(found, seconds=6)
    assert small.outcome.signature == found.outcome.signature
    assert len(small.case.cards) < len(found.case.cards)
    folder = tmp_path / "case"
    fuzz.write_failure(folder, small, found, note="a stand-in defect")
    assert {p.name for p in folder.iterdir()} == {
        "cards.csv",
        "board.map.csv",
        "board.scenario.csv",
        "board.placements.csv",
        "case.json",
        "README.md",
        "original",
    }
    setup = load_setup([str(folder / "cards.csv")], str(folder / "board"))
    assert len({c.name for c in setup.config.pool}) <= len(small.case.cards)
    readme = (folder / "README.md").read_text(encoding="utf-8")
    assert f"workbench fuzz --replay {folder}" in readme and "--seed" in readme
    capsys.readouterr()
    assert main(["fuzz", "--replay", str(folder)]) == 1
    assert "violation:R99.1:cN is poisoned" in capsys.readouterr().out


def test_fuzz_command_runs_resumes_and_writes_each_new_failure_once(
    tmp_path: Path, monkeypatch: pytest.MonkeyPatch, capsys: pytest.CaptureFixture[str]
) -> None:
    out = tmp_path / "run"
    assert main(["fuzz", "--games", "3", "--seed", "4", "--out", str(out), "--workers", "1"]) == 0
    assert len((out / "progress.jsonl").read_text().splitlines()) == 3
    assert main(["fuzz", "--games", "3", "--out", str(out)]) == 2  # no silent overwrite
    assert "--resume" in capsys.readouterr().err
    with (out / "progress.jsonl").open("a") as f:
        f.write('{"game": 3, "kind": "o')  # a line cut short by a kill
    _poison_is_a_violation(monkeypatch)
    assert (
        main(
            [
                "fuzz",
                "--resume",
                "--games",
                "40",
                "--out",
                str(out),
                "--workers",
                "1",
                "--shrink",
                "0",
            ]
        )
        == 1
    )
    records = [json.loads(line) for line in (out / "progress.jsonl").read_text().splitlines()]
    assert sorted(r["game"] for r in records) == list(range(40))
    assert {r["kind"] for r in records[:3]} == {"ok"}
    failures = [r for r in records if r["kind"] != "ok"]
    assert failures and {r["signature"] for r in failures} == {"violation:R99.1:cN is poisoned"}
    written = list((out / "failures").iterdir())
    assert [p.name[:-7] for p in written] == ["violation-r99-1-cn-is-poisoned"]
    text = capsys.readouterr().out
    assert f"invariant violations {len(failures)}" in text and "CPU time" in text
    assert main(["fuzz", "--resume", "--out", str(out), "--workers", "1", "--shrink", "0"]) == 1
    assert len((out / "progress.jsonl").read_text().splitlines()) == 40  # nothing replayed
