"""hexconnection: the connection game Hex as a hexkit plugin (the tutorial's example)."""

__version__ = "1.0.0"
