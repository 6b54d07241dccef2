import pytest

from confini import ConfigError, ConversionError, MissingKeyError, ParseError, loads

TEXT = """\
[server]
port = eighty
ratio = 1.2.3
link = ${nowhere}
loop_a = ${loop_b}
loop_b = ${loop_a}
"""


@pytest.fixture
def cfg():
    return loads(TEXT)


def test_hierarchy():
    for cls in (ParseError, MissingKeyError, ConversionError):
        assert issubclass(cls, ConfigError)
    assert issubclass(MissingKeyError, KeyError)
    assert issubclass(ConversionError, ValueError)


def test_missing_key_error(cfg):
    with pytest.raises(MissingKeyError) as info:
        cfg.get("server", "host")
    assert str(info.value) == "no key 'host' in section [server]"
    assert info.value.line is None


def test_missing_section_error(cfg):
    with pytest.raises(MissingKeyError, match=r"no section \[client\]"):
        cfg.get("client", "host")


@pytest.mark.parametrize("getter", ["get", "get_int", "get_float", "get_bool", "get_list"])
def test_every_getter_reports_a_missing_key_as_missing(cfg, getter):
    with pytest.raises(MissingKeyError):
        getattr(cfg, getter)("server", "host")


def test_missing_key_error_hides_the_internal_lookup(cfg):
    with pytest.raises(MissingKeyError) as info:
        cfg.get("server", "host")
    assert info.value.__cause__ is None
    assert info.value.__suppress_context__ is True


def test_bad_int_names_section_key_value_and_line(cfg):
    with pytest.raises(ConversionError) as info:
        cfg.get_int("server", "port")
    assert str(info.value) == "[server] port: expected an integer, got 'eighty' (line 2)"
    assert info.value.line == 2


def test_bad_float(cfg):
    with pytest.raises(ConversionError, match="expected a number, got '1.2.3'") as info:
        cfg.get_float("server", "ratio")
    assert info.value.line == 3


def test_conversion_errors_have_clean_tracebacks(cfg):
    # The ValueError from int()/float() is an implementation detail: it must
    # not show up as "During handling of the above exception ..." for users.
    for getter, key in (("get_int", "port"), ("get_float", "ratio")):
        with pytest.raises(ConversionError) as info:
            getattr(cfg, getter)("server", key)
        assert info.value.__cause__ is None
        assert info.value.__suppress_context__ is True


def test_unknown_reference(cfg):
    with pytest.raises(ConfigError, match=r"unknown reference \$\{nowhere\}") as info:
        cfg.get("server", "link")
    assert info.value.line == 4
    assert not isinstance(info.value, MissingKeyError)


def test_reference_cycle_is_reported(cfg):
    with pytest.raises(ConfigError, match="nested too deeply"):
        cfg.get("server", "loop_a")
