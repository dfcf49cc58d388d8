"""Report generators: HTML reports built from the DuckDB tables."""
