"""The game engine of muhq's game: pure rules, no I/O (see RULES.md R1-R21)."""
