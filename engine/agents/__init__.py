"""Agents: anything with `act(game, legal, rng) -> Action`, seeded per seat from the game seed."""
