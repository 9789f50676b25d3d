"""Hive (Gen42 Games) with the Mosquito, Ladybug and Pillbug, as a hexkit plugin built on
HexAround's engine. ``hexkit.load_game("hive", expansions="MLP")``; notation: UHP."""
