package hexaround.game;

import hexaround.config.CreatureDefinition;
import hexaround.config.GameConfiguration;
import hexaround.config.PlayerConfiguration;
import hexaround.game.board.Board;
import hexaround.game.board.Hex;
import hexaround.game.board.Piece;
import hexaround.game.creature.CreatureName;
import hexaround.game.creature.CreatureProperty;
import hexaround.game.move.MoveResponse;
import hexaround.game.move.MoveResult;
import hexaround.game.player.PlayerName;

import java.util.ArrayList;
import java.util.EnumMap;
import java.util.HashSet;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

import static hexaround.game.creature.CreatureName.BUTTERFLY;
import static hexaround.game.creature.CreatureProperty.*;
import static hexaround.game.player.PlayerName.BLUE;
import static hexaround.game.player.PlayerName.RED;

/** One game of HexAround with the rules document's readings. */
public class HexAroundGameManager implements IHexAroundGameManager {
    private static final int STACK_LIMIT = 2;
    private static final int BUTTERFLY_DEADLINE = 4;

    private final Map<CreatureName, CreatureDefinition> creatures = new EnumMap<>(CreatureName.class);
    private final Map<PlayerName, Map<CreatureName, Integer>> hands = new EnumMap<>(PlayerName.class);
    private final Map<PlayerName, Integer> actions = new EnumMap<>(PlayerName.class);
    private final Board board = new Board();
    private PlayerName turn = BLUE;
    private boolean gameOver = false;

    public HexAroundGameManager(GameConfiguration configuration) {
        for (CreatureDefinition definition : configuration.creatures()) {
            creatures.put(definition.name(), definition);
        }
        for (PlayerConfiguration player : configuration.players()) {
            hands.put(player.player(), new EnumMap<>(player.creatures()));
            actions.put(player.player(), 0);
        }
    }

    @Override
    public MoveResponse placeCreature(CreatureName creature, int x, int y) {
        if (gameOver) {
            return error("the game is over");
        }
        PlayerName player = turn;
        if (inHand(player, creature) == 0) {
            return error(player + " has no " + creature + " left to place");
        }
        if (mustPlaceButterfly(player) && creature != BUTTERFLY) {
            return error(player + " must place the BUTTERFLY now");
        }
        Hex hex = new Hex(x, y);
        String problem = placementProblem(player, hex);
        if (problem != null) {
            return error(problem);
        }
        hands.get(player).merge(creature, -1, Integer::sum);
        board.push(hex, new Piece(creature, player));
        return finishTurn(player);
    }

    @Override
    public MoveResponse moveCreature(CreatureName creature, int fromX, int fromY, int toX, int toY) {
        if (gameOver) {
            return error("the game is over");
        }
        PlayerName player = turn;
        if (mustPlaceButterfly(player)) {
            return error(player + " must place the BUTTERFLY now");
        }
        Hex from = new Hex(fromX, fromY);
        Hex to = new Hex(toX, toY);
        int index = topmost(board.stack(from), new Piece(creature, player));
        if (index < 0) {
            return error("there is no " + player + " " + creature + " at " + from);
        }
        if (isTrapped(from, index)) {
            return error("the " + creature + " at " + from + " is trapped");
        }
        if (from.equals(to)) {
            return error("the " + creature + " must move to another hex");
        }
        if (!destinations(from, index).contains(to)) {
            return error(creature + " cannot move from " + from + " to " + to);
        }
        apply(from, index, to);
        return finishTurn(player);
    }

    // ---- placing -------------------------------------------------------------------

    private String placementProblem(PlayerName player, Hex hex) {
        if (board.isOccupied(hex)) {
            return hex + " is occupied";
        }
        if (actions.get(player) == 0) {
            if (!board.isEmpty() && !board.touchesColony(hex)) {
                return "the first creature must be placed next to the creature on the board";
            }
            return null;
        }
        boolean own = false;
        boolean enemy = false;
        boolean hatching = false;
        for (Hex n : hex.neighbours()) {
            Piece top = board.top(n);
            if (top == null) {
                continue;
            }
            if (top.owner() == player) {
                own = true;
                if (has(top, HATCHING)) {
                    hatching = true;
                }
            } else {
                enemy = true;
            }
        }
        if (!own) {
            return hex + " is not next to a " + player + " creature";
        }
        if (enemy && !hatching) {
            return hex + " is next to an enemy creature";
        }
        return null;
    }

    private boolean mustPlaceButterfly(PlayerName player) {
        return actions.get(player) + 1 >= BUTTERFLY_DEADLINE && board.find(BUTTERFLY, player) == null;
    }

    // ---- moving --------------------------------------------------------------------

    private static int topmost(List<Piece> stack, Piece wanted) {
        return stack.lastIndexOf(wanted);
    }

