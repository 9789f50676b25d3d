"""Tools for plugin authors and course staff: ``hexkit new-plugin`` (scaffold), ``hexkit
check`` (scenario files) and ``hexkit perft`` (move-generation counts)."""
