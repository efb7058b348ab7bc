"""The game's definitions, the lowest layer: roles and camps, rule sets and compositions,
the requests a player may make, the errors, and the declaration of tunable parameters.

Nothing here plays a game or knows an agent; every other layer may import it.
"""
