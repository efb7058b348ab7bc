"""The command line, `mafia-sim` (`sim.cli.main:main`): one module of sub-commands per
concern, and `serve`, which starts the page of `sim.web`. The top layer: nothing imports it.
"""
