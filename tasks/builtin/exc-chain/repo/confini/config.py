"""The Config object: look up values, resolve ${...} references, convert types."""

import re

from confini.errors import ConfigError, ConversionError, MissingKeyError
from confini.parser import DEFAULT_SECTION, parse

_MISSING = object()
_REFERENCE = re.compile(r"\$(\$|\{([A-Za-z0-9_.\-]+)\})")
_MAX_DEPTH = 10  # deeper than any sane config; stops reference cycles early

_BOOLEANS = {
    **dict.fromkeys(("1", "yes", "true", "on"), True),
    **dict.fromkeys(("0", "no", "false", "off"), False),
}


def _to_int(text):
    """Decimal, or 0x / 0o / 0b literals; leading zeros ("007") read as decimal."""
    try:
        return int(text, 0)
    except ValueError:
        return int(text, 10)


def _to_bool(text):
    return _BOOLEANS[text.strip().lower()]


class Config:
    """Parsed configuration. Section and key names are case-insensitive.

    A key missing from a section is looked up in the default section (the keys
    before the first header) before it counts as missing.
    """

    def __init__(self, sections, source="<string>"):
        self._sections = sections
        self.source = source

    def sections(self):
        """Names of the sections in the order they first appear, without the default one."""
        return [name for name in self._sections if name != DEFAULT_SECTION]

    def has(self, section, key):
        """True if get(section, key) would find a value."""
        try:
            self._lookup(section, key)
        except MissingKeyError:
            return False
        return True

    def _lookup(self, section, key):
        """Return (raw value, line) of a key, falling back to the default section."""
        section, key = section.lower(), key.lower()
        if section not in self._sections:
            raise MissingKeyError(f"no section [{section}]")
        values = self._sections[section]
        if key in values:
            return values[key]
        try:
            return self._sections[DEFAULT_SECTION][key]
        except KeyError:
            raise MissingKeyError(f"no key {key!r} in section [{section}]") from None

    def _resolve(self, section, key, depth=0):
        """Return (value with ${...} references replaced, line of the key)."""
        if depth > _MAX_DEPTH:
            raise ConfigError(f"references nested too deeply at [{section}] {key}")
        raw, line = self._lookup(section, key)

        def substitute(match):
            if match.group(1) == "$":
                return "$"
            target_section, _, target_key = match.group(2).rpartition(".")
            try:
                value, _ = self._resolve(target_section or section, target_key, depth + 1)
            except MissingKeyError:
                raise ConfigError(f"unknown reference ${{{match.group(2)}}}", line) from None
            return value

        return _REFERENCE.sub(substitute, raw), line

    def get(self, section, key, default=_MISSING):
        """The value as a string, with references resolved.

        Raises MissingKeyError when the key does not exist and no default is given.
        """
        if default is not _MISSING and not self.has(section, key):
            return default
        return self._resolve(section, key)[0]

    def _convert(self, section, key, convert, kind, default):
        if default is not _MISSING and not self.has(section, key):
            return default
        value, line = self._resolve(section, key)
        try:
            return convert(value)
        except ValueError:
            message = f"[{section}] {key}: expected {kind}, got {value!r}"
            raise ConversionError(message, line) from None

    def get_int(self, section, key, default=_MISSING):
        """The value as an int; accepts 0x, 0o and 0b prefixes."""
        return self._convert(section, key, _to_int, "an integer", default)

    def get_float(self, section, key, default=_MISSING):
        """The value as a float."""
        return self._convert(section, key, float, "a number", default)

    def get_bool(self, section, key, default=_MISSING):
        """The value as a bool: 1/yes/true/on or 0/no/false/off, in any case."""
        return self._convert(section, key, _to_bool, "a boolean", default)

    def get_list(self, section, key, default=_MISSING, sep=","):
        """The value split at sep, items stripped, empty items dropped."""
        if default is not _MISSING and not self.has(section, key):
            return default
        value = self._resolve(section, key)[0]
        return [item.strip() for item in value.split(sep) if item.strip()]

    def as_dict(self):
        """Every section as a plain dict of resolved strings, default keys merged in."""
        defaults = self._sections[DEFAULT_SECTION]
        result = {}
        for name in self.sections():
            keys = dict.fromkeys([*defaults, *self._sections[name]])
            result[name] = {key: self.get(name, key) for key in keys}
        return result


def loads(text, source="<string>"):
    """Parse configuration text into a Config."""
    return Config(parse(text), source)


def load(path):
    """Read and parse a UTF-8 configuration file."""
    with open(path, encoding="utf-8") as handle:
        return loads(handle.read(), str(path))
