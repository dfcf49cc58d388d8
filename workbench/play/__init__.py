"""Play: agents by spec, a run's games played on local processes (`pool`) or a Ray cluster
(`shards`) and stored (`runner`), a person's seat (`human`) and a stored game rebuilt
(`replay`). Imports content, store and analysis, never a wing above it.
"""
