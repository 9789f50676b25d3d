# Skeleton Program for the AQA A Level Paper 1 Summer 2021 examination (Hex Baron),
# as a student hands it in: the program run on standard input and output, with the
# global random generator for digs. (Derived from hexkit's transcription of the skeleton.)
from __future__ import annotations

import random


class Piece:
    def __init__(self, player1: bool):
        self._fuel_cost_of_move = 1
        self._belongs_to_player1 = player1
        self._destroyed = False
        self._piece_type = "S"
        self._vp_value = 1
        self._connections_to_destroy = 2

    def get_vps(self) -> int:
        return self._vp_value

    def get_belongs_to_player1(self) -> bool:
        return self._belongs_to_player1

    def check_move_is_valid(self, distance: int, start: str, end: str) -> int:
        if distance == 1:
            if start == "~" or end == "~":
                return self._fuel_cost_of_move * 2
            return self._fuel_cost_of_move
        return -1

    def has_method(self, name: str) -> bool:
        return callable(getattr(self, name, None))

    def get_connections_needed_to_destroy(self) -> int:
        return self._connections_to_destroy

    def get_piece_type(self) -> str:
        return self._piece_type if self._belongs_to_player1 else self._piece_type.lower()

    def destroy_piece(self) -> None:
        self._destroyed = True


class BaronPiece(Piece):
    def __init__(self, player1: bool):
        super().__init__(player1)
        self._piece_type = "B"
        self._vp_value = 10

    def check_move_is_valid(self, distance: int, start: str, end: str) -> int:
        return self._fuel_cost_of_move if distance == 1 else -1


class LESSPiece(Piece):
    def __init__(self, player1: bool):
        super().__init__(player1)
        self._piece_type = "L"
        self._vp_value = 3

    def check_move_is_valid(self, distance: int, start: str, end: str) -> int:
        if distance == 1 and start != "#":
            if start == "~" or end == "~":
                return self._fuel_cost_of_move * 2
            return self._fuel_cost_of_move
        return -1

    def Saw(self, terrain: str) -> int:  # noqa: N802 - looked up by name, as in the skeleton
        return 1 if terrain == "#" else 0


class PBDSPiece(Piece):
    def __init__(self, player1: bool, rng: random.Random):
        super().__init__(player1)
        self._vp_value = 2
        self._piece_type = "P"
        self._fuel_cost_of_move = 2
        self._rng = rng

    def check_move_is_valid(self, distance: int, start: str, end: str) -> int:
        if distance != 1 or start == "~":
            return -1
        return self._fuel_cost_of_move

    def Dig(self, terrain: str) -> int:  # noqa: N802 - looked up by name, as in the skeleton
        if terrain != "~":
            return 0
        return 1 if self._rng.random() < 0.9 else 5


class Tile:
    def __init__(self, x: int, y: int, z: int):
        self.x, self.y, self.z = x, y, z
        self.terrain = " "
        self.piece: Piece | None = None
        self.neighbours: list[Tile] = []

    def distance(self, t: Tile) -> int:
        return max(abs(self.x - t.x), abs(self.y - t.y), abs(self.z - t.z))


