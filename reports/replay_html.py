"""The replay page: one HTML file stepping through a game turn by turn.

Every frame is drawn with matplotlib (terrain colours, permanents in their controller's colour
with their life, arrows for the turn's moves and attacks) and inlined as SVG beside the frame's
actions, events and text picture; resource and victory-point curves cover the whole game. A small
inline script shows one frame at a time and marks `data-frames-loaded` on the body once it has
counted every drawn frame, which is what the headless-browser test reads. The same drawing
writes a single frame as PNG for a report. The frames are plain data built by workbench.play.replay:
the page knows no engine.
"""

from __future__ import annotations

import html
import io
from collections.abc import Sequence
from pathlib import Path

from matplotlib import rc_context
from matplotlib.axes import Axes
from matplotlib.collections import PatchCollection
from matplotlib.colors import to_rgb
from matplotlib.figure import Figure
from matplotlib.patches import Circle, FancyArrowPatch, Patch, Rectangle

from workbench.play.replay import EVENT_HEADER, Arrow, Curve, Frame, Replay, View, readable

TERRAIN_COLOURS = {
    "plain": "#e9e4c9",
    "deep water": "#6b9bd1",
    "high ground": "#b59a6a",
    "blocked": "#4a4a4a",
}
SEAT_COLOURS = ("#c0392b", "#2563eb", "#15803d", "#7e22ce")
OTHER_COLOURS = {"neutral": "#7f7f7f", "tyrant": "#111111"}
CELL_INCHES = 0.55


def seat_colour(owner: str) -> str:
    """The colour of a seat by name: p1, p2... take SEAT_COLOURS in turn; neutral, tyrant."""
    if owner in OTHER_COLOURS:
        return OTHER_COLOURS[owner]
    return SEAT_COLOURS[(int(owner.removeprefix("p")) - 1) % len(SEAT_COLOURS)]


def draw_frame(frame: Frame) -> Figure:
    """The board of one frame as a matplotlib figure (y grows downwards, as in the picture)."""
    board = frame.view
    fig = Figure(figsize=(board.width * CELL_INCHES + 0.4, board.height * CELL_INCHES + 0.7))
    ax = _board_axes(fig, board)
    _draw_zones(ax, board)
    _draw_pieces(ax, board)
    _draw_arrows(ax, frame.arrows)
    fig.suptitle(frame.title, fontsize=9)
    return fig


def _board_axes(fig: Figure, board: View) -> Axes:
    """Axes one unit per cell, numbered along the top like the text picture, filled with the
    terrain and ruled between the cells."""
    ax = fig.add_axes((0.03, 0.02, 0.94, 0.88))
    ax.set_xlim(-0.5, board.width - 0.5)
    ax.set_ylim(board.height - 0.5, -0.5)
    ax.set_aspect("equal")
    ax.set_xticks(range(board.width))
    ax.set_yticks(range(board.height))
    ax.tick_params(length=0, labelsize=7, labeltop=True, labelbottom=False)
    colours = [to_rgb(TERRAIN_COLOURS[t]) for t in board.terrain]
    ax.imshow(
        [colours[y * board.width : (y + 1) * board.width] for y in range(board.height)],
        extent=(-0.5, board.width - 0.5, board.height - 0.5, -0.5),
        interpolation="nearest",
    )
    ax.vlines(
        [x - 0.5 for x in range(board.width + 1)],
        -0.5,
        board.height - 0.5,
        colors="white",
        linewidth=0.5,
    )
    ax.hlines(
        [y - 0.5 for y in range(board.height + 1)],
        -0.5,
        board.width - 0.5,
        colors="white",
        linewidth=0.5,
    )
    return ax


def _draw_zones(ax: Axes, board: View) -> None:
    """Each seat's zone cells outlined in its colour."""
    ax.add_collection(
        PatchCollection(
            [Rectangle((x - 0.45, y - 0.45), 0.9, 0.9) for x, y, _ in board.zones],
            facecolors="none",
            linewidths=1.2,
            edgecolors=[seat_colour(owner) for _, _, owner in board.zones],
        )
    )


