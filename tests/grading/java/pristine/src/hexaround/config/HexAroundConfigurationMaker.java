package hexaround.config;

import hexaround.game.creature.CreatureName;
import hexaround.game.creature.CreatureProperty;
import hexaround.game.player.PlayerName;

import java.io.IOException;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.EnumMap;
import java.util.EnumSet;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Locale;
import java.util.Map;

/**
 * Reads a configuration file in the course's .hgc format: a CREATURES section of
 * definitions such as {@code crab 3 [walking]}, then a PLAYERS section such as
 * {@code BLUE butterfly 1, crab 3}. Block comments may nest.
 */
public class HexAroundConfigurationMaker {
    private final String configurationFile;
    private List<String> tokens;
    private int next;

    public HexAroundConfigurationMaker(String configurationFile) {
        this.configurationFile = configurationFile;
    }

    public GameConfiguration makeConfiguration() throws IOException {
        tokens = tokenize(Files.readString(Path.of(configurationFile), StandardCharsets.UTF_8));
        next = 0;
        expect("CREATURES");
        expect(":");
        Map<CreatureName, CreatureDefinition> creatures = new LinkedHashMap<>();
        while (!peekIs("PLAYERS")) {
            CreatureDefinition definition = creatureDefinition();
            if (creatures.put(definition.name(), definition) != null) {
                throw new ConfigurationException(definition.name() + " is defined twice");
            }
        }
        expect("PLAYERS");
        expect(":");
        Map<PlayerName, PlayerConfiguration> players = new EnumMap<>(PlayerName.class);
        while (next < tokens.size()) {
            PlayerConfiguration player = playerConfiguration(creatures);
            if (players.put(player.player(), player) != null) {
                throw new ConfigurationException(player.player() + " is configured twice");
            }
        }
        if (players.isEmpty()) {
            throw new ConfigurationException("no player is configured");
        }
        for (PlayerName name : PlayerName.values()) {
            if (!players.containsKey(name)) {
                players.put(name, new PlayerConfiguration(name, players.get(name.other()).creatures()));
            }
        }
        return new GameConfiguration(new ArrayList<>(creatures.values()), new ArrayList<>(players.values()));
    }

    private CreatureDefinition creatureDefinition() {
        CreatureName name = creatureName(take());
        int distance = 1;
        if (!peekIs("[")) {
            distance = number(take());
        }
        expect("[");
        EnumSet<CreatureProperty> properties = EnumSet.noneOf(CreatureProperty.class);
        while (!peekIs("]")) {
            String word = take();
            CreatureProperty property;
            try {
                property = CreatureProperty.valueOf(word.toUpperCase(Locale.ROOT));
            } catch (IllegalArgumentException e) {
                throw new ConfigurationException("unknown property " + word);
            }
            if (!properties.add(property)) {
                throw new ConfigurationException("property " + word + " repeated for " + name);
            }
        }
        expect("]");
        if (properties.isEmpty()) {
            throw new ConfigurationException(name + " has no properties");
        }
        return new CreatureDefinition(name, distance, properties);
    }

    private PlayerConfiguration playerConfiguration(Map<CreatureName, CreatureDefinition> creatures) {
        String word = take();
        PlayerName player;
        try {
            player = PlayerName.valueOf(word.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("unknown player " + word);
        }
        Map<CreatureName, Integer> counts = new EnumMap<>(CreatureName.class);
        do {
            CreatureName name = creatureName(take());
            if (!creatures.containsKey(name)) {
                throw new ConfigurationException(player + " lists the undefined creature " + name);
            }
            if (counts.put(name, number(take())) != null) {
                throw new ConfigurationException(player + " lists " + name + " twice");
            }
        } while (acceptComma());
        if (counts.getOrDefault(CreatureName.BUTTERFLY, 0) != 1) {
            throw new ConfigurationException(player + " must have exactly one BUTTERFLY");
        }
        return new PlayerConfiguration(player, counts);
    }

    private boolean acceptComma() {
        if (peekIs(",")) {
            next++;
            return true;
        }
        return false;
    }

    private CreatureName creatureName(String word) {
        try {
            return CreatureName.valueOf(word.toUpperCase(Locale.ROOT));
        } catch (IllegalArgumentException e) {
            throw new ConfigurationException("unknown creature " + word);
        }
    }

    private int number(String word) {
        try {
            return Integer.parseInt(word);
        } catch (NumberFormatException e) {
            throw new ConfigurationException("expected a number, found " + word);
        }
    }

    private boolean peekIs(String token) {
        return next < tokens.size() && tokens.get(next).equalsIgnoreCase(token);
    }

    private String take() {
        if (next >= tokens.size()) {
            throw new ConfigurationException("unexpected end of " + configurationFile);
        }
        return tokens.get(next++);
    }

    private void expect(String token) {
        String word = take();
        if (!word.equalsIgnoreCase(token)) {
            throw new ConfigurationException("expected " + token + ", found " + word);
        }
    }

    private static List<String> tokenize(String text) {
        List<String> out = new ArrayList<>();
        int i = 0;
        int depth = 0;
        while (i < text.length()) {
            if (text.startsWith("/*", i)) {
                depth++;
                i += 2;
            } else if (depth > 0 && text.startsWith("*/", i)) {
                depth--;
                i += 2;
            } else if (depth > 0 || Character.isWhitespace(text.charAt(i))) {
                i++;
            } else if (":[],".indexOf(text.charAt(i)) >= 0) {
                out.add(String.valueOf(text.charAt(i)));
                i++;
            } else {
                int start = i;
                while (i < text.length() && Character.isLetterOrDigit(text.charAt(i))) {
                    i++;
                }
                if (i == start) {
                    throw new ConfigurationException("unexpected character '" + text.charAt(i) + "'");
                }
                out.add(text.substring(start, i));
            }
        }
        return out;
    }
}
