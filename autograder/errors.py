"""The one exception the CLI turns into a single error line."""


class AutograderError(Exception):
    """A problem with the user's input (a missing notebook, an unknown assignment, ...)."""
