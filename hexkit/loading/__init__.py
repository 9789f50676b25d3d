"""What plugin loading (:mod:`hexkit.plugins`) stands on: the entry points of installed
distributions, and deadlines for plugin code running in this process."""
