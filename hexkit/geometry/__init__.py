"""Board geometry: hex coordinates (``hexes``) and the boards a game's cells live on
(``boards``: bounded hex, square and cross)."""