    private boolean isTrapped(Hex hex, int index) {
        List<Piece> stack = board.stack(hex);
        for (int i = index + 1; i < stack.size(); i++) {
            if (has(stack.get(i), TRAPPING)) {
                return true;
            }
        }
        return false;
    }

    /** Every hex the piece at index i of the stack on from may move to. */
    private Set<Hex> destinations(Hex from, int index) {
        Piece mover = board.stack(from).get(index);
        CreatureDefinition definition = creatures.get(mover.name());
        board.remove(from, index);
        try {
            Set<Hex> out = new LinkedHashSet<>();
            for (Hex to : reachable(from, definition)) {
                if (!to.equals(from) && staysConnected(from, definition, to)) {
                    out.add(to);
                }
            }
            return out;
        } finally {
            board.insert(from, index, mover);
        }
    }

    /** The colony after the lifted mover ends on to must be one group. */
    private boolean staysConnected(Hex from, CreatureDefinition mover, Hex to) {
        Set<Hex> occupied = new HashSet<>(board.occupiedHexes());
        if (!board.isOccupied(to)) {
            occupied.add(to);
        } else if (mover.has(KAMIKAZE)) {
            if (board.height(to) == 1) {
                occupied.remove(to);
            }
        } else if (mover.has(SWAPPING)) {
            occupied.add(from);
        }
        return Board.isConnected(occupied);
    }

    private Set<Hex> reachable(Hex from, CreatureDefinition mover) {
        int m = mover.maxDistance();
        if (mover.has(WALKING)) {
            return walk(from, m, mover);
        }
        if (mover.has(RUNNING)) {
            Set<Hex> found = new LinkedHashSet<>();
            Set<Hex> visited = new HashSet<>();
            visited.add(from);
            run(from, m, mover, visited, found);
            return found;
        }
        if (mover.has(FLYING)) {
            return fly(from, m, mover);
        }
        if (mover.has(JUMPING)) {
            return jump(from, m, mover);
        }
        return Set.of();
    }

    /** May the mover finish on the occupied hex? */
    private boolean canEndOn(Hex hex, CreatureDefinition mover) {
        if (mover.has(KAMIKAZE)) {
            return true;
        }
        if (mover.has(SWAPPING)) {
            return board.top(hex).name() != BUTTERFLY;
        }
        if (mover.has(TRAPPING) || mover.has(INTRUDING)) {
            return board.height(hex) < STACK_LIMIT;
        }
        return false;
    }

    /** A step to a neighbour: not through a gate of two occupied hexes, and never into open space. */
    private boolean canStep(Hex from, int direction) {
        Hex to = from.neighbour(direction);
        boolean left = board.isOccupied(from.neighbour(direction - 1));
        boolean right = board.isOccupied(from.neighbour(direction + 1));
        if (left && right) {
            return false;
        }
        return board.isOccupied(to) || board.touchesColony(to);
    }

    private Set<Hex> walk(Hex from, int m, CreatureDefinition mover) {
        Set<Hex> seen = new HashSet<>();
        seen.add(from);
        Set<Hex> found = new LinkedHashSet<>();
        List<Hex> layer = List.of(from);
        for (int step = 0; step < m && !layer.isEmpty(); step++) {
            List<Hex> next = new ArrayList<>();
            for (Hex a : layer) {
                for (int d = 0; d < 6; d++) {
                    Hex b = a.neighbour(d);
                    if (seen.contains(b) || !canStep(a, d)) {
                        continue;
                    }
                    seen.add(b);
                    if (!board.isOccupied(b)) {
                        found.add(b);
                        next.add(b);
                        continue;
                    }
                    if (canEndOn(b, mover)) {
                        found.add(b);
                    }
                    if (mover.has(INTRUDING)) {
                        next.add(b);
                    }
                }
            }
            layer = next;
        }
        return found;
    }

    private void run(Hex at, int left, CreatureDefinition mover, Set<Hex> visited, Set<Hex> found) {
        for (int d = 0; d < 6; d++) {
            Hex b = at.neighbour(d);
            if (visited.contains(b) || !canStep(at, d)) {
                continue;
            }
            if (board.isOccupied(b)) {
                if (left == 1) {
                    if (canEndOn(b, mover)) {
                        found.add(b);
                    }
                    continue;
                }
                if (!mover.has(INTRUDING)) {
                    continue;
                }
            } else if (left == 1) {
                found.add(b);
                continue;
            }
            visited.add(b);
            run(b, left - 1, mover, visited, found);
            visited.remove(b);
        }
    }

    private Set<Hex> fly(Hex from, int m, CreatureDefinition mover) {
        Set<Hex> found = new LinkedHashSet<>();
        if (board.isSurrounded(from)) {
            return found;
        }
        boolean alone = board.isEmpty();
        int range = alone ? m : Math.min(m, board.size() + 1);
        for (int dx = -range; dx <= range; dx++) {
            for (int dy = -range; dy <= range; dy++) {
                Hex to = new Hex(from.x() + dx, from.y() + dy);
                long distance = from.distance(to);
                if (distance >= 1 && distance <= range) {
                    land(to, alone, mover, found);
                }
            }
        }
        return found;
    }

