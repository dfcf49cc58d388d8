"""The valued agent's buy values (the agent `valued`, engine/agents/valued.py), written by
`workbench train-agent --buying`: do not edit by hand, train again. (Not trained yet.)"""

VALUES: dict[str, dict[str, tuple[float, ...]]] = {}

TAKEN: dict[str, dict[str, int]] = {}

FALLBACK: dict[str, tuple[float, float]] = {}
