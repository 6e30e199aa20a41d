"""Every write in games is one of these functions, grouped by subject (lobby, play)."""
