package hexaround.game;

import hexaround.game.creature.CreatureName;
import hexaround.game.move.MoveResponse;

/** The game as its clients (the course's tests) see it. */
public interface IHexAroundGameManager {
    MoveResponse placeCreature(CreatureName creature, int x, int y);

    MoveResponse moveCreature(CreatureName creature, int fromX, int fromY, int toX, int toY);
}
