package hexaround.config;

import java.util.Collection;

/** Everything a configuration file says. */
public record GameConfiguration(Collection<CreatureDefinition> creatures, Collection<PlayerConfiguration> players) {
}
