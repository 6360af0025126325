"""The typed intermediate form between the checked rules model and the generated code.

So far it holds the steps that open an action (:mod:`.steps`): what the compiler resolved
about each ``require`` and choice, which the code generator turns into an action's check,
listing and option.
"""

from .steps import ChooseBlind, ChooseCards, ChooseValue, Forced, Require, Step

__all__ = ["Step", "Require", "Forced", "ChooseCards", "ChooseBlind", "ChooseValue"]
