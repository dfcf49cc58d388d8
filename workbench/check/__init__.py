"""The referee (`workbench check`): a second, independent reading of the rules that re-checks
stored games from their events alone (docs/check.md).

One module per rule group -- `draft`, `turn`, `resource`, `movement`, `ranges`, `combat`,
`markers`, `capture`, `victory` -- each with hooks on event kinds; `table` follows the game,
`core` walks it, `run` checks a whole store. Nothing here calls the engine's rule code: card
and board definitions are read as data, every rule is implemented again.
"""
