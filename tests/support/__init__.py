"""Helpers the test modules share (never tests themselves)."""
