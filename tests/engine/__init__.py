"""Tests that prove the standard game (RULES.md Part 1) and the engine's contracts."""
