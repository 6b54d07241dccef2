"""Hidden tests for get_bool() on values that are not booleans (copied in by the grader)."""

import pytest

from confini import ConfigError, ConversionError, MissingKeyError, loads

TEXT = """\
[features]
debug = maybe
verbose =
level = 2
copy = ${level}
cache = Off
"""


@pytest.fixture
def cfg():
    return loads(TEXT)


def test_get_bool_rejects_a_word_that_is_not_a_boolean(cfg):
    with pytest.raises(ConversionError) as info:
        cfg.get_bool("features", "debug")
    assert str(info.value) == "[features] debug: expected a boolean, got 'maybe' (line 2)"
    assert info.value.line == 2


def test_get_bool_error_is_a_config_error_and_a_value_error(cfg):
    with pytest.raises(ConfigError):
        cfg.get_bool("features", "level")
    with pytest.raises(ValueError):
        cfg.get_bool("features", "level")


def test_get_bool_rejects_an_empty_value(cfg):
    with pytest.raises(ConversionError, match="expected a boolean, got ''"):
        cfg.get_bool("features", "verbose")


def test_get_bool_error_reports_the_resolved_value(cfg):
    with pytest.raises(ConversionError, match="got '2'") as info:
        cfg.get_bool("features", "copy")
    assert info.value.line == 5


def test_get_bool_error_has_a_clean_traceback(cfg):
    with pytest.raises(ConversionError) as info:
        cfg.get_bool("features", "debug")
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__ is True


def test_get_bool_error_is_not_a_key_error(cfg):
    with pytest.raises(ConfigError) as info:
        cfg.get_bool("features", "debug")
    assert not isinstance(info.value, KeyError)


def test_get_bool_still_reads_booleans(cfg):
    assert cfg.get_bool("features", "cache") is False
    assert loads("[f]\nx = TRUE \n").get_bool("f", "x") is True


def test_get_bool_missing_key_is_still_a_missing_key_error(cfg):
    with pytest.raises(MissingKeyError):
        cfg.get_bool("features", "nonexistent")
    assert cfg.get_bool("features", "nonexistent", default=True) is True
