package hexaround.game.creature;

/** Movement categories and attributes a creature type may have. */
public enum CreatureProperty {
    QUEEN, WALKING, RUNNING, FLYING, JUMPING, INTRUDING, TRAPPING, SWAPPING, KAMIKAZE, HATCHING
}
