"""Analyses over xhip IR: buffer liveness, symbolic sizes, memory plans."""
