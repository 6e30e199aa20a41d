"""Benchmarks: ``python -m bench.engine`` times the rules engines (no Django needed)."""
