"""The analysis' error, apart from its modules so that every command can name it (app/errors.py)
without importing polars, whose import and exit cost a command that does no analysis most of a
second."""


class AnalysisError(Exception):
    """A database or run that cannot be analysed; the message is meant for the user."""
