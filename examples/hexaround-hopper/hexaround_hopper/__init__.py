"""hexaround-hopper: a HexAround extension that adds the LEAPING ability (see plugin.py)."""
