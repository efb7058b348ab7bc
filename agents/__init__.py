"""Players' policies. An agent receives its player's view and a generator and returns a
request; it never touches the game. See `agents.base.Agent` and the README.

The face a user's agent needs: `Agent` to subclass, `Param` to declare what may be tuned,
`resolve_agent_set` and `load_agent` to plug it in from Python; the requests it returns are
in `sim.game.requests`, the view it reads in `sim.engine.view`."""

import sim  # noqa: F401  (first: it decides between the compiled and the pure build)
from agents.base import Agent, AgentSet
from agents.registry import load_agent, resolve_agent_set
from sim.game.params import Param

__all__ = ["Agent", "AgentSet", "Param", "load_agent", "resolve_agent_set"]
