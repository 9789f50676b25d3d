package hexaround.game.player;

/** The two players; BLUE acts first. */
public enum PlayerName {
    BLUE, RED;

    public PlayerName other() {
        return this == BLUE ? RED : BLUE;
    }
}
