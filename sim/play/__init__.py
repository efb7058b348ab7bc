"""Playing games: the driver that seats agents and asks them each turn, set-up files and
agent sets, one random stream per seat, the runner (many games, in parallel or on Dask)
and `resolve` (a game scripted by a host).

Imports the engine, the game's definitions and the agents; nothing above it.
"""
