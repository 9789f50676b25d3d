"""HexAround: the WPI CS4233 Hive-like game, as a hexkit plugin."""
