"""mafia-sim: a rules engine and Monte Carlo balance simulator for PEFL forum Mafia."""

__version__ = "0.1.0"
