"""Balance analytics over the DuckDB event store (docs/schema.md).

Every module reads tables only, never the engine: a database from any engine version (of the
same schema) can be analysed. Aggregation runs in DuckDB SQL so that 100,000 games fit in memory;
Python only adds confidence intervals and tests to the small aggregated frames. Every function
over runs takes their context, a `runs.Runs`, made once per report or command.
"""
