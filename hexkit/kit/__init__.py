"""The state kit a game's State is built from: the undo journal, turns, events, gestures,
board views, pieces, action spaces and observations, and the engine-backed state kit."""
