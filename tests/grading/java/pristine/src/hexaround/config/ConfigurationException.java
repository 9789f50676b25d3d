package hexaround.config;

/** A configuration file that cannot be read or breaks the configuration rules. */
public class ConfigurationException extends RuntimeException {
    public ConfigurationException(String message) {
        super(message);
    }
}