def _draw_pieces(ax: Axes, board: View) -> None:
    """Units as circles, other permanents as squares, in their controller's colour, with their
    code, their life and how many cards lie under them."""
    shapes: list[Patch] = []
    fills: list[str] = []
    for p in board.pieces:
        x, y = p.x, p.y
        fills.append(seat_colour(p.owner))
        shapes.append(
            Circle((x, y), 0.36) if p.unit else Rectangle((x - 0.33, y - 0.33), 0.66, 0.66)
        )
        ax.text(
            x,
            y - 0.06,
            p.code,
            ha="center",
            va="center",
            fontsize=7,
            color="white",
            fontweight="bold",
            parse_math=False,
        )  # `$$` is text
        if p.life:
            ax.text(x, y + 0.2, p.life, ha="center", va="center", fontsize=5.5, color="white")
        if p.under:
            ax.text(
                x + 0.38,
                y - 0.36,
                f"+{p.under}",
                ha="center",
                va="center",
                fontsize=6,
                color="black",
            )
    ax.add_collection(
        PatchCollection(shapes, facecolors=fills, edgecolors="white", linewidths=1, zorder=2)
    )


def _draw_arrows(ax: Axes, arrows: Sequence[Arrow]) -> None:
    """The turn's moves in the mover's colour, its attacks dashed in black."""
    for arrow in arrows:
        attack = arrow.kind == "attack"
        ax.add_patch(
            FancyArrowPatch(
                arrow.start,
                arrow.end,
                arrowstyle="-|>",
                mutation_scale=12,
                shrinkA=4,
                shrinkB=12,
                color="#000000" if attack else seat_colour(arrow.owner),
                linewidth=1.6,
                linestyle="--" if attack else "-",
                alpha=0.9,
                zorder=3,
            )
        )


def draw_curves(curves: Sequence[Curve]) -> Figure:
    """Resource and victory points at the end of every turn, per player, over the rounds."""
    fig = Figure(figsize=(7.5, 2.6))
    axes = fig.subplots(1, 2)
    for ax, column in zip(axes, ("resource", "points"), strict=True):
        for curve in curves:
            ax.plot(
                curve.rounds,
                curve.resource if column == "resource" else curve.points,
                color=seat_colour(curve.seat),
                label=curve.seat,
                linewidth=1.5,
            )
        ax.set_title(column, fontsize=9)
        ax.set_xlabel("round", fontsize=8)
        ax.tick_params(labelsize=7)
        ax.grid(alpha=0.3)
    axes[0].legend(fontsize=7)
    fig.tight_layout()
    return fig


def svg_text(fig: Figure) -> str:
    """A figure as an inline <svg> element (text kept as text, no XML prologue)."""
    buffer = io.StringIO()
    with rc_context({"svg.fonttype": "none", "svg.hashsalt": "replay"}):
        fig.savefig(buffer, format="svg", metadata={"Date": None})
    text = buffer.getvalue()
    return text[text.index("<svg") :]


def write_png(frame: Frame, path: Path) -> Path:
    """One frame as a PNG (for a report)."""
    draw_frame(frame).savefig(path, format="png", dpi=150, metadata={"Software": None})
    return path


def page(replay: Replay, heading: str, facts: Sequence[str]) -> str:
    """The whole page as one string."""
    frames = "\n".join(_frame_html(i, f) for i, f in enumerate(replay.frames))
    curves = svg_text(draw_curves(replay.curves))
    items = "".join(f"<li>{html.escape(f)}</li>" for f in facts)
    last = len(replay.frames) - 1
    return f"""<!doctype html>
<html lang="en"><head><meta charset="utf-8"><title>{html.escape(heading)}</title>
<style>{_STYLE}</style></head>
<body data-frames="{len(replay.frames)}">
<h1>{html.escape(heading)}</h1>
<ul class="facts">{items}</ul>
<div class="controls">
<button id="first" type="button">|&lt;</button><button id="prev" type="button">&lt;</button>
<input id="slider" type="range" min="0" max="{last}" value="0">
<button id="next" type="button">&gt;</button><button id="last" type="button">&gt;|</button>
<span id="where"></span> <span class="hint">(arrow keys step)</span>
</div>
<main id="frames">
{frames}
</main>
<section class="curves"><h2>Resource and victory points</h2>{curves}</section>
<script>{_SCRIPT}</script>
</body></html>
"""