    private Set<Hex> jump(Hex from, int m, CreatureDefinition mover) {
        Set<Hex> found = new LinkedHashSet<>();
        boolean alone = board.isEmpty();
        int range = alone ? m : Math.min(m, board.size() + 1);
        for (int d = 0; d < 6; d++) {
            for (int k = 1; k <= range; k++) {
                land(from.step(d, k), alone, mover, found);
            }
        }
        return found;
    }

    /** A flyer's or jumper's landing: an occupied hex it may end on, or an empty one by the colony. */
    private void land(Hex to, boolean alone, CreatureDefinition mover, Set<Hex> found) {
        if (board.isOccupied(to)) {
            if (canEndOn(to, mover)) {
                found.add(to);
            }
        } else if (alone || board.touchesColony(to)) {
            found.add(to);
        }
    }

    private void apply(Hex from, int index, Hex to) {
        Piece mover = board.remove(from, index);
        CreatureDefinition definition = creatures.get(mover.name());
        if (!board.isOccupied(to)) {
            board.push(to, mover);
        } else if (definition.has(KAMIKAZE)) {
            Piece victim = board.pop(to);
            hands.get(victim.owner()).merge(victim.name(), 1, Integer::sum);
        } else if (definition.has(SWAPPING)) {
            Piece displaced = board.pop(to);
            board.push(to, mover);
            board.push(from, displaced);
        } else {
            board.push(to, mover);
        }
    }

    // ---- turns and the end ---------------------------------------------------------

    private MoveResponse finishTurn(PlayerName player) {
        actions.merge(player, 1, Integer::sum);
        turn = player.other();
        boolean blueSurrounded = surrounded(BLUE);
        boolean redSurrounded = surrounded(RED);
        if (blueSurrounded && redSurrounded) {
            return end(MoveResult.DRAW, "both butterflies are surrounded");
        }
        if (redSurrounded) {
            return end(MoveResult.BLUE_WON, "RED's butterfly is surrounded");
        }
        if (blueSurrounded) {
            return end(MoveResult.RED_WON, "BLUE's butterfly is surrounded");
        }
        if (!hasLegalAction(turn)) {
            return end(player == BLUE ? MoveResult.BLUE_WON : MoveResult.RED_WON, turn + " can neither place nor move");
        }
        return new MoveResponse(MoveResult.OK, "Legal move");
    }

    private boolean surrounded(PlayerName player) {
        Hex butterfly = board.find(BUTTERFLY, player);
        return butterfly != null && board.isSurrounded(butterfly);
    }

    private MoveResponse end(MoveResult result, String why) {
        gameOver = true;
        return new MoveResponse(result, why);
    }

    private boolean hasLegalAction(PlayerName player) {
        boolean obliged = mustPlaceButterfly(player);
        boolean canPlace = obliged ? inHand(player, BUTTERFLY) > 0
            : hands.get(player).values().stream().anyMatch(n -> n > 0);
        if (canPlace && hasPlacementHex(player)) {
            return true;
        }
        if (obliged) {
            return false;
        }
        List<Hex> hexes = new ArrayList<>(board.occupiedHexes());
        List<int[]> movers = new ArrayList<>();
        for (int h = 0; h < hexes.size(); h++) {
            List<Piece> stack = board.stack(hexes.get(h));
            Set<CreatureName> seen = new HashSet<>();
            for (int i = stack.size() - 1; i >= 0; i--) {
                Piece piece = stack.get(i);
                if (piece.owner() == player && seen.add(piece.name())) {
                    movers.add(new int[] {h, i});
                }
                if (has(piece, TRAPPING)) {
                    break;
                }
            }
        }
        for (int[] mover : movers) {
            if (!destinations(hexes.get(mover[0]), mover[1]).isEmpty()) {
                return true;
            }
        }
        return false;
    }

    private boolean hasPlacementHex(PlayerName player) {
        if (actions.get(player) == 0) {
            return true;
        }
        for (Hex hex : new ArrayList<>(board.occupiedHexes())) {
            if (board.top(hex).owner() != player) {
                continue;
            }
            for (Hex n : hex.neighbours()) {
                if (placementProblem(player, n) == null) {
                    return true;
                }
            }
        }
        return false;
    }

    // ---- helpers -------------------------------------------------------------------

    private int inHand(PlayerName player, CreatureName creature) {
        if (creature == null) {
            return 0;
        }
        return hands.get(player).getOrDefault(creature, 0);
    }

    private boolean has(Piece piece, CreatureProperty property) {
        return creatures.get(piece.name()).has(property);
    }

    private static MoveResponse error(String message) {
        return new MoveResponse(MoveResult.MOVE_ERROR, message);
    }
}
