"""The game newgame, a hexkit plugin (hexkit loads newgame.plugin through its entry point)."""
