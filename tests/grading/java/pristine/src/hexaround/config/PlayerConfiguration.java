package hexaround.config;

import hexaround.game.creature.CreatureName;
import hexaround.game.player.PlayerName;

import java.util.Map;

/** How many creatures of each type a player starts with. */
public record PlayerConfiguration(PlayerName player, Map<CreatureName, Integer> creatures) {
}
