"""The application layer: the `workbench` command (`app.cli`) and its sub-commands
(`app.cmd_*`), above the workbench (loading, running, storing, analysing), the reports and the
engine, which never import it (tests/test_layers.py)."""
