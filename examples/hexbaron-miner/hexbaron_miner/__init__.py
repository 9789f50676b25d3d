"""hexbaron-miner: a worked example of extending Hex Baron from another plugin."""
