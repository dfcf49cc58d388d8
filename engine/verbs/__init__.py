"""The verbs of the card language, one `Verb` entry each (docs/engine.md, "Adding a verb").

`VERBS` is the registry every part reads: `engine.language` parses with it, `engine.wording`
writes effects back with it, `engine.effects.resolve` carries effects out with it, and the
agents value them with it (`engine.agents.values`). Read it as `verbs.VERBS` (module attribute)
so that a test may put a registry with one more verb in its place.
"""

from __future__ import annotations

from engine.verbs import board, player, states
from engine.verbs.entry import Appraiser, Registry, Verb

VERBS = Registry((*board.VERBS, *player.VERBS, *states.VERBS))
"""Every verb by its canonical name (the `Effect.verb` it parses to)."""

__all__ = ["VERBS", "Appraiser", "Registry", "Verb"]
