"""Exceptions raised by confini. All of them derive from ConfigError."""


class ConfigError(Exception):
    """Base class of every error confini raises.

    ``line`` is the 1-based line of the source text the error is about, or
    None when the error has no place in the text (a key that is missing).
    """

    def __init__(self, message, line=None):
        super().__init__(message)
        self.message = message
        self.line = line

    def __str__(self):
        if self.line is None:
            return self.message
        return f"{self.message} (line {self.line})"


class ParseError(ConfigError):
    """The text is not valid configuration syntax."""


class MissingKeyError(ConfigError, KeyError):
    """A section or key that was asked for does not exist and no default was given.

    Also a KeyError, so ``except KeyError`` keeps working for callers that
    treat a Config like a mapping.
    """

    def __str__(self):
        # KeyError.__str__ would wrap the message in quotes.
        return ConfigError.__str__(self)


class ConversionError(ConfigError, ValueError):
    """A value exists but cannot be read as the type that was asked for."""
