"""Shared settings for the bot tests: small search budgets keep them fast."""

from __future__ import annotations

#: Options for the hard bot in tests: a tiny but real search.
HARD_FAST = {"iterations": 6, "candidates": 3, "horizon": 2}

#: Options for the expert bot in tests: its wider choice, a tiny budget.
EXPERT_FAST = {"iterations": 8, "candidates": 5, "horizon": 2}

#: Per level, the test options of the searching levels.
FAST = {"hard": HARD_FAST, "expert": EXPERT_FAST}

#: Rule sets every level must play: every preset, every player count, the variants.
CONFIGS: list[dict[str, object]] = [
    {"preset": "standard"},
    {"preset": "popular"},
    {"preset": "hoyle"},
    {"preset": "boathouse"},
    {"preset": "quick"},
    {"preset": "partnership"},
    {"preset": "persian"},
    {"preset": "dealers_gambit"},
    {"players": 3},
    {"players": 4, "calling_rummy": "top_card"},
    {"players": 5, "meld_out_of_turn": True},
    {"players": 6, "calling_rummy": "steal"},
    {"players": 7, "stock_out": "reshuffle"},
    {"players": 8, "going_out": "floating"},
    {"partnership": True, "players": 4, "layoff_onto": "own_and_partner"},
    {"going_out": "unplayable_discard", "rummy_after_going_out": True, "calling_rummy": "pile"},
    {"discard_count": "match_drawn", "stock_draw_count": 2},
    {"first_meld_min": 30, "layoff_needs_own_meld": True},
    {"joker_swap": True, "stock_out": "play_on"},
    {"taken_card_use": "new_meld", "must_use_taken": "always"},
    {"discard_draw": "top_only", "min_run": 4, "stock_out": "immediate", "discard_back": True},
    {"players": 5, "set_suits": "any", "around_the_corner": True},
]
