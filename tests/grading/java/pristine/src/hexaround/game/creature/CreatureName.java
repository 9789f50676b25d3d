package hexaround.game.creature;

/** The creature types of the course's configuration grammar. */
public enum CreatureName {
    BUTTERFLY, CRAB, DOVE, DUCK, GRASSHOPPER, HORSE, HUMMINGBIRD, RABBIT, SPIDER, TURTLE
}
