package hexaround.config;

import hexaround.game.creature.CreatureName;
import hexaround.game.creature.CreatureProperty;

import java.util.Set;

/** One creature type: its name, how far it moves and its properties. */
public record CreatureDefinition(CreatureName name, int maxDistance, Set<CreatureProperty> properties) {
    public boolean has(CreatureProperty property) {
        return properties.contains(property);
    }
}
