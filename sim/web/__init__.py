"""The page for hosts (`mafia-sim serve`, the extra `mafia-sim[web]`): pick a table and see
who wins, compare two tables, host a game turn by turn with its newspaper, the odds from a
position. A thin layer over the functions the command line uses (sim.web.app)."""
