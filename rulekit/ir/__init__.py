"""The typed intermediate form between the checked rules model and the generated code.

It holds what a name stands for where it is read (:mod:`.names`: a bound value, a counter,
a seat, a group, a symbol…, resolved by one function per place a name may be read, which
the compiler and the code generator both call) and the steps that open an action
(:mod:`.steps`): what the compiler resolved about each ``require`` and choice, which the
code generator turns into an action's check, listing and option.
"""

from . import names
from .steps import ChooseBlind, ChooseCards, ChooseValue, Forced, Require, Step

__all__ = ["names", "Step", "Require", "Forced", "ChooseCards", "ChooseBlind", "ChooseValue"]
