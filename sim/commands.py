"""Commands beyond `resolve`: added to the parser by `add_commands`."""

from __future__ import annotations

import argparse


def add_commands(sub: argparse._SubParsersAction) -> None:  # type: ignore[type-arg]
    """Register the simulation commands (run, replay, ...)."""
