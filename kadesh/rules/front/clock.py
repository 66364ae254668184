"""Hours and seasons advance with the turns (rule 15)."""

from __future__ import annotations

from kadesh.rules.front.data import TIME
from kadesh.rules.front.state import State

HOURS, SEASONS = TIME["hours"], TIME["seasons"]


def advance(state: State) -> bool:
    """One turn of the clock: the next hour, and after ``days_per_season`` days the next season.
    Returns True when the season changed."""
    if state.hour_index < 0:  # a scenario names its starting hour; two turns of the day are night
        state.hour_index = HOURS.index(state.hour)
    state.hour_index = (state.hour_index + 1) % len(HOURS)
    state.hour = HOURS[state.hour_index]
    state.day_turn += 1
    if state.day_turn < state.days_per_season * len(HOURS):
        return False
    state.day_turn = 0
    state.season = SEASONS[(SEASONS.index(state.season) + 1) % len(SEASONS)]
    return True
