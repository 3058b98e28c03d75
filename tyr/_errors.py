"""The errors tyr raises when a value does not match its annotation."""


class ShapeError(TypeError):
    """A tensor's shape, dtype or device does not match its annotation at a call boundary.

    The message names the function, the parameter (or the return value), the
    dimension, the size it was bound to and where, and the size found.
    """


class AnnotationError(TypeError):
    """An annotation tyr cannot read (a malformed dimension, an unsupported form)."""
