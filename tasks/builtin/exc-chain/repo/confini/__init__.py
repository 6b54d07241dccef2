"""confini: read INI-style configuration files into typed values.

    >>> from confini import loads
    >>> cfg = loads('''
    ... [server]
    ... port = 8080
    ... debug = yes
    ... ''')
    >>> cfg.get_int("server", "port")
    8080
    >>> cfg.get_bool("server", "debug")
    True
"""

from confini.config import Config, load, loads
from confini.errors import ConfigError, ConversionError, MissingKeyError, ParseError

__all__ = [
    "Config",
    "ConfigError",
    "ConversionError",
    "MissingKeyError",
    "ParseError",
    "load",
    "loads",
]

__version__ = "1.2.0"
