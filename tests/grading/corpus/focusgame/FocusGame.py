# Author: A. Student
# Date: 12/3/2020
# Description: Portfolio project, CS 162: a two-player Focus (Domination) game on a 6x6
# board. Players move stacks of up to five pieces, capture by overflowing stacks and win by
# capturing six pieces.


class Player:
    """A player: their name, colour, reserve and captured pieces."""

    def __init__(self, name, colour):
        self._name = name
        self._colour = colour.upper()
        self._reserve = 0
        self._captured = 0

    def get_name(self):
        return self._name

    def get_colour(self):
        return self._colour

    def get_reserve(self):
        return self._reserve

    def get_captured(self):
        return self._captured

    def add_reserve(self, count=1):
        self._reserve += count

    def use_reserve(self):
        self._reserve -= 1

    def add_captured(self, count=1):
        self._captured += count


class FocusGame:
    """The game: a 6x6 board of stacks (lists, bottom first) and two players."""

    def __init__(self, player_one, player_two):
        if player_one[0] == player_two[0]:
            raise ValueError("the players need different names")
        if player_one[1].upper() == player_two[1].upper():
            raise ValueError("the players need different colours")
        for _, colour in (player_one, player_two):
            if colour.upper() not in ("R", "G"):
                raise ValueError("colours are R and G")
        self._players = [Player(*player_one), Player(*player_two)]
        self._turn = None  # either player may start
        self._winner = None
        self._board = []
        for row in range(6):
            line = []
            for col in range(6):
                line.append(["R"] if (row + col // 2) % 2 == 0 else ["G"])
            self._board.append(line)

    def _get_player(self, name):
        for player in self._players:
            if player.get_name() == name:
                return player
        return None

    def _other(self, player):
        return self._players[1] if player is self._players[0] else self._players[0]

    @staticmethod
    def _valid_square(pos):
        if not isinstance(pos, (tuple, list)) or len(pos) != 2:
            return False
        for x in pos:
            if isinstance(x, bool) or not isinstance(x, int) or not 0 <= x <= 5:
                return False
        return True

    def _stack(self, pos):
        return self._board[pos[0]][pos[1]]

    def _finish_move(self, player, to_pos):
        """Overflow above five pieces, the win check and the turn."""
        stack = self._stack(to_pos)
        while len(stack) > 5:
            bottom = stack.pop(0)
            if bottom == player.get_colour():
                player.add_reserve()
            else:
                player.add_captured()
        self._turn = self._other(player).get_name()
        if player.get_captured() >= 6:
            self._winner = player.get_name()
            return self._winner + " Wins"
        return "successfully moved"

    def move_piece(self, name, from_pos, to_pos, count):
        """Moves the top count pieces of from_pos onto to_pos."""
        if self._winner is not None:
            return self._winner + " Wins"
        player = self._get_player(name)
        if player is None or (self._turn is not None and self._turn != name):
            return "not your turn"
        if not self._valid_square(from_pos) or not self._valid_square(to_pos):
            return "invalid location"
        if tuple(from_pos) == tuple(to_pos):
            return "invalid location"
        if from_pos[0] != to_pos[0] and from_pos[1] != to_pos[1]:
            return "invalid location"
        source = self._stack(from_pos)
        if not source or source[-1] != player.get_colour():
            return "invalid location"
        if isinstance(count, bool) or not isinstance(count, int):
            return "invalid number of pieces"
        if count < 1 or count > len(source):
            return "invalid number of pieces"
        distance = abs(from_pos[0] - to_pos[0]) + abs(from_pos[1] - to_pos[1])
        if distance > count:
            return "invalid location"
        moving = source[-count:]
        del source[-count:]
        self._stack(to_pos).extend(moving)
        return self._finish_move(player, to_pos)

    def reserved_move(self, name, pos):
        """Places one piece from the player's reserve on pos."""
        if self._winner is not None:
            return self._winner + " Wins"
        player = self._get_player(name)
        if player is None:
            return "not your turn"
        if player.get_reserve() == 0:
            return "no pieces in reserve"
        if self._turn is not None and self._turn != name:
            return "not your turn"
        if not self._valid_square(pos):
            return "invalid location"
        player.use_reserve()
        self._stack(pos).append(player.get_colour())
        return self._finish_move(player, pos)

    def show_pieces(self, pos):
        """The pieces on a square, bottom first."""
        if not self._valid_square(pos):
            return "invalid location"
        return list(self._stack(pos))

    def show_reserve(self, name):
        player = self._get_player(name)
        return 0 if player is None else player.get_reserve()

    def show_captured(self, name):
        player = self._get_player(name)
        return 0 if player is None else player.get_captured()


if __name__ == "__main__":
    game = FocusGame(("PlayerA", "R"), ("PlayerB", "G"))
    print(game.move_piece("PlayerA", (0, 0), (0, 1), 1))
    print(game.show_pieces((0, 1)))
