"""mafia-sim: a rules engine and Monte Carlo balance simulator for PEFL forum Mafia."""

from sim import _native

__version__ = "0.1.0"

# The compiled build where one is installed and up to date (sim._native), before any of
# its modules is imported.
_native.install()
