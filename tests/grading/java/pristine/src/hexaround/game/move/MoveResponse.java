package hexaround.game.move;

/** The answer to a place or move request; the message says why on MOVE_ERROR. */
public record MoveResponse(MoveResult moveResult, String message) {
    public MoveResponse(MoveResult moveResult) {
        this(moveResult, null);
    }
}