class HexGrid:
    def __init__(self, n: int, rng: random.Random):
        self._size = n
        self._player1_turn = True
        self._tiles: list[Tile] = []
        self._pieces: list[Piece] = []
        self._pos = 0
        self._rng = rng
        even_y = even_z = odd_z = 0
        odd_y = -1
        for _ in range(1, n // 2 + 1):
            y, z = even_y, even_z
            for x in range(0, n - 1, 2):
                self._tiles.append(Tile(x, y, z))
                y -= 1
                z -= 1
            even_z += 1
            even_y -= 1
            y, z = odd_y, odd_z
            for x in range(1, n, 2):
                self._tiles.append(Tile(x, y, z))
                y -= 1
                z -= 1
            odd_z += 1
            odd_y -= 1
        for a in self._tiles:  # the skeleton's quadratic neighbour set-up
            for b in self._tiles:
                if a.distance(b) == 1:
                    a.neighbours.append(b)

    def set_up_grid_terrain(self, terrain: list[str]) -> None:
        for i in range(len(terrain)):
            self._tiles[i].terrain = terrain[i]

    def add_piece(self, player1: bool, kind: str, location: int) -> None:
        if kind == "Baron":
            piece: Piece = BaronPiece(player1)
        elif kind == "LESS":
            piece = LESSPiece(player1)
        elif kind == "PBDS":
            piece = PBDSPiece(player1, self._rng)
        else:
            piece = Piece(player1)
        self._pieces.append(piece)
        self._tiles[location].piece = piece

    def execute_command(self, items: list[str], fuel: int, lumber: int,
                        supply: int) -> tuple[str, int, int, int]:
        fuel_change = lumber_change = supply_change = 0
        if items[0] == "move":
            cost = self._execute_move(items, fuel)
            if cost < 0:
                return "That move can't be done", 0, 0, 0
            fuel_change = -cost
        elif items[0] in ("saw", "dig"):
            ok, fuel_change, lumber_change = self._execute_in_tile(items)
            if not ok:
                return "Couldn't do that", 0, 0, 0
        elif items[0] == "spawn":
            cost = self._execute_spawn(items, lumber, supply)
            if cost < 0:
                return "Spawning did not occur", 0, 0, 0
            lumber_change = -cost
            supply_change = 1
        elif items[0] == "upgrade":
            cost = self._execute_upgrade(items, lumber)
            if cost < 0:
                return "Upgrade not possible", 0, 0, 0
            lumber_change = -cost
        return "Command executed", fuel_change, lumber_change, supply_change

    def _index_ok(self, t: int) -> bool:
        return 0 <= t < len(self._tiles)

    def _piece_and_tile_ok(self, t: int) -> bool:
        if self._index_ok(t):
            p = self._tiles[t].piece
            if p is not None and p.get_belongs_to_player1() == self._player1_turn:
                return True
        return False

    def _execute_in_tile(self, items: list[str]) -> tuple[bool, int, int]:
        t = int(items[1])
        if not self._piece_and_tile_ok(t):
            return False, 0, 0
        piece = self._tiles[t].piece
        assert piece is not None
        name = items[0][0].upper() + items[0][1:]
        fuel = lumber = 0
        if piece.has_method(name):
            method = getattr(piece, name)
            if name == "Saw":
                lumber = method(self._tiles[t].terrain)
            else:
                fuel = method(self._tiles[t].terrain)
                if abs(fuel) > 2:
                    self._tiles[t].terrain = " "
            return True, fuel, lumber
        return False, 0, 0

    def _execute_move(self, items: list[str], fuel: int) -> int:
        start, end = int(items[1]), int(items[2])
        if not self._piece_and_tile_ok(start) or not self._index_ok(end):
            return -1
        piece = self._tiles[start].piece
        assert piece is not None
        if self._tiles[end].piece is not None:
            return -1
        distance = self._tiles[start].distance(self._tiles[end])
        cost = piece.check_move_is_valid(distance, self._tiles[start].terrain,
                                         self._tiles[end].terrain)
        if cost == -1 or fuel < cost:
            return -1
        self._tiles[end].piece = self._tiles[start].piece
        self._tiles[start].piece = None
        return cost

    def _execute_spawn(self, items: list[str], lumber: int, supply: int) -> int:
        t = int(items[1])
        if supply < 1 or lumber < 3 or not self._index_ok(t):
            return -1
        if self._tiles[t].piece is not None:
            return -1
        own = "B" if self._player1_turn else "b"
        if not any(n.piece is not None and n.piece.get_piece_type() == own
                   for n in self._tiles[t].neighbours):
            return -1
        piece = Piece(self._player1_turn)
        self._pieces.append(piece)
        self._tiles[t].piece = piece
        return 3

    def _execute_upgrade(self, items: list[str], lumber: int) -> int:
        t = int(items[2])
        if not self._piece_and_tile_ok(t) or lumber < 5 or items[1] not in ("pbds", "less"):
            return -1
        piece = self._tiles[t].piece
        assert piece is not None
        if piece.get_piece_type().upper() != "S":
            return -1
        piece.destroy_piece()
        new: Piece = (PBDSPiece(self._player1_turn, self._rng) if items[1] == "pbds"
                      else LESSPiece(self._player1_turn))
        self._pieces.append(new)
        self._tiles[t].piece = new
        return 5

    def destroy_pieces_and_count_vps(self) -> tuple[bool, int, int]:
        baron = False
        vps1 = vps2 = 0
        doomed = []
        for t in self._tiles:
            if t.piece is not None:
                count = sum(1 for n in t.neighbours if n.piece is not None)
                p = t.piece
                if count >= p.get_connections_needed_to_destroy():
                    p.destroy_piece()
                    if p.get_piece_type().upper() == "B":
                        baron = True
                    doomed.append(t)
                    if p.get_belongs_to_player1():
                        vps2 += p.get_vps()
                    else:
                        vps1 += p.get_vps()
        for t in doomed:
            t.piece = None
        return baron, vps1, vps2

    def _cell_piece(self, i: int) -> str:
        p = self._tiles[i].piece
        return " " if p is None else p.get_piece_type()

    def get_grid_as_string(self, p1_turn: bool) -> str:
        self._pos = 0
        self._player1_turn = p1_turn
        text = self._top_line() + self._even_line(True)
        self._pos += 1
        text += self._odd_line()
        for _ in range(1, self._size - 1, 2):
            self._pos += 1
            text += self._even_line(False)
            self._pos += 1
            text += self._odd_line()
        return text + self._bottom_line()

    def _top_line(self) -> str:
        return "\n  " + "__    " * (self._size // 2) + "\n"

    def _bottom_line(self) -> str:
        return "   " + " \\__/ " * (self._size // 2) + "\n"

    def _even_line(self, first: bool) -> str:
        line = " /" + self._tiles[self._pos].terrain
        for _ in range(1, self._size // 2):
            line += self._cell_piece(self._pos) + "\\__/"
            self._pos += 1
            line += self._tiles[self._pos].terrain
        return line + self._cell_piece(self._pos) + ("\\__\n" if first else "\\__/\n")

    def _odd_line(self) -> str:
        line = ""
        for count in range(1, self._size // 2 + 1):
            if 1 < count < self._size // 2:
                line += self._cell_piece(self._pos) + "\\__/"
                self._pos += 1
                line += self._tiles[self._pos].terrain
            elif count == 1:
                line += " \\__/" + self._tiles[self._pos].terrain
        line += self._cell_piece(self._pos) + "\\__/"
        self._pos += 1
        if self._pos < len(self._tiles):
            return (line + self._tiles[self._pos].terrain + self._cell_piece(self._pos)
                    + "\\\n")
        return line + "\\\n"


class Player:
    def __init__(self, name: str, vps: int, fuel: int, lumber: int, supply: int):
        self.name, self.vps, self.fuel, self.lumber, self.supply = name, vps, fuel, lumber, supply

    def state(self) -> str:
        return (f"VPs: {self.vps}   Pieces in supply: {self.supply}   Lumber: {self.lumber}"
                f"   Fuel: {self.fuel}")


class Skeleton:
    """The main program on streams. ``run()`` returns 0 after Q; EOFError propagates."""

    def __init__(self, rng):
        self.rng = rng

    def input(self, prompt: str = "") -> str:
        return input(prompt)

    def print(self, text: str = "") -> None:
        print(text)

    def run(self) -> int:
        choice = ""
        while choice != "Q":
            print("1. Default game")
            print("2. Load game")
            print("Q. Quit")
            print()
            choice = self.input("Enter your choice: ")
            if choice == "1":
                self.play(*self.default_game())
            elif choice == "2":
                loaded = self.load_game()
                if loaded is not None:
                    self.play(*loaded)
        return 0

    def default_game(self) -> tuple[Player, Player, HexGrid]:
        terrain = [" ", "#", "#", " ", "~", "~", " ", " ", " ", "~", " ", "#", "#", " ", " ",
                   " ", " ", " ", "#", "#", "#", "#", "~", "~", "~", "~", "~", " ", "#", " ",
                   "#", " "]
        grid = HexGrid(8, self.rng)
        p1 = Player("Player One", 0, 10, 10, 5)
        p2 = Player("Player Two", 1, 10, 10, 5)
        grid.set_up_grid_terrain(terrain)
        grid.add_piece(True, "Baron", 0)
        grid.add_piece(True, "Serf", 8)
        grid.add_piece(False, "Baron", 31)
        grid.add_piece(False, "Serf", 23)
        return p1, p2, grid

    def load_game(self) -> tuple[Player, Player, HexGrid] | None:
        name = self.input("Enter the name of the file to load: ")
        try:
            with open(name) as f:
                items = f.readline().rstrip().split(",")
                p1 = Player(items[0], int(items[1]), int(items[2]), int(items[3]),
                            int(items[4]))
                items = f.readline().rstrip().split(",")
                p2 = Player(items[0], int(items[1]), int(items[2]), int(items[3]),
                            int(items[4]))
                grid = HexGrid(int(f.readline().rstrip()), self.rng)
                grid.set_up_grid_terrain(f.readline().rstrip().split(","))
                line = f.readline().rstrip()
                while line != "":
                    items = line.split(",")
                    grid.add_piece(items[0] == "1", items[1], int(items[2]))
                    line = f.readline().rstrip()
        except Exception:
            self.print("File not loaded")
            return None
        return p1, p2, grid

    def play(self, p1: Player, p2: Player, grid: HexGrid) -> None:
        game_over = False
        p1_turn = True
        self.print("Player One current state - " + p1.state())
        self.print("Player Two current state - " + p2.state())
        while not (game_over and p1_turn):
            self.print(grid.get_grid_as_string(p1_turn))
            mover = p1 if p1_turn else p2
            self.print(mover.name + " state your three commands, pressing enter after each one.")
            commands = [self.input("Enter command: ").lower() for _ in range(3)]
            for c in commands:
                items = c.split(" ")
                if not check_command_is_valid(items):
                    self.print("Invalid command")
                    continue
                result, fuel, lumber, supply = grid.execute_command(
                    items, mover.fuel, mover.lumber, mover.supply)
                mover.lumber += lumber
                mover.fuel += fuel
                if supply == 1:
                    mover.supply -= 1
                self.print(result)
            p1_turn = not p1_turn
            if game_over:
                _, gained1, gained2 = grid.destroy_pieces_and_count_vps()
            else:
                game_over, gained1, gained2 = grid.destroy_pieces_and_count_vps()
            p1.vps += gained1
            p2.vps += gained2
            self.print("Player One current state - " + p1.state())
            self.print("Player Two current state - " + p2.state())
            self.input("Press Enter to continue...")
        self.print(grid.get_grid_as_string(p1_turn))
        self.print()
        self.print(p1.name + " final state: " + p1.state())
        self.print()
        self.print(p2.name + " final state: " + p2.state())
        self.print()
        self.print((p1.name if p1.vps > p2.vps else p2.name) + " is the winner!")


def _is_int(text: str) -> bool:
    try:
        int(text)
    except ValueError:
        return False
    return True


def check_command_is_valid(items: list[str]) -> bool:
    if items[0] == "move":
        return len(items) == 3 and _is_int(items[1]) and _is_int(items[2])
    if items[0] in ("dig", "saw", "spawn"):
        return len(items) == 2 and _is_int(items[1])
    if items[0] == "upgrade":
        return (len(items) == 3 and items[1].upper() in ("LESS", "PBDS")
                and _is_int(items[2]))
    return False


if __name__ == "__main__":
    Skeleton(random).run()
