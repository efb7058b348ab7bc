"""Players' policies. An agent receives its player's view and a generator and returns a
request; it never touches the game. See `agents.base.Agent` and the README."""

import sim  # noqa: F401  (first: it decides between the compiled and the pure build)
from agents.base import Agent, AgentSet, load_agent, resolve_agent_set

__all__ = ["Agent", "AgentSet", "load_agent", "resolve_agent_set"]
