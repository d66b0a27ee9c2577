"""The synthetic case generator (being built)."""
