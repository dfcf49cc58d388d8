"""`workbench check`, the referee: real games stored, one kind of violation planted in a copy of
the store at a time, and the referee must name it with the right rule id at the right place;
a clean run passes with exit 0; bad arguments exit 2 without writing anything.

The tests carry no `@rules(...)`: they test the referee, not the engine's rules, and must not
count as rule coverage (tests/rules_coverage.py); the rule ids are in the assertions.
"""

from __future__ import annotations

import shutil
from collections import Counter
from collections.abc import Callable, Iterator, Sequence
from pathlib import Path

import duckdb
import pytest

from app.cli import main
from engine.board import TYRANT
from engine.cards import Card
from engine.game import Game
from engine.markers import Marker
from engine.vocab import EventKind
from tests.builder import (
    IDLE,
    CardType,
    Cost,
    FreeAction,
    Keywords,
    Position,
    Protection,
    TieBreak,
    Trigger,
    Victory,
    VictoryKind,
    act,
    artifact,
    eff,
    equipment,
    intention,
    play_out,
    potion,
    spell,
    tgt,
    unit,
)
from tests.builder import board as ascii_board
from workbench.check.core import Events, GameInfo, Violation
from workbench.check.geometry import Grid, distance, in_range
from workbench.check.run import Report, check_store, walk

CLEAN, VIP, CAPTURE, RANDOM = 1, 2, 3, 4
"""The fixture's runs: gold-rush (no departure of today's engine shows in its games),
kings-crossing (a VIP board), three-hills (capture points), and gold-rush with random agents
(who also take fast actions in the buy and discard steps, R21.24)."""


@pytest.fixture(scope="module")
def store(tmp_path_factory: pytest.TempPathFactory) -> Path:
    db = tmp_path_factory.mktemp("check") / "runs.duckdb"
    runs = [(b, "heuristic") for b in ("gold-rush", "kings-crossing", "three-hills")]
    for board, agents in [*runs, ("gold-rush", "random")]:
        assert (
            main(
                [
                    "simulate",
                    "--games",
                    "4",
                    "--agents",
                    agents,
                    "--board",
                    board,
                    "--seed",
                    "3",
                    "--workers",
                    "1",
                    "--db",
                    str(db),
                ]
            )
            == 0
        )
    return db


@pytest.fixture()
def copy(store: Path, tmp_path: Path) -> Path:
    return Path(shutil.copy(store, tmp_path / "edited.duckdb"))


@pytest.fixture(scope="module")
def baseline(store: Path) -> Report:
    return check_store(store)


def planted(baseline: Report, edited: Path) -> Counter[tuple[int, int, str]]:
    """The violations the edit added: (game, turn, rule) -> how many more than before."""

    def key(r: Report) -> Counter[tuple[int, int, str]]:
        return Counter((v.game_id, v.turn, v.rule) for v in r.violations)

    return key(check_store(edited)) - key(baseline)


@pytest.fixture()
def edit(copy: Path) -> Iterator[duckdb.DuckDBPyConnection]:
    con = duckdb.connect(str(copy))
    yield con
    con.close()


def one(con: duckdb.DuckDBPyConnection, sql: str, *params: object) -> tuple[object, ...]:
    row = con.execute(sql, list(params)).fetchone()
    assert row is not None, f"the fixture's games have no row for {sql}"
    return tuple(row)


def game_of(run: int, index: int = 0) -> int:
    return run * 1_000_000_000 + index


# --- the referee's own reading of R10 ------------------------------------------------------------


def test_own_range_formula_worked_examples() -> None:
    """R10.1 with R21.17: |x| > |y| -> |x| + floor(|y|/2), else |y| + floor(|x|/2)."""
    assert distance(3, 0) == distance(-3, 0) == 3
    assert distance(2, 1) == 2 and distance(1, 2) == 2
    assert distance(2, 2) == 3 and distance(1, 1) == 1 and distance(4, -3) == 5
    assert in_range(-1, 1, 1) and not in_range(2, 2, 2)


def test_own_movement_cost_every_second_diagonal_two() -> None:
    """R10.3: the move's diagonal steps cost 1, 2, 1, 2 ...; a jump is no step (R10.2)."""
    grid = Grid(9, 9)
    diagonal = [grid.field(k, k) for k in range(1, 5)]
    assert grid.path_cost(grid.field(0, 0), diagonal) == 1 + 2 + 1 + 2
    assert grid.path_cost(grid.field(0, 0), [grid.field(2, 0)]) is None
    assert grid.cheapest(grid.field(0, 0), grid.field(2, 2), lambda f: True, 3) == 3
    assert grid.cheapest(grid.field(0, 0), grid.field(2, 2), lambda f: True, 2) is None


# --- a clean run, and the events the referee needs -----------------------------------------------