def _frame_html(index: int, frame: Frame) -> str:
    actions = "".join(f"<li><code>{html.escape(a)}</code></li>" for a in frame.actions)
    head = "".join(f"<th>{n}</th>" for n in EVENT_HEADER)
    rows = "\n".join(
        "<tr>" + "".join(f"<td>{html.escape(str(v))}</td>" for v in row) + "</tr>"
        for row in map(readable, frame.events)
    )
    title = html.escape(frame.title)
    return f"""<section class="frame" id="frame-{index}" data-title="{title}" hidden>
<div class="board">{svg_text(draw_frame(frame))}</div>
<div class="side">
<h2>{title}</h2>
<details><summary>{len(frame.actions)} action(s)</summary><ol>{actions}</ol></details>
<details open><summary>{len(frame.events)} event(s)</summary>
<table class="events"><thead><tr>{head}</tr></thead><tbody>
{rows}
</tbody></table></details>
<details><summary>text picture</summary><pre>{html.escape(frame.view.picture)}</pre></details>
</div>
</section>"""


_STYLE = """
body { font-family: system-ui, sans-serif; margin: 1em 2em; color: #222; }
h1 { font-size: 1.3em; } h2 { font-size: 1.05em; margin: 0.2em 0; }
.facts { margin: 0 0 0.8em; padding-left: 1.2em; font-size: 0.9em; }
.controls { position: sticky; top: 0; background: #fff; padding: 0.4em 0; z-index: 1; }
.controls input { width: 40%; vertical-align: middle; }
.hint { color: #888; font-size: 0.85em; }
.frame { display: flex; gap: 1.5em; align-items: flex-start; }
.frame[hidden] { display: none; }
.board svg { width: 34em; height: auto; }
.side { flex: 1; min-width: 20em; max-height: 80vh; overflow: auto; font-size: 0.85em; }
table.events { border-collapse: collapse; }
table.events td, table.events th { border-bottom: 1px solid #ddd; padding: 0 0.4em;
  text-align: left; white-space: nowrap; }
pre { font-size: 0.95em; }
.curves svg { width: 50em; height: auto; }
"""

_SCRIPT = """
(function () {
  var frames = document.querySelectorAll('section.frame');
  var slider = document.getElementById('slider');
  var where = document.getElementById('where');
  var current = 0;
  function show(i) {
    current = Math.max(0, Math.min(frames.length - 1, i));
    frames.forEach(function (f, j) { f.hidden = j !== current; });
    slider.value = current;
    where.textContent = 'frame ' + (current + 1) + ' of ' + frames.length + ': ' +
      frames[current].dataset.title;
  }
  document.getElementById('first').onclick = function () { show(0); };
  document.getElementById('prev').onclick = function () { show(current - 1); };
  document.getElementById('next').onclick = function () { show(current + 1); };
  document.getElementById('last').onclick = function () { show(frames.length - 1); };
  slider.oninput = function () { show(parseInt(slider.value, 10)); };
  document.addEventListener('keydown', function (e) {
    if (e.key === 'ArrowLeft') { show(current - 1); }
    if (e.key === 'ArrowRight') { show(current + 1); }
  });
  var drawn = 0;
  frames.forEach(function (f) {
    var svg = f.querySelector('.board svg');
    if (svg && svg.querySelectorAll('path').length > 0) { drawn += 1; }
  });
  show(0);
  document.body.dataset.framesLoaded = String(drawn);
})();
"""
