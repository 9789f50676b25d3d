"""``hexkit rules``: a game's rules summary, the variant's rules in words (``describe()``),
its options and front-ends."""

from __future__ import annotations

import argparse

from hexkit import plugins


def configure(p: argparse.ArgumentParser) -> None:
    p.add_argument("game", nargs="?", default=None,
                   help="game name, e.g. hexbaron or 'focus(board=cross)'; without one, the "
                        "installed games are listed")
    p.add_argument(
        "-o", "--option", action="append", default=[], metavar="KEY=VALUE",
        help="describe the variant with this option (repeatable), e.g. -o config=level3",
    )


def run(args: argparse.Namespace) -> int:
    reg = plugins.registry()
    if args.game is None:
        from hexkit.commands.games import game_lines

        print("Name a game: hexkit rules GAME [-o KEY=VALUE]. The installed games:")
        for line in game_lines(reg):
            print(f"  {line}")
        return 2
    name, inline = plugins.parse_game_string(args.game)
    spec = reg.game_spec(name)
    given = {**inline, **plugins.parse_option_pairs(args.option)}
    game = reg.load_game(name, **given)
    print(f"{game}: {spec.description}")
    print()
    summary, variant = spec.rules.strip(), game.describe().strip()
    print(summary or variant or "(this game's plugin provides no rules summary)")
    if variant and variant != summary:
        # The summary speaks of the game and its variants; describe() of this one in full.
        print()
        print(f"This variant, {game}:")
        print(variant)
    if spec.options:
        print()
        print("Options (-o key=value), with this variant's values:")
        rows = []
        for o in spec.options:
            choices = f" [{'|'.join(str(c) for c in o.choices)}]" if o.choices else ""
            value = game.options.get(o.name, o.default)
            rows.append((f"{o.name}={'auto' if value is None else value}{choices}",
                         o.help))
        width = max(len(left) for left, _ in rows)
        for left, help_text in rows:
            print(f"  {left:<{width}}  {help_text}".rstrip())
    if spec.frontends:
        print()
        print(f"Front-ends (hexkit play {name} --frontend NAME): "
              f"{', '.join(sorted(spec.frontends))}")
    print()
    print(bots_text(name, reg))
    return 0


def bots_text(name: str, registry: plugins.Registry) -> str:
    """The bots that play the game and its named levels, as ``hexkit rules`` shows them
    (lines of at most 100 columns)."""
    import textwrap

    from hexkit.bots.levels import bot_menu

    menu = bot_menu(name, registry)
    lines = [f"Levels (hexkit play {name} --p2 bot:easy; 1 is the weakest):"]
    rows = [(f"{lv.number}  {lv.spec}", lv.bot, lv.about) for lv in menu.levels]
    left_width = max(len(r[0]) for r in rows)
    bot_width = max(len(r[1]) for r in rows)
    for left, bot, about in rows:
        line = f"  {left:<{left_width}}  {bot:<{bot_width}}  {about}".rstrip()
        lines += textwrap.wrap(line, 100, subsequent_indent=" " * (left_width + bot_width + 6))
    lines.append("Bots (--p2 NAME or NAME:SETTINGS):")
    for b in menu.bots:
        lines += textwrap.wrap(f"{b.name}: {b.settings or b.description}", 100,
                               initial_indent="  ", subsequent_indent="      ")
    return "\n".join(lines)