def test_clean_run_has_no_violations_and_exits_0(
    store: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    report = check_store(store, CLEAN)
    assert report.games == 4 and report.events > 1000 and report.violations == []
    assert main(["check", "--db", str(store), "--run", str(CLEAN)]) == 0
    out = capsys.readouterr().out
    assert "checked 4 games" in out and "0 violations" in out


def test_events_tell_copies_of_a_card_apart(store: Path) -> None:
    """Two Militia of one seat are two permanents: the events name each by its id."""
    con = duckdb.connect(str(store), read_only=True)
    ids = con.execute(
        "SELECT count(DISTINCT card_id) FROM events WHERE game_id = ? AND "
        "kind = 'enter' AND card = 'Militia'",
        [game_of(VIP)],
    ).fetchone()
    con.close()
    assert ids is not None and ids[0] >= 2


# --- one planted violation at a time -------------------------------------------------------------


def test_planted_second_buy_in_a_turn(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R7.2: a buy of a later turn moved into a turn that already has one."""
    gid = game_of(VIP)
    first, second = edit.execute(
        "SELECT turn, seq FROM events WHERE game_id = ? AND kind = 'buy' ORDER BY seq LIMIT 2",
        [gid],
    ).fetchall()
    edit.execute(
        "UPDATE events SET turn = ? WHERE game_id = ? AND seq = ?", [first[0], gid, second[1]]
    )
    edit.close()
    assert planted(baseline, copy) == {(gid, first[0], "R7.2"): 1}


def test_planted_attack_out_of_range(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R12.10: the attack is made to name the enemy's Commander, still in its corner."""
    gid = game_of(VIP)
    seq, turn, seat = one(
        edit,
        "SELECT seq, turn, player FROM events WHERE game_id = ? AND "
        "kind = 'combat' AND target <> 'Commander' ORDER BY seq",
        gid,
    )
    (vip,) = one(
        edit,
        "SELECT card_id FROM events WHERE game_id = ? AND phase = 'draft' AND "
        "kind = 'enter' AND card = 'Commander' AND player <> ?",
        gid,
        seat,
    )
    edit.execute(
        "UPDATE events SET target_id = ?, target = 'Commander' WHERE game_id = ? AND seq = ?",
        [vip, gid, seq],
    )
    edit.close()
    assert (gid, turn, "R12.10") in planted(baseline, copy)


def test_planted_move_beyond_reach(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R10.3: a one-step move rewritten as a walk there, back and there again: cost 3 >
    movement 2 (nothing stands in the way: the fields it walks are the Militia's own ones)."""
    gid = game_of(VIP)
    seq, turn, path = one(
        edit,
        "SELECT seq, turn, detail FROM events WHERE game_id = ? AND kind = 'move' "
        "AND card = 'Militia' AND amount = 1 ORDER BY seq",
        gid,
    )
    (start,) = one(
        edit,
        "SELECT x || ',' || y FROM events WHERE game_id = ? AND seq < ? AND "
        "card_id = (SELECT card_id FROM events WHERE game_id = ? AND seq = ?) "
        "AND kind IN ('enter', 'move') ORDER BY seq DESC",
        gid,
        seq,
        gid,
        seq,
    )
    edit.execute(
        "UPDATE events SET detail = ? WHERE game_id = ? AND seq = ?",
        [f"{path} {start} {path}", gid, seq],
    )
    edit.close()
    added = planted(baseline, copy)
    assert (gid, turn, "R10.3") in added
    assert {rule for _, _, rule in added} == {"R10.3"}


def test_planted_wrong_combat_damage(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R12.7: one more damage than the attack deals, to a unit without armor (and without
    markers: it took the damage)."""
    gid, seq, turn = one(
        edit,
        """
        SELECT d.game_id, d.seq, d.turn FROM events d
        JOIN events c ON c.game_id = d.game_id AND c.seq = d.seq + 1 AND c.kind = 'combat'
        JOIN run_cards k ON k.run_id = ? AND k.name = c.target AND k.armor = 0
        WHERE d.game_id BETWEEN ? AND ? AND d.kind = 'damage' AND d.detail = 'attack'
        ORDER BY d.game_id, d.seq""",
        VIP,
        game_of(VIP),
        game_of(VIP, 3),
    )
    edit.execute("UPDATE events SET amount = amount + 1 WHERE game_id = ? AND seq = ?", [gid, seq])
    edit.close()
    assert (gid, turn, "R12.7") in planted(baseline, copy)


def test_planted_wrong_capture_count(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R19.3: one capture point more than the areas held give."""
    seq, gid, turn = one(
        edit,
        "SELECT seq, game_id, turn FROM events WHERE kind = 'points' "
        "AND detail = 'capture' AND game_id BETWEEN ? AND ? ORDER BY "
        "game_id, seq",
        game_of(CAPTURE),
        game_of(CAPTURE, 3),
    )
    edit.execute("UPDATE events SET amount = amount + 1 WHERE game_id = ? AND seq = ?", [gid, seq])
    edit.close()
    assert (gid, turn, "R19.3") in planted(baseline, copy)


def test_planted_negative_resource(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R18.1: a Supply's gain taken away in a turn that ends at 0 resource: the seat paid with
    resource it did not have."""
    gid, seq, turn = one(
        edit,
        """
        SELECT e.game_id, e.seq, e.turn FROM events e
        JOIN events t ON t.game_id = e.game_id AND t.kind = 'end_turn' AND t.turn = e.turn
        JOIN snapshots s ON s.game_id = e.game_id AND s.player = e.player AND s.round = t.round
        WHERE e.kind = 'gain' AND e.detail = 'effect' AND s.resource = 0
          AND e.game_id BETWEEN ? AND ? ORDER BY e.game_id, e.seq""",
        game_of(CLEAN),
        game_of(CLEAN, 3),
    )
    edit.execute("UPDATE events SET amount = 0 WHERE game_id = ? AND seq = ?", [gid, seq])
    edit.close()
    added = planted(baseline, copy)
    assert (gid, turn, "R18.1") in added
    report = check_store(copy, CLEAN)
    assert any("fell to -1" in v.message for v in report.violations)


def test_planted_gain_of_a_fast_action_in_the_buy_or_discard_step(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R21.24 with R18.1: a random agent's convert in its buy or discard step gains 2 instead
    of 1: the convert's rule (R8.6) and the seat's balance against its snapshot (R18.1) both
    see it; the unedited steps pass (the fixture's baseline)."""
    gid, seq, turn = one(
        edit,
        "SELECT game_id, seq, turn FROM events WHERE kind = 'gain' AND detail = 'discard 2' "
        "AND phase IN ('buy', 'discard') AND game_id BETWEEN ? AND ? ORDER BY game_id, seq",
        game_of(RANDOM),
        game_of(RANDOM, 3),
    )
    edit.execute("UPDATE events SET amount = 2 WHERE game_id = ? AND seq = ?", [gid, seq])
    edit.close()
    added = planted(baseline, copy)
    assert (gid, turn, "R8.6") in added and (gid, turn, "R18.1") in added


def test_planted_broken_resource_balance(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R18.1: a snapshot's resource one more than the seat's events give."""
    gid = game_of(CLEAN, 1)
    (turn,) = one(
        edit,
        "SELECT turn FROM events WHERE game_id = ? AND kind = 'end_turn' AND "
        "round = 3 AND player = 1",
        gid,
    )
    edit.execute(
        "UPDATE snapshots SET resource = resource + 1 WHERE game_id = ? AND "
        "round = 3 AND player = 1",
        [gid],
    )
    edit.close()
    assert planted(baseline, copy) == {(gid, turn, "R18.1"): 1}


def test_planted_wrong_draft_pick_count(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R3.3: a player's last pick left out: 29 cards instead of 30."""
    gid = game_of(CLEAN, 2)
    edit.execute(
        "DELETE FROM picks WHERE game_id = ? AND player = 0 AND pick = "
        "(SELECT max(pick) FROM picks WHERE game_id = ? AND player = 0)",
        [gid, gid],
    )
    edit.close()
    assert planted(baseline, copy) == {(gid, 0, "R3.3"): 1}
    report = check_store(copy, CLEAN)
    assert "seat 1 drafted 29 cards" in report.violations[0].message


def test_planted_unpaid_upkeep_and_the_unit_stays(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R5.3: an upkeep refused, and the unit stays on the board."""
    gid, seq, turn = one(
        edit,
        "SELECT game_id, seq, turn FROM events WHERE kind = 'upkeep' "
        "AND detail = 'paid' AND game_id BETWEEN ? AND ? "
        "ORDER BY game_id, seq",
        game_of(VIP),
        game_of(VIP, 3),
    )
    edit.execute("UPDATE events SET detail = 'refused' WHERE game_id = ? AND seq = ?", [gid, seq])
    edit.close()
    assert planted(baseline, copy) == {(gid, turn, "R5.3"): 1}


def test_planted_win_the_victory_rule_does_not_give(
    baseline: Report, copy: Path, edit: duckdb.DuckDBPyConnection
) -> None:
    """R19.1: the stored result turned around on a VIP board: the seat whose Commander died
    won."""
    gid = game_of(VIP)
    winners, turn = one(
        edit,
        "SELECT g.winners, e.turn FROM games g JOIN events e ON "
        "e.game_id = g.game_id AND e.kind = 'game_over' WHERE "
        "g.game_id = ?",
        gid,
    )
    assert winners in ([0], [1])
    edit.execute("UPDATE games SET winners = ? WHERE game_id = ?", [[1 - winners[0]], gid])  # type: ignore[index]
    edit.close()
    assert planted(baseline, copy) == {(gid, turn, "R19.1"): 1}


# --- the command ---------------------------------------------------------------------------------


def test_cli_prints_violations_with_game_turn_rule_and_exits_1(
    copy: Path, edit: duckdb.DuckDBPyConnection, capsys: pytest.CaptureFixture[str]
) -> None:
    gid = game_of(CLEAN)
    edit.execute(
        "UPDATE snapshots SET resource = resource + 2 WHERE game_id = ? AND round = 1 "
        "AND player = 0",
        [gid],
    )
    edit.close()
    assert main(["check", "--db", str(copy), "--run", str(CLEAN)]) == 1
    out = capsys.readouterr().out.splitlines()
    assert out[0].startswith(f"game {gid} turn 1 event ") and " R18.1 seat 1 ended" in out[0]
    assert "1 violations" in out[1] and out[2].split() == ["R18.1", "1"]


def test_cli_missing_database_exits_2_naming_it_and_creates_nothing(
    tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    missing = tmp_path / "nowhere.duckdb"
    assert main(["check", "--db", str(missing)]) == 2
    assert capsys.readouterr().out == f"cannot check: no database file {missing}\n"
    assert not missing.exists()


def test_cli_unknown_run_and_old_schema_exit_2(
    store: Path, tmp_path: Path, capsys: pytest.CaptureFixture[str]
) -> None:
    assert main(["check", "--db", str(store), "--run", "9"]) == 2
    assert "no run 9" in capsys.readouterr().out
    old = tmp_path / "old.duckdb"
    con = duckdb.connect(str(old))
    con.execute("CREATE TABLE schema_info (key VARCHAR, value VARCHAR)")
    con.execute("INSERT INTO schema_info VALUES ('schema_version', '2')")
    con.close()
    before = old.read_bytes()
    assert main(["check", "--db", str(old)]) == 2
    assert "schema version 2" in capsys.readouterr().out
    assert old.read_bytes() == before


def test_cli_bad_arguments_exit_2(capsys: pytest.CaptureFixture[str]) -> None:
    with pytest.raises(SystemExit) as exc:
        main(["check"])
    assert exc.value.code == 2
    assert "--db" in capsys.readouterr().err


# --- engine games the referee must pass (readings it shares with docs/engine.md) ---------------


class Rows:
    """A game's event columns to plant a violation in: find, change, insert, delete rows."""

    def __init__(self, columns: dict[str, list[object]]) -> None:
        self.columns = columns

    def find(self, **values: object) -> int:
        """The index of the first event with these column values."""
        kind = self.columns["kind"]
        for i in range(len(kind)):
            if all(self.columns[k][i] == v for k, v in values.items()):
                return i
        raise AssertionError(f"no event with {values}")

    def set(self, i: int, **values: object) -> None:
        for k, v in values.items():
            self.columns[k][i] = v

    def insert(self, i: int, like: int, **values: object) -> None:
        """A copy of event `like` with `values` changed, put before event `i`."""
        for k, col in self.columns.items():
            col.insert(i, values.get(k, col[like]))

    def delete(self, i: int) -> None:
        for col in self.columns.values():
            del col[i]


def refereed(
    game: Game,
    cards: Sequence[Card],
    plant: Callable[[Rows], None] | None = None,
    winners: tuple[int, ...] | None = None,
) -> list[Violation]:
    """The referee over a game built with tests/builder.py (its pieces entered by events),
    after `plant` has changed a copy of its events (`Rows`); `winners` replaces the stored
    result (a planted one)."""
    s = game.state
    columns: dict[str, list[object]] = {k: list(v) for k, v in s.events.columns().items()}
    if plant is not None:
        plant(Rows(columns))
    columns["game_id"] = [0] * len(columns["seq"])
    info = GameInfo(
        0,
        s.config.board,
        {c.name.casefold(): c for c in cards},
        s.config.players,
        tuple(s.winners or ()) if winners is None else winners,
        s.guard_stopped,
        0,
    )
    return walk(Events(columns), info, 0, len(columns["seq"]))


def _team_capture(target: int, *points: int) -> tuple[Game, list[Card]]:
    """R21.26: four seats in teams (0, 2) and (1, 3); in area A seat 0 and its teammate seat 2
    have one unit each against one of seat 1, and the seats hold `points`; seat 0's upkeep."""
    soldier = unit("Soldier", life=3)
    b = ascii_board(
        "A A A . . .\n0 1 2 3 . .",
        victory=Victory(VictoryKind.CAPTURE, target=target),
        players=4,
        teams=((0, 2), (1, 3)),
    )
    pos = Position(b, [soldier, IDLE])
    for seat in range(4):
        pos.idle(seat, 4 + seat % 2, 1 - seat // 2)
    for seat in (0, 2, 1):
        pos.put(soldier, seat, {0: 0, 2: 1, 1: 2}[seat], 0)
    for seat, n in enumerate(points):
        if n:  # scored earlier by an effect: an event, so that the referee's table has them
            pos.state.players[seat].points = n
            pos.state.emit(EventKind.POINTS, seat, amount=n, detail="effect")
    return pos.game(phase="start", advance=True), [soldier, IDLE]


def test_referee_teammates_hold_an_area_together() -> None:
    """R21.26, R19.3: seat 0 scores for the area its team holds 2 against 1; a point planted
    on top (the team holds one area, not two) is flagged under R21.26."""
    g, cards = _team_capture(9, 0, 0, 0, 0)
    assert g.state.players[0].points == 1 and refereed(g, cards) == []
    ev = g.state.events
    (i,) = [k for k in range(len(ev)) if ev.kind[k] == EventKind.POINTS]
    ev.amount[i] = 2
    assert [v.rule for v in refereed(g, cards)] == ["R21.26"]


def test_referee_a_team_wins_on_its_total() -> None:
    """R21.26: 2 + 2 points and seat 0's point reach the target 5: the team of seats 0 and 2
    wins together; a stored win for seat 0 alone, or none, is flagged."""
    g, cards = _team_capture(5, 2, 4, 2, 0)
    assert g.is_terminal() and g.state.winners == (0, 2) and refereed(g, cards) == []
    for wrong in ((0,), ()):
        assert [v.rule for v in refereed(g, cards, winners=wrong)] == ["R21.26"]


def test_referee_fast_actions_in_the_buy_and_discard_steps() -> None:
    """R21.24: a spell gaining 1 in the buy step, then discard 2: gain 1 in the discard step;
    the referee accepts both, and flags a convert planted to gain 2 (R8.6). (A builder game
    has no draft, so no store the referee knows of: buying is left out here; the stored random
    games of `test_planted_gain_of_a_fast_action_in_the_buy_or_discard_step` buy.)"""
    supply = spell("Supply", eff("gain", 1), play=0, buy=None)
    pricey = unit("Pricey", play=9)
    cards = [supply, pricey, IDLE]
    pos = Position(ascii_board("0 . . 1", income=0), cards)
    pos.idle(0, 1, 0)
    pos.idle(1, 3, 0)
    sup, _, _ = pos.hand(0, supply, pricey, pricey)
    g = pos.game()
    act(g, "pass")
    act(g, "play", sup)
    assert g.state.phase == "buy"
    act(g, "pass")
    act(g, "convert")
    s = g.state
    assert s.active == 1 and s.players[0].resource == 2 and refereed(g, cards) == []
    ev = s.events
    (i,) = [
        k for k in range(len(ev)) if ev.kind[k] == EventKind.GAIN and ev.detail[k] == "discard 2"
    ]
    assert ev.phase[i] == "discard"
    ev.amount[i] = 2
    assert [v.rule for v in refereed(g, cards)] == ["R8.6"]


def test_referee_a_unit_an_upkeep_trigger_created_owes_upkeep() -> None:
    """R5.2 then R5.3: a unit token an upkeep trigger creates is a unit the player controls when
    the payments are due, so its upkeep is owed; the referee used to fix the units due before
    the triggers resolved and flagged the engine's payment decision (found by the fuzzer)."""
    token = unit("Whelp", upkeep=1, play=None, buy=None)
    hatchery = unit(
        "Hatchery",
        upkeep=0,
        move=0,
        attack=0,
        triggers=(Trigger("upkeep", (eff("create", 1, card="Whelp"),)),),
    )
    pos = Position(ascii_board("0 . . 1", income=2), [token, hatchery, IDLE])
    pos.put(hatchery, 0, 0, 0)
    pos.idle(1, 3, 0)
    g = pos.game(phase="start", advance=True)
    s = g.state
    (whelp,) = [cid for cid, p in s.perms.items() if s.cards[cid].name == "Whelp"]
    assert s.phase == "upkeep_due" and s.upkeep_due == [whelp]
    act(g, "pay", whelp)
    assert refereed(g, [token, hatchery, IDLE]) == []


def test_referee_round_limit_with_all_players_one_side_is_a_draw() -> None:
    """R21.13 with R21.15: on a Tyrant board the players win together, so they are one side
    and a tie-break has nobody to compare them against; the round limit is a draw. The referee
    used to compare the seats and give the one with more units the win."""
    soldier = unit("Soldier", life=3)
    tyrant = unit("Tyrant", life=10, keywords=Keywords(tyrant=True), buy=None)
    b = ascii_board(
        "0 . . 1",
        victory=Victory(VictoryKind.TYRANT, tyrant_goal=3),
        round_limit=1,
        tie_break=TieBreak.UNITS,
    )
    pos = Position(b, [soldier, tyrant])
    pos.put(tyrant, TYRANT, 2, 0, owner=TYRANT)
    pos.put(soldier, 0, 0, 0)
    pos.state.active = 1
    g = pos.game(phase="discard", advance=True)
    assert g.is_terminal() and g.state.winners == ()
    assert refereed(g, [soldier, tyrant]) == []


def test_referee_an_each_effect_acts_on_what_was_in_range_when_it_began() -> None:
    """R6.4 with R10.1: "destroy each unit in range 1" destroys the seat's own unit (the
    spell's nearest origin) and then the enemy next to it: the units in range are fixed when
    the effect begins. The referee used to measure again after each destruction, from the
    permanents left, and flagged the second one (found by the fuzzer)."""
    soldier, relic = unit("Soldier", life=3), artifact("Relic")
    purge = spell("Purge", eff("destroy", 1, tgt("unit", each=True, range_=1)), play=0)
    pos = Position(ascii_board(". . . . . .\n. . . . . ."), [soldier, relic, purge, IDLE])
    mine = pos.put(soldier, 0, 0, 0)
    theirs = pos.put(soldier, 1, 1, 0)
    pos.put(relic, 0, 5, 0)  # the origin left once `mine` is gone
    pos.idle(1, 3, 1)
    p, _ = pos.hand(0, purge, purge)  # the second keeps the action phase open
    g = pos.game()
    act(g, "play", p)
    assert mine not in g.state.perms and theirs not in g.state.perms
    assert g.state.active == 0 and g.state.phase == "main"
    assert refereed(g, [soldier, relic, purge, IDLE]) == []


def test_referee_an_each_effect_measures_a_dropped_equipment_where_it_was_when_it_began() -> None:
    """R6.4 with R10.1, R11.6: the Wave entering at (0, 0) pushes each friendly permanent in
    range 1 of it, the Soldier next to it and the Float the Soldier carries among them. The
    Soldier is pushed into deep water and destroyed; the Float, a swimmer, drops where it died,
    two fields from the Wave, and is then pushed on as one of the effect's matches (onto land,
    where a swimmer is destroyed, R9.5): the matches were fixed when the effect began. The
    referee used to measure the Float from where it dropped (found by the fuzzer, seed 3506
    game 31,639: a unit's "push 3 to each friendly permanent in range 1")."""
    soldier = unit("Soldier", life=3)
    wave = unit(
        "Wave",
        life=3,
        play=0,
        effects=(eff("push", 1, tgt("permanent", "friendly", each=True, range_=1)),),
    )
    float_ = equipment("Float", durability=3, keywords=Keywords(swimming=True))
    cards = [soldier, wave, float_, IDLE]
    pos = Position(ascii_board("0 . ~ . . .\n. . . . . ."), cards)  # (0, 0): seat 0 deploys
    mine = pos.put(soldier, 0, 1, 0)
    fl = pos.stack_on(mine, float_)
    pos.idle(0, 5, 1)
    pos.idle(1, 3, 1)
    (w,) = pos.hand(0, wave)
    pos.deck(0, *[soldier] * 6)  # no shuffle the referee has not seen the cards for (R4.1)
    pos.state.active = 1
    g = pos.game(phase="discard", advance=True)  # seat 0's turn, as the referee sees it begin
    act(g, "play", w, field=pos.f(0, 0))
    s = g.state
    assert mine not in s.perms and fl not in s.perms
    ev = s.events
    seen = list(zip(ev.kind, ev.card_id, strict=True))
    assert seen.index((EventKind.PLACE, fl)) < seen.index((EventKind.PUSH, fl))  # dropped, pushed
    assert refereed(g, cards) == []


def test_referee_a_push_is_measured_where_its_target_stood_when_it_began() -> None:
    """R6.4 with R10.1, R14.1: "push 3 to target friendly unit in range 1" names the seat's
    own unit (range 0 from itself) and pushes it three steps; the range is the target's, met
    when the push began. The referee used to measure each step again, from the origins as they
    stood then (the pushed unit itself), and flagged the third step (found by the fuzzer)."""
    soldier = unit("Soldier", life=3)
    shove = spell("Shove", eff("push", 3, tgt("unit", "friendly", range_=1)), play=0)
    pos = Position(ascii_board(". . . . . .\n. . . . . ."), [soldier, shove, IDLE])
    mine = pos.put(soldier, 0, 1, 0)
    pos.idle(0, 5, 1)
    pos.idle(1, 0, 1)
    (s,) = pos.hand(0, shove)
    g = pos.game()
    act(g, "play", s, target=mine, field=pos.f(0, 0))
    assert g.state.perms[mine].field == pos.f(4, 0)
    assert refereed(g, [soldier, shove, IDLE]) == []


def test_referee_a_chosen_target_is_measured_where_it_stood_when_the_action_resolved() -> None:
    """R6.4 with R10.1: "push 3 to target enemy unit in range 1, poison 1 to target enemy unit
    in range 1" names a unit next to the seat's relic; the push carries it 4 away and the
    poison still reaches it: the target was announced with the action and in range when the
    action resolved, and the action's effects are carried out at once. The referee used to
    measure the poison from where the push had left the unit (found by the fuzzer: an
    equipment's "push 2 to each friendly permanent, poison 2 to target unit in range 3")."""
    soldier, relic = unit("Soldier", life=3), artifact("Relic")
    sting = spell(
        "Sting",
        eff("push", 3, tgt("unit", "enemy", range_=1)),
        eff("poison", 1, tgt("unit", "enemy", range_=1)),
        play=0,
    )
    pos = Position(ascii_board(". . . . . .\n. . . . . ."), [soldier, relic, sting, IDLE])
    pos.put(relic, 0, 0, 0)
    theirs = pos.put(soldier, 1, 1, 0)
    pos.idle(1, 0, 1)
    (s,) = pos.hand(0, sting)
    g = pos.game()
    act(g, "play", s, target=theirs, field=pos.f(0, 0))
    p = g.state.perms[theirs]
    assert p.field == pos.f(4, 0) and p.markers[Marker.POISON] == 1
    assert refereed(g, [soldier, relic, sting, IDLE]) == []


def test_referee_a_chosen_target_keeps_the_origins_of_when_the_action_resolved() -> None:
    """R6.4 with R10.1: "destroy each artifact, poison 1 to target enemy unit in range 1" (a
    spell: its ranges count from its controller's permanents) destroys the relic next to the
    target first; the target, in range when the action resolved, is still poisoned. The
    referee used to measure the poison from the permanents left after the destruction (found
    by the fuzzer: "destroy each equipment, push 2 to target enemy artifact in range 4")."""
    soldier, relic = unit("Soldier", life=3), artifact("Relic")
    blight = spell(
        "Blight",
        eff("destroy", 1, tgt("artifact", each=True)),
        eff("poison", 1, tgt("unit", "enemy", range_=1)),
        play=0,
    )
    pos = Position(ascii_board(". . . . . .\n. . . . . ."), [soldier, relic, blight, IDLE])
    r = pos.put(relic, 0, 0, 0)
    theirs = pos.put(soldier, 1, 1, 0)
    pos.idle(0, 5, 1)  # seat 0's permanent left: 4 away
    pos.idle(1, 0, 1)
    (b,) = pos.hand(0, blight)
    g = pos.game()
    act(g, "play", b, target=theirs)
    assert r not in g.state.perms and g.state.perms[theirs].markers[Marker.POISON] == 1
    assert refereed(g, [soldier, relic, blight, IDLE]) == []


def test_referee_a_trigger_waiting_for_its_target_is_announced_after_one_that_was_not() -> None:
    """R6.1, R6.9: an attack that kills sets off "when this attacks" and "when this kills";
    the first asks its controller for a target, the second has one and goes on the stack at
    once, so the first is announced second (and resolves first). The referee used to take
    the announcements in the order the triggers fired and measured the first's protection
    (no range) by the second's "in range 0" (found by the fuzzer)."""
    brute = unit(
        "Brute",
        life=5,
        attack=5,
        triggers=(
            Trigger("attacks", (eff("protect", 1, tgt("unit", "friendly")),)),
            Trigger("kills", (eff("protect", 1, tgt("unit", "friendly", range_=0)),)),
        ),
    )
    soldier = unit("Soldier", life=1, attack=0)
    pos = Position(ascii_board(". . . . . .\n. . . . . ."), [brute, soldier, IDLE])
    b = pos.put(brute, 0, 0, 0)
    e = pos.put(soldier, 1, 1, 0)
    ally = pos.idle(0, 5, 1)
    pos.idle(1, 0, 1)
    g = pos.game(phase="start", advance=True)  # the turn's events: seat 0 is active
    act(g, "activate", b)
    act(g, "attack", b, e)
    act(g, "target", b, ally, index=0)
    assert e not in g.state.perms
    assert [pos.perm(c).markers[Marker.PROTECTION] for c in (b, ally)] == [1, 1]
    assert refereed(g, [brute, soldier, IDLE]) == []


def test_referee_two_triggers_waiting_for_targets_are_announced_in_the_order_they_fired() -> None:
    """R6.1, R6.9: an attack that kills sets off "when this attacks" and "when this kills", and
    both ask their controller for a target, so both are announced in the order they fired (the
    first resolves last). The second's announcement follows its trigger event directly, and the
    referee used to read it as announced at once, pair it with the first and measure the
    second's rage ("in range 3") by the first's "in range 1" (found by the fuzzer, game 31792
    of seed 2035)."""
    brute = unit(
        "Brute",
        life=5,
        attack=5,
        triggers=(
            Trigger("attacks", (eff("rage", 2, tgt("unit", "friendly", range_=1)),)),
            Trigger("kills", (eff("rage", 1, tgt("unit", range_=3)),)),
        ),
    )
    soldier = unit("Soldier", life=1, attack=0)
    pos = Position(ascii_board(". . . . . .\n. . . . . .\n. . . . . ."), [brute, soldier, IDLE])
    b = pos.put(brute, 0, 0, 0)
    e = pos.put(soldier, 1, 1, 0)
    near = pos.idle(0, 0, 1)
    pos.idle(0, 1, 1)
    far = pos.idle(1, 3, 0)  # 3 from the Brute: only the kill reaches it
    g = pos.game(phase="start", advance=True)  # the turn's events: seat 0 is active
    act(g, "activate", b)
    act(g, "attack", b, e)
    assert e not in g.state.perms and len(g.state.pending) == 2
    act(g, "target", b, near, index=0, respond=True)
    act(g, "target", b, far, index=1)
    assert (pos.perm(near).markers[Marker.RAGE], pos.perm(far).markers[Marker.RAGE]) == (2, 1)
    assert refereed(g, [brute, soldier, IDLE]) == []


def test_referee_a_move_whose_unit_was_pushed_off_its_start_may_fizzle() -> None:
    """R6.4: an action is announced as the concrete action to carry out ("die konkrete
    auszuführende Aktion"), and a move is steps from the field it was announced from (R10.3).
    Pushed away in response, the unit no longer stands there; the move fizzles even though the
    destination is still in reach from the new field. The referee used to call that refusal a
    departure (found by the fuzzer)."""
    soldier = unit("Soldier", life=3, move=2)
    wave = spell("Wave", eff("push", 1, tgt("unit", "enemy")), play=0)
    pos = Position(ascii_board(". . . . .\n. . . . .\n. . . . ."), [wave, soldier, IDLE])
    u = pos.put(soldier, 0, 1, 1)
    pos.idle(0, 4, 0)
    pos.idle(1, 4, 2)
    (w,) = pos.hand(1, wave)
    g = pos.game(phase="start", advance=True)  # the turn's events: seat 0 is active
    act(g, "activate", u)
    act(g, "move", u, field=pos.f(3, 1), respond=True)
    act(g, "play", w, target=u, field=pos.f(1, 0), respond=True)
    play_out(g)
    assert g.state.perms[u].field == pos.f(1, 2)  # (3,1) is 2 from here: in reach
    assert refereed(g, [wave, soldier, IDLE]) == []


def test_referee_a_move_onto_a_crew_unit_of_another_player_fizzles() -> None:
    """R12.9 as docs/engine.md reads it: a crew unit takes units of its own controller only.
    A unit announces a move onto a free field; in response another player creates a crew unit
    there, and the move fizzles (R6.4). The referee used to count the other player's crew unit
    as room for the rider and called the refusal a departure (found by the fuzzer, game 74828
    of seed 2037)."""
    wagon = unit("Wagon", life=3, move=0, attack=0, play=None, buy=None, keywords=Keywords(crew=1))
    muster = spell("Muster", eff("create", 1, card="Wagon"), play=0)
    soldier = unit("Soldier", life=3, move=2)
    pos = Position(ascii_board("0 1 . .\n. . . ."), [wagon, muster, soldier, IDLE])
    u = pos.put(soldier, 0, 0, 0)
    pos.idle(0, 0, 1)
    pos.idle(1, 3, 1)
    (m,) = pos.hand(1, muster)
    g = pos.game(phase="start", advance=True)  # the turn's events: seat 0 is active
    act(g, "activate", u)
    act(g, "move", u, field=pos.f(1, 0), respond=True)
    act(g, "play", m, respond=True)
    play_out(g)
    s = g.state
    (w,) = [c for c, p in s.perms.items() if s.cards[c].name == "Wagon"]
    assert s.perms[w].field == pos.f(1, 0) and s.perms[u].field == pos.f(0, 0)
    assert refereed(g, [wagon, muster, soldier, IDLE]) == []


def test_referee_a_tyrant_intention_whose_marker_left_in_response_fizzles() -> None:
    """R21.19 with R6.4, R17.4: the Tyrant starts its turn next to its marker and takes the
    full action of R17.3; in response a player destroys the marked unit, the marker leaves with
    it and the full action fizzles. The Tyrant did carry the intention out as far as the rules
    let it; the referee used to flag it for not doing so (found by the fuzzer)."""
    big = unit("Big", life=3, attack=0)
    tyrant = unit("Tyrant", life=10, move=2, attack=3, keywords=Keywords(tyrant=True), buy=None)
    devour = intention("Devour", eff("damage", 4, tgt("unit", "enemy")))
    kill = spell("Kill", eff("destroy", 1, tgt("unit", "friendly")), play=0)
    b = ascii_board(". . . . .\n. . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=5))
    pos = Position(b, [big, tyrant, devour, kill, IDLE])
    t = pos.put(tyrant, TYRANT, 1, 0, owner=TYRANT)
    m = pos.put(big, 0, 2, 0)
    pos.idle(0, 4, 1)
    (k,) = pos.hand(0, kill)
    pos.deck(0, big, big, big)  # no shuffle at seat 0's next turn
    s = pos.state
    d = pos.card(devour, TYRANT)  # played in an earlier turn: its marker on `m`
    s.set_aside.append(d)
    s.marker_card, s.marker_perm = d, m
    s.emit(EventKind.INTENTION, TYRANT, d, m, pos.f(2, 0))
    s.active = 1
    g = pos.game(phase="discard", advance=True)
    top = s.stack[-1]
    assert (top.kind, top.source) == ("intention", t) and s.priority
    act(g, "play", k, target=m)
    assert m not in s.perms and s.intentions_done == 0
    assert refereed(g, [big, tyrant, devour, kill, IDLE]) == []


# --- planted in engine games: the Tyrant and paralysis ----------------------------------------

BEARER = unit(
    "Bearer",
    life=4,
    move=1,
    free_actions=(
        FreeAction(Cost(resource=1), (eff("protect", 1, tgt("unit", "friendly", range_=1)),)),
    ),
)
TONIC = potion("Tonic", free=(FreeAction(Cost(sacrifice=True), (eff("gain", 2),)),))
SOLDIER = unit("Soldier", life=3)
TYRANT_UNIT = unit("Tyrant", life=10, move=2, attack=3, keywords=Keywords(tyrant=True), buy=None)
DEVOUR = intention("Devour", eff("damage", 4, tgt("unit", "enemy")))


def _rules(found: list[Violation]) -> list[str]:
    return sorted({v.rule for v in found})


def _to_round(g: Game, r: int) -> None:
    """Every seat passes (and ends its turns) until round `r` begins."""
    while g.state.round < r and not g.is_terminal():
        g.apply(next(a for a in g.legal_actions() if a.kind in ("pass", "end")))


def _tyrant_game(
    *cards: Card, rounds: int = 1, intention: Card = DEVOUR
) -> tuple[Game, Position, int, int]:
    """The Tyrant next to a Soldier, `intention` (Devour) on top of its deck, played through
    `rounds` rounds from the last seat's discard step: (game, position, the Tyrant, the
    Soldier)."""
    b = ascii_board(". . . . .\n. . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=5))
    pos = Position(b, [SOLDIER, TYRANT_UNIT, intention, IDLE, *cards])
    t = pos.put(TYRANT_UNIT, TYRANT, 0, 0, owner=TYRANT)
    u = pos.put(SOLDIER, 0, 1, 0)
    pos.idle(0, 4, 1)
    pos.deck(0, *[SOLDIER] * 6)  # no shuffle the referee has not seen the cards for (R4.1)
    pos.state.tyrant_deck.append(pos.card(intention, TYRANT))
    pos.state.active = 1
    g = pos.game(phase="discard", advance=True)
    _to_round(g, 1 + rounds)
    return g, pos, t, u


@pytest.mark.parametrize("source", ["own", "potion"])
def test_planted_a_paralysed_units_free_action(source: str) -> None:
    """R21.22: a paralysis marker planted on a unit just before it takes its own free action
    (a Shieldbearer's protection), or before its equipped potion's."""
    cards = [BEARER, SOLDIER, TONIC, IDLE]
    pos = Position(ascii_board("0 . . 1"), cards).resource(0, 1)
    b = pos.put(BEARER, 0, 0, 0)
    a = pos.put(SOLDIER, 0, 1, 0)
    pos.idle(1, 3, 0)
    g = pos.game()
    if source == "own":
        act(g, "free", b, target=a, index=0)
        acting = b
    else:
        acting = pos.stack_on(a, TONIC)
        act(g, "free", acting, index=0)
    assert refereed(g, cards) == []

    def plant(rows: Rows) -> None:
        i = rows.find(kind="announce", detail="free", card_id=acting)
        rows.insert(
            i,
            i,
            kind="marker",
            detail=Marker.PARALYSIS.value,
            amount=1,
            card_id=a if source == "potion" else b,
            target_id=-1,
        )

    assert _rules(refereed(g, cards, plant)) == ["R21.22"]


def test_planted_an_intention_on_a_permanent_protected_from_spells() -> None:
    """R21.23: the unit Devour marked is made a Golem with protection from spells (otherwise
    the same): an intention is a spell, its marker cannot go there."""
    golem = unit("Golem", life=3, keywords=Keywords(protections=(Protection(type=CardType.SPELL),)))
    g, _, _, u = _tyrant_game(golem)
    cards = [SOLDIER, TYRANT_UNIT, DEVOUR, IDLE, golem]
    assert g.state.marker_perm == u and refereed(g, cards) == []

    def plant(rows: Rows) -> None:
        rows.set(rows.find(kind="enter", card_id=u), card="Golem")

    assert _rules(refereed(g, cards, plant)) == ["R21.23"]


def test_planted_an_intention_carried_out_in_the_turn_it_was_played() -> None:
    """R21.19: Devour, played in round 1's Tyrant turn and carried out in round 2's, is shown
    played in round 2's: carried out at once."""
    g, _, _, u = _tyrant_game(rounds=2)
    cards = [SOLDIER, TYRANT_UNIT, DEVOUR, IDLE]
    assert u not in g.state.perms and g.state.intentions_done == 1
    assert refereed(g, cards) == []

    def plant(rows: Rows) -> None:
        done = rows.find(kind="marker", detail="intention carried out")
        played = rows.find(kind="intention")
        rows.set(played, turn=rows.columns["turn"][done], round=rows.columns["round"][done])

    assert _rules(refereed(g, cards, plant)) == ["R21.19"]


def test_planted_a_tyrant_turn_that_ignores_its_markers() -> None:
    """R21.25: a player panics the Tyrant; in its turn its unit is activated and runs shy. The
    activation and the panic marker it removed are deleted from the events: the Tyrant's turn
    ignored its marker."""
    dread = spell("Dread", eff("panic", 1, tgt("unit", "enemy")), play=0)
    cards = [SOLDIER, TYRANT_UNIT, IDLE, dread]
    b = ascii_board(". . . . .\n. . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=5))
    pos = Position(b, cards)
    t = pos.put(TYRANT_UNIT, TYRANT, 2, 0, owner=TYRANT)
    pos.put(SOLDIER, 0, 1, 0)
    pos.idle(0, 4, 1)
    (d,) = pos.hand(0, dread)
    pos.deck(0, *[SOLDIER] * 3)  # no shuffle the referee has not seen the cards for (R4.1)
    g = pos.game()
    act(g, "play", d, target=t)
    _to_round(g, 2)
    assert g.state.perms[t].markers[Marker.PANIC] == 0
    assert refereed(g, cards) == []

    def plant(rows: Rows) -> None:
        rows.delete(rows.find(kind="activate", card_id=t))
        rows.delete(rows.find(kind="marker", card_id=t, detail=Marker.PANIC.value, amount=-1))

    assert _rules(refereed(g, cards, plant)) == ["R21.25"]


def test_referee_a_tyrant_poisoned_to_death_at_its_activation_owes_no_intention() -> None:
    """R21.25 with R13.2 and R21.19: the Tyrant starts its turn next to its marker, and its
    activation's poison marker defeats it before it acts: the players win, and the intention
    it was due to carry out is no violation (the referee used to flag it, found on 60 random
    games with all four sets)."""
    b = ascii_board(". . . . .\n. . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=5))
    cards = [SOLDIER, TYRANT_UNIT, DEVOUR, IDLE]
    pos = Position(b, cards)
    t = pos.put(TYRANT_UNIT, TYRANT, 0, 0, owner=TYRANT)
    m = pos.put(SOLDIER, 0, 1, 0)
    pos.idle(0, 4, 1)
    pos.deck(0, *[SOLDIER] * 6)
    s = pos.state
    d = pos.card(DEVOUR, TYRANT)  # played in an earlier turn: its marker on `m`
    s.set_aside.append(d)
    s.marker_card, s.marker_perm = d, m
    s.emit(EventKind.INTENTION, TYRANT, d, m, pos.f(1, 0))
    s.emit(EventKind.MARKER, TYRANT, t, amount=10, detail=Marker.POISON)
    s.perms[t].markers[Marker.POISON] = 10
    s.active = 1
    g = pos.game(phase="discard", advance=True)
    assert g.is_terminal() and t not in s.perms and g.returns() == [1.0, 1.0]
    assert refereed(g, cards) == []


def test_referee_an_intentions_chosen_target_is_measured_when_it_is_carried_out() -> None:
    """R6.4 with R10.1, R17.3: the intention's target is the unit its marker is on, announced
    with the Tyrant's full action; "push 3 to target enemy unit in range 1, poison 1 to target
    enemy unit in range 1" pushes the marked Soldier 3 away from the Tyrant and still poisons
    it, as a player's action does: the target was in range when the action resolved, its
    effects are carried out at once. The referee used to measure the poison from where the
    push had left the unit, as if an intention had no chosen target (found by the fuzzer,
    seed 3505 game 19,410: "push 1 to each enemy permanent in range 5, rage 2 to target enemy
    unit in range 2")."""
    shove = intention(
        "Shove",
        eff("push", 3, tgt("unit", "enemy", range_=1)),
        eff("poison", 1, tgt("unit", "enemy", range_=1)),
    )
    # played in round 1's Tyrant turn, carried out in round 2's
    g, pos, t, u = _tyrant_game(rounds=2, intention=shove)
    s = g.state
    assert s.intentions_done == 1 and t in s.perms and u in s.perms
    p = s.perms[u]
    assert p.field == pos.f(4, 0) and p.markers[Marker.POISON] == 1
    assert refereed(g, [SOLDIER, TYRANT_UNIT, shove, IDLE]) == []


def test_referee_an_intentions_range_counts_from_every_permanent_of_the_tyrants_side() -> None:
    """R17.1, R21.23 with R10.1: an intention is a spell, its effect the intention's and not
    the Tyrant unit's, so "poison 1 to each enemy unit in range 1" counts from every permanent
    of the Tyrant's side: it reaches the Soldier next to the Tyrant's Relic, 5 from the Tyrant,
    and not the unit 2 from both. The referee used to measure from the Tyrant's unit, which
    carries the intention out, and flagged it (found by the fuzzer, 100,000 games of seed 3503:
    poison, panic and rage intentions)."""
    soldier, relic = unit("Soldier", life=3), artifact("Relic")
    miasma = intention("Miasma", eff("poison", 1, tgt("unit", "enemy", each=True, range_=1)))
    cards = [soldier, relic, TYRANT_UNIT, miasma, IDLE]
    b = ascii_board(". . . . . .\n. . . . . .", victory=Victory(VictoryKind.TYRANT, tyrant_goal=5))
    pos = Position(b, cards)
    t = pos.put(TYRANT_UNIT, TYRANT, 0, 0, owner=TYRANT)
    pos.put(relic, TYRANT, 5, 0, owner=TYRANT)
    far = pos.put(soldier, 0, 5, 1)
    near = pos.idle(0, 2, 1)
    pos.deck(0, *[soldier] * 6)  # no shuffle the referee has not seen the cards for (R4.1)
    s = pos.state
    s.tyrant_deck.append(pos.card(miasma, TYRANT))  # no target: its marker at the Tyrant
    s.active = 1
    g = pos.game(phase="discard", advance=True)
    _to_round(g, 3)  # played in round 1's Tyrant turn, carried out in round 2's
    assert s.intentions_done == 1 and t in s.perms
    assert [s.perms[c].markers[Marker.POISON] for c in (far, near)] == [1, 0]
    assert refereed(g, cards) == []
