"""Every option of a slash command checked against what the command declares, before discord.py reads it.

Discord's own client offers only an option's declared type, its choices and its range; a modified client sends
anything: an integer where the command takes text, ``"sixteen"`` for a number of hands, ``-5`` for an hour of the
day, a user id of 30 digits. discord.py passes such values through to the command as they are (a ``str`` or
``Range`` option is not checked against its type, its choices or its bounds), and a number or a user that does
not parse makes it fail before the command runs. ``check_options`` refuses them first, naming the option
(``KlaverjasTree.interaction_check``), so nothing is changed and the person is told what the option takes.
"""

from __future__ import annotations

import math
import re
from collections.abc import Mapping, Sequence
from typing import Any

from discord import AppCommandOptionType, app_commands

# A Discord id: a snowflake, at most 2**63 - 1 (the store keeps ids as signed 64-bit integers), so 1 to 18
# digits, or 19 beginning with 1-8 (ids reach 9 * 10**18 only in the 2080s). ASCII digits, no leading zero.
SNOWFLAKE = r"(?:[1-9][0-9]{0,17}|[1-8][0-9]{18})"
_SNOWFLAKE = re.compile(SNOWFLAKE)
# Discord keeps integer options within what a JSON number holds exactly.
INTEGER_LIMIT = 2**53
STRING_LIMIT = 6000  # characters of a string option, at most
# Where Discord's ``resolved`` data holds the objects an option of each kind names.
RESOLVED = {AppCommandOptionType.user: ("users",), AppCommandOptionType.channel: ("channels",),
            AppCommandOptionType.role: ("roles",), AppCommandOptionType.mentionable: ("users", "roles"),
            AppCommandOptionType.attachment: ("attachments",)}


class BadOption(app_commands.AppCommandError):
    """An option's value that is not what the command declares; ``problem`` is a catalog key's last part
    (``error.option_<problem>``), ``params`` its values besides the option's name and kind."""

    def __init__(self, parameter: app_commands.Parameter, problem: str, **params: Any) -> None:
        super().__init__(f"option {parameter.display_name}: {problem} {params}")
        self.option = parameter.display_name
        self.kind = parameter.type
        self.problem = problem
        self.params = params
        self.choices = [choice.name for choice in parameter.choices]


def check_options(command: app_commands.Command[Any, ..., Any], options: Sequence[Mapping[str, Any]],
                  resolved: Mapping[str, Any], *, autocomplete: bool = False) -> None:
    """Refuse (``BadOption``) the first option whose value the command does not take, or a required option
    left out. In an autocomplete the focused option is what is being typed: any text."""
    parameters = {parameter.display_name: parameter for parameter in command.parameters}
    given: set[str] = set()
    for option in options:
        parameter = parameters.get(option.get("name"))  # type: ignore[arg-type]
        if parameter is None:
            continue  # discord.py ignores an option the command does not have
        given.add(parameter.display_name)
        if autocomplete and option.get("focused"):
            if not isinstance(option.get("value"), str):
                raise BadOption(parameter, "kind")
            continue
        _check(parameter, option, resolved)
    if not autocomplete:
        for parameter in parameters.values():
            if parameter.required and parameter.display_name not in given:
                raise BadOption(parameter, "missing")


def _check(parameter: app_commands.Parameter, option: Mapping[str, Any], resolved: Mapping[str, Any]) -> None:
    value: Any = option.get("value")
    kind = parameter.type
    if option.get("type") != kind.value or not _is_kind(kind, value, resolved):
        raise BadOption(parameter, "kind")
    if parameter.choices:
        if value not in {choice.value for choice in parameter.choices}:
            raise BadOption(parameter, "choice")
        return
    low, high = parameter.min_value, parameter.max_value
    if kind is AppCommandOptionType.string:
        size = len(value)  # a string option's bounds are on its length
        if (low is not None and size < low) or (high is not None and size > high):
            raise BadOption(parameter, "length", low=_number(low, 0), high=_number(high, STRING_LIMIT))
    elif kind in (AppCommandOptionType.integer, AppCommandOptionType.number) and (
            (low is not None and value < low) or (high is not None and value > high)):
        raise BadOption(parameter, "range", low=_number(low, -INTEGER_LIMIT), high=_number(high, INTEGER_LIMIT))


def _is_kind(kind: AppCommandOptionType, value: object, resolved: Mapping[str, Any]) -> bool:
    """Whether ``value`` is a value of this kind of option as Discord sends one."""
    if kind is AppCommandOptionType.string:
        return isinstance(value, str)
    if kind is AppCommandOptionType.boolean:
        return isinstance(value, bool)
    if kind is AppCommandOptionType.integer:
        return isinstance(value, int) and not isinstance(value, bool) and abs(value) <= INTEGER_LIMIT
    if kind is AppCommandOptionType.number:
        return isinstance(value, int | float) and not isinstance(value, bool) and math.isfinite(value) \
            and abs(value) <= INTEGER_LIMIT
    if kind in RESOLVED:
        # An id, of something Discord resolved for this interaction (else discord.py hands the command a bare id).
        return isinstance(value, str) and _SNOWFLAKE.fullmatch(value) is not None and any(
            value in (resolved.get(key) or {}) for key in RESOLVED[kind])
    return False


def _number(value: float | None, default: int) -> str:
    return f"{value:g}" if value is not None else str(default)
