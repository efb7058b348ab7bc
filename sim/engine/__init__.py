"""The rules engine: the true state of one game, legality, the turn in the order of R4,
what each player may see of it (views), and what is published (newspapers, the game log).

Imports only `sim.game`. Agents see this layer through its public face: `sim.engine.view`
(PlayerView, PublicRecord, Statement) and `sim.engine.report` (CheckResult); never the
state (`sim.engine.state`) or the game (`sim.engine.game`).
"""
