"""Simulation: bot matches in bulk, result statistics and round-robin tournaments."""

from rummy500.sim.runner import GameResult, play_game, run_games
from rummy500.sim.stats import summarize, wilson

__all__ = ["GameResult", "play_game", "run_games", "summarize", "wilson"]
