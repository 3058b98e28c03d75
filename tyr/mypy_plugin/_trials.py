"""mypy's error filters, as a hook sees them.

mypy types some calls more than once with their errors filtered: each item of an overloaded
callee is tried with errors discarded (an error means "not this item"), and some values are
typed with errors held to report later (an assignment's right-hand side).  mypy offers plugins
no accessor for these filters; they are `Errors._watchers`, innermost last.
"""

from __future__ import annotations

from mypy.checker import TypeChecker
from mypy.errorcodes import ErrorCode
from mypy.errors import ErrorWatcher
from mypy.nodes import Context
from mypy.plugin import CheckerPluginInterface


def _watchers(api: CheckerPluginInterface) -> list[ErrorWatcher]:
    return api.msg.errors._watchers if isinstance(api, TypeChecker) else []


def _discards(watcher: ErrorWatcher) -> bool:
    """Whether errors caught by `watcher` are thrown away (a filter that saves them reports them later)."""
    return bool(watcher._filter) and watcher._filtered is None


def failed_attempt(api: CheckerPluginInterface) -> bool:
    """Whether the call being typed has errors that mypy is collecting to throw away: an item of an
    overloaded callee that does not match (`view(dtype)` for `x.view(())`).  mypy runs the hook for
    such an item too, but its result is not the value.  An error in the call's arguments under a
    filter that holds errors to report them (`img_size` of unknown type in an assignment's value)
    is real, and the value is assigned.  (Read before the hook runs: an error the hook reports
    itself is no sign of that.)"""
    watchers = _watchers(api)
    return bool(watchers) and watchers[-1].has_new_errors() and _discards(watchers[-1])


def has_new_errors(api: CheckerPluginInterface) -> bool:
    """Whether the value being typed has errors so far under some filter (the hook's own included)."""
    return any(watcher.has_new_errors() for watcher in _watchers(api))


def fail_call(api: CheckerPluginInterface, message: str, context: Context, code: ErrorCode) -> None:
    """Report a shape error in a call of torch's.

    Where mypy is trying an item of an overloaded callee (`F.max_pool1d(..., return_indices=True)`)
    and its own check of the arguments passed, that item is the one the call resolves to: the
    shape error does not depend on which item it is.  Reported inside the trial it would only
    make mypy try the next item, and end in "No overload variant matches" or in another item's
    argument errors; it is reported beneath the trial, and the item matches.  (Not in unreachable
    code, which mypy also types with errors discarded, or within another discarding filter.)
    """
    watchers = _watchers(api)
    if watchers and _overload_trial(api, watchers):
        trial = watchers.pop()
        try:
            api.fail(message, context, code=code)
        finally:
            watchers.append(trial)
        return
    api.fail(message, context, code=code)


def _overload_trial(api: CheckerPluginInterface, watchers: list[ErrorWatcher]) -> bool:
    innermost = watchers[-1]
    return (
        isinstance(api, TypeChecker)
        and innermost.filter_revealed_type  # (the mark of mypy's overload trials)
        and _discards(innermost)
        and not innermost.has_new_errors()
        and not any(_discards(w) for w in watchers[:-1])
        and not api.binder.is_unreachable()
    )
