"""The workbench: spreadsheets in, simulations into DuckDB, balance reports out."""
