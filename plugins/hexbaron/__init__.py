"""Hex Baron: the AQA A-level 2021 game, as a hexkit plugin."""
