"""hexconnection: the connection game Hex as a hexkit plugin (the tutorial's example)."""

from hexconnection.rules import HexGame, HexState, Place, Swap

__version__ = "1.0.0"

__all__ = ["HexGame", "HexState", "Place", "Swap", "__version__"]
