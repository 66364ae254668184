"""Front: a modern combined-arms tactical game (seed text 003). Work in progress (issue 9):
the data tables are here; the engine and the ruleset's registration come next."""
