"""The game engine of muhq's game: pure rules, no I/O (see RULES.md R1-R21)."""

from engine.compiled import choose

RUNNING = choose()
"""Which engine this process runs: "compiled" or "source" (engine/compiled.py)."""
