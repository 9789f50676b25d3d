package hexaround.game.board;

import hexaround.game.creature.CreatureName;
import hexaround.game.player.PlayerName;

/** One creature on the board and its owner. */
public record Piece(CreatureName name, PlayerName owner) {
}
