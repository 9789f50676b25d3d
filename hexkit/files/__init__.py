"""Files hexkit reads and writes: bounded YAML and JSON readers, atomic writes, saved-game
records and their locks, the paths a file may name, game variants, per-user folders."""
