"""A plain-text picture of a game state, the way python-chess prints a board.

Used by tests (compare against a stored string), in error messages and in the terminal (the human
seat). Pure: reads the state, never changes it. Layout:

- a grid, one 3-character cell per field: the terrain of an empty field (`.` plain, `~` deep
  water, `^` high ground, `#` blocked), or who controls what stands there (seat digit, `n`
  neutral, `T` Tyrant) with a two-letter card code (its second letter `+` when it carries a
  stack);
- a legend of every permanent on a field: id, code and name, controller, field (with its
  terrain unless plain), damage/life, markers, durability, tapped, its stack;
- one line per player: resource, points, hand, deck, discard, store sizes (`*` marks the active
  seat);
- the action stack, top first, the units whose upkeep is due (R5.3) and the pending
  decisions.
"""

from __future__ import annotations

from engine.actions import target_seat
from engine.board import NEUTRAL, TYRANT, Terrain
from engine.choices import Decision, PlaceChoice
from engine.permanents import life
from engine.state import GameState, Perm, StackItem
from engine.vocab import Phase

TERRAIN_GLYPH = {
    Terrain.PLAIN: ".",
    Terrain.DEEP_WATER: "~",
    Terrain.HIGH_GROUND: "^",
    Terrain.BLOCKED: "#",
}


def seat_mark(seat: int) -> str:
    """One character for a controller: `1`-`4`, `n` (neutral) or `T` (the Tyrant)."""
    if seat == NEUTRAL:
        return "n"
    if seat == TYRANT:
        return "T"
    return str(seat + 1)


def seat_name(seat: int) -> str:
    """`p1`..`p4`, `neutral` or `tyrant`."""
    if seat == NEUTRAL:
        return "neutral"
    if seat == TYRANT:
        return "tyrant"
    return f"p{seat + 1}"


def card_code(name: str) -> str:
    """Two letters: the initials of a two-word name, else the first two letters."""
    words = name.split()
    code = words[0][0] + words[1][0] if len(words) > 1 else name[:2]
    return code.ljust(2)


def field_text(state: GameState, field: int) -> str:
    """`x,y` of a field, `-` for none."""
    if field < 0:
        return "-"
    x, y = state.xy(field)
    return f"{x},{y}"


def picture(state: GameState) -> str:
    """The whole state as text (see the module docstring)."""
    lines = [_header(state), *_grid(state), ""]
    top = [state.perms[c] for c in sorted(state.perms) if state.perms[c].under < 0]
    lines.extend(_legend(state, p) for p in top)
    if top:
        lines.append("")
    lines.extend(_player_line(state, seat) for seat in range(len(state.players)))
    lines.append(
        "stack: "
        + (
            "empty"
            if not state.stack
            else " | ".join(_stack_text(state, it) for it in reversed(state.stack))
        )
    )
    if state.phase == Phase.UPKEEP_DUE and state.upkeep_due:
        lines.append(
            "upkeep due: "
            + ", ".join(
                f"{state.name(c)} (c{c}) {state.cards[c].upkeep or 0}" for c in state.upkeep_due
            )
        )
    if state.pending:
        lines.append("pending: " + " | ".join(_decision_text(state, pd) for pd in state.pending))
    return "\n".join(lines)


def _decision_text(state: GameState, pd: Decision) -> str:
    cid = pd.card if isinstance(pd, PlaceChoice) else pd.source
    return f"{pd.kind} {seat_name(pd.player)}" + (
        f" {state.name(cid)} (c{cid})" if cid is not None and cid >= 0 else ""
    )


def _header(state: GameState) -> str:
    board = state.config.board
    head = f"{board.name}  round {state.round}  turn {state.turn}  phase {state.phase}"
    if state.winners is not None:
        won = ", ".join(seat_name(s) for s in state.winners) or "nobody (draw)"
        return f"{head}  over: {won} won ({state.reason})"
    return f"{head}  active {seat_name(state.active)}"


def _grid(state: GameState) -> list[str]:
    board = state.config.board
    rows = [("   " + " ".join(f"{x:^3}" for x in range(board.width))).rstrip()]
    for y in range(board.height):
        cells = []
        for x in range(board.width):
            f = y * board.width + x
            occupant = state.occ[f]
            if occupant < 0:
                cells.append(f" {TERRAIN_GLYPH[board.fields[f].terrain]} ")
                continue
            p = state.perms[occupant]
            code = card_code(state.name(p.cid))
            cells.append(seat_mark(p.controller) + (code if not p.stack else code[0] + "+"))
        rows.append(f"{y:>2} " + " ".join(cells).rstrip())
    return rows


def _legend(state: GameState, p: Perm) -> str:
    name = state.name(p.cid)
    parts = [
        f"c{p.cid}",
        f"{card_code(name)} {name}",
        seat_name(p.controller),
        f"@{field_text(state, p.field)}",
    ]
    if p.field >= 0 and state.config.board.fields[p.field].terrain is not Terrain.PLAIN:
        parts[-1] += " " + TERRAIN_GLYPH[state.config.board.fields[p.field].terrain]
    max_life = life(state, p)
    if max_life or p.damage:
        parts.append(f"dmg {p.damage}/{max_life}")
    parts.extend(f"{m} {n}" for m, n in p.markers.items() if n)
    if p.durability:
        parts.append(f"durability {p.durability}")
    if p.tapped:
        parts.append("tapped")
    if p.stack:
        parts.append("stack: " + ", ".join(f"{state.name(c)} (c{c})" for c in p.stack))
    return "  ".join(parts)


def _player_line(state: GameState, seat: int) -> str:
    pl = state.players[seat]
    mark = "*" if seat == state.active and state.phase != Phase.DRAFT else " "
    return (
        f"{mark}{seat_name(seat)}  resource {pl.resource}  points {pl.points}  "
        f"hand {len(pl.hand)}  deck {len(pl.deck)}  discard {len(pl.discard)}  "
        f"store {len(pl.store)}"
    )


def _stack_text(state: GameState, it: StackItem) -> str:
    what = it.verb or it.kind
    text = f"{seat_name(it.player)} {what}"
    if it.source >= 0:
        text += f" {state.name(it.source)} (c{it.source})"
    seat = target_seat(it.target)
    if seat is not None:
        text += f" -> {seat_name(seat)}"
    elif it.target >= 0:
        text += f" -> {state.name(it.target)} (c{it.target})"
    if it.field >= 0:
        text += f" @{field_text(state, it.field)}"
    return text
