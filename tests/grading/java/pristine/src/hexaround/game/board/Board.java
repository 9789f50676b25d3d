package hexaround.game.board;

import hexaround.game.creature.CreatureName;
import hexaround.game.player.PlayerName;

import java.util.ArrayDeque;
import java.util.ArrayList;
import java.util.Collection;
import java.util.Deque;
import java.util.HashMap;
import java.util.HashSet;
import java.util.List;
import java.util.Map;
import java.util.Set;

/** The stacks of creatures on the hexes; the last piece of a stack is its top. */
public class Board {
    private final Map<Hex, List<Piece>> stacks = new HashMap<>();

    public boolean isOccupied(Hex hex) {
        return stacks.containsKey(hex);
    }

    public boolean isEmpty() {
        return stacks.isEmpty();
    }

    public int size() {
        return stacks.size();
    }

    /** The pieces on a hex, bottom first (an empty list for an empty hex). */
    public List<Piece> stack(Hex hex) {
        return stacks.getOrDefault(hex, List.of());
    }

    public Piece top(Hex hex) {
        List<Piece> stack = stacks.get(hex);
        return stack == null ? null : stack.get(stack.size() - 1);
    }

    public int height(Hex hex) {
        return stack(hex).size();
    }

    public Set<Hex> occupiedHexes() {
        return stacks.keySet();
    }

    public void push(Hex hex, Piece piece) {
        stacks.computeIfAbsent(hex, h -> new ArrayList<>()).add(piece);
    }

    /** Takes the piece at index i off the hex's stack. */
    public Piece remove(Hex hex, int index) {
        List<Piece> stack = stacks.get(hex);
        Piece piece = stack.remove(index);
        if (stack.isEmpty()) {
            stacks.remove(hex);
        }
        return piece;
    }

    /** Puts a piece back at index i of a hex's stack (undoes remove). */
    public void insert(Hex hex, int index, Piece piece) {
        stacks.computeIfAbsent(hex, h -> new ArrayList<>()).add(index, piece);
    }

    public Piece pop(Hex hex) {
        return remove(hex, stack(hex).size() - 1);
    }

    public int occupiedNeighbours(Hex hex) {
        int n = 0;
        for (Hex h : hex.neighbours()) {
            if (isOccupied(h)) {
                n++;
            }
        }
        return n;
    }

    public boolean touchesColony(Hex hex) {
        return occupiedNeighbours(hex) > 0;
    }

    public boolean isSurrounded(Hex hex) {
        return occupiedNeighbours(hex) == 6;
    }

    /** Where the player's butterfly is (on the board, at any height), or null. */
    public Hex find(CreatureName name, PlayerName owner) {
        Piece wanted = new Piece(name, owner);
        for (Map.Entry<Hex, List<Piece>> e : stacks.entrySet()) {
            if (e.getValue().contains(wanted)) {
                return e.getKey();
            }
        }
        return null;
    }

    /** True if the hexes form one group of neighbours. */
    public static boolean isConnected(Collection<Hex> hexes) {
        if (hexes.isEmpty()) {
            return true;
        }
        Set<Hex> all = new HashSet<>(hexes);
        Set<Hex> seen = new HashSet<>();
        Deque<Hex> todo = new ArrayDeque<>();
        Hex first = all.iterator().next();
        todo.add(first);
        seen.add(first);
        while (!todo.isEmpty()) {
            for (Hex n : todo.poll().neighbours()) {
                if (all.contains(n) && seen.add(n)) {
                    todo.add(n);
                }
            }
        }
        return seen.size() == all.size();
    }
}
