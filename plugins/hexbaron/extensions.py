"""Collecting what extension plugins add to Hex Baron, once, when a game is built.

Each of Hex Baron's own hooks (``hexbaron.hookspecs``) is called plugin by plugin, so a
problem names the plugin, and the ``extensions`` game option can pick which plugins take
part. The result is a :class:`~hexbaron.catalogue.Catalogue`: plain objects that rule code
uses directly.
"""

from __future__ import annotations

from collections.abc import Callable
from functools import partial
from typing import Any

import pluggy

from hexbaron.catalogue import Catalogue
from hexbaron.rules import builtin_catalogue
from hexbaron.verbs import CommandType
from hexkit.errors import OptionError, PluginError

#: Hook name -> the catalogue method that takes what the hook registers.
_HOOKS: tuple[tuple[str, str], ...] = (
    ("hexbaron_register_terrains", "add_terrain"),
    ("hexbaron_register_resources", "add_resource"),
    ("hexbaron_register_pieces", "add_piece"),
    ("hexbaron_register_commands", "add_command"),
    ("hexbaron_register_setups", "add_setup"),
)


def extension_names(pm: pluggy.PluginManager | None) -> list[str]:
    """Names of the plugins that implement at least one Hex Baron hook."""
    from hexkit.plugins import implementers

    return [] if pm is None else implementers(pm, (hook_name for hook_name, _ in _HOOKS))


def build_catalogue(pm: pluggy.PluginManager | None, selection: str = "all") -> Catalogue:
    """The built-in catalogue plus what the selected extension plugins register.

    ``selection`` is ``all``, ``none``, or plugin names joined by ``+``.
    """
    catalogue = builtin_catalogue()
    selection = selection.strip()
    if selection == "none" or pm is None:
        catalogue.check()
        return catalogue
    installed = extension_names(pm)
    wanted: set[str] | None = None
    if selection != "all":
        wanted = {w.strip() for w in selection.split("+") if w.strip()}
        unknown = sorted(wanted - set(installed))
        if unknown or not wanted:
            listing = ", ".join(installed) or "none installed"
            raise OptionError(f"extensions: no Hex Baron extension called "
                              f"{' or '.join(unknown) or repr(selection)} (installed: {listing}; "
                              "or all, none)")
    from hexkit.plugins import call_registrars

    for hook_name, method in _HOOKS:
        adder: Callable[..., None] = getattr(catalogue, method)
        call_registrars(pm, hook_name, partial(_register, hook_name, adder), only=wanted,
                        who="hexbaron extension '{}'".format)
    catalogue.check()
    return catalogue


def _register(hook_name: str, adder: Callable[..., None], plugin: str) -> Callable[..., None]:
    """The ``register`` function a Hex Baron extension's hook is called with."""
    origin = f"hexbaron extension '{plugin}'"

    def register(*item: Any) -> None:
        if hook_name == "hexbaron_register_commands" and not (
                len(item) == 1 and isinstance(item[0], CommandType)):
            shown = type(item[0]).__name__ if len(item) == 1 else f"{len(item)} things"
            raise PluginError(f"{origin}: registered {shown}, not a CommandType instance")
        adder(*item, origin=origin)

    return register
