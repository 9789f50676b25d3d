package hexaround.game.board;

import java.util.ArrayList;
import java.util.List;

/** A hex in axial coordinates; the third cube coordinate is -x-y. */
public record Hex(int x, int y) {
    /** The six directions in ring order. */
    private static final int[][] DIRECTIONS = {{0, 1}, {1, 0}, {1, -1}, {0, -1}, {-1, 0}, {-1, 1}};

    public Hex neighbour(int direction) {
        int[] d = DIRECTIONS[Math.floorMod(direction, 6)];
        return new Hex(x + d[0], y + d[1]);
    }

    public List<Hex> neighbours() {
        List<Hex> out = new ArrayList<>(6);
        for (int d = 0; d < 6; d++) {
            out.add(neighbour(d));
        }
        return out;
    }

    public Hex step(int direction, int count) {
        int[] d = DIRECTIONS[Math.floorMod(direction, 6)];
        return new Hex(x + d[0] * count, y + d[1] * count);
    }

    public long distance(Hex other) {
        long dx = (long) other.x - x;
        long dy = (long) other.y - y;
        return Math.max(Math.abs(dx), Math.max(Math.abs(dy), Math.abs(dx + dy)));
    }

    public boolean inLine(Hex other) {
        long dx = (long) other.x - x;
        long dy = (long) other.y - y;
        return dx == 0 || dy == 0 || dx + dy == 0;
    }

    @Override
    public String toString() {
        return "(" + x + ", " + y + ")";
    }
}
