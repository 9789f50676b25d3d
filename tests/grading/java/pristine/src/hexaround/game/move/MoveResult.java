package hexaround.game.move;

/** What a place or move request did. */
public enum MoveResult {
    OK, MOVE_ERROR, BLUE_WON, RED_WON, DRAW
}
