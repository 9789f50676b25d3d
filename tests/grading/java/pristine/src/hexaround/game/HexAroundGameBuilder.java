package hexaround.game;

import hexaround.config.GameConfiguration;
import hexaround.config.HexAroundConfigurationMaker;

import java.io.IOException;

/** Builds a game manager from a configuration file. */
public class HexAroundGameBuilder {
    public static IHexAroundGameManager buildGameManager(String configurationFile) throws IOException {
        GameConfiguration configuration = new HexAroundConfigurationMaker(configurationFile).makeConfiguration();
        return new HexAroundGameManager(configuration);
    }
}
