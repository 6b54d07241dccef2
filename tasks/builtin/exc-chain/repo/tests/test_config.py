import pytest

from confini import Config, load, loads

SAMPLE = """\
name = demo
retries = 3

[server]
host = example.org
port = 8080
timeout = 2.5
debug = yes
url = http://${host}:${port}/${name}
tags = web, api,, edge

[paths]
home = "/srv/${server.host}"
price = $$5
"""


@pytest.fixture
def cfg():
    return loads(SAMPLE)


def test_sections_in_order(cfg):
    assert cfg.sections() == ["server", "paths"]


def test_get_strings_and_defaults_section(cfg):
    assert cfg.get("server", "host") == "example.org"
    assert cfg.get("server", "retries") == "3"
    assert cfg.get("SERVER", "Host") == "example.org"


def test_references_resolve_within_and_across_sections(cfg):
    assert cfg.get("server", "url") == "http://example.org:8080/demo"
    assert cfg.get("paths", "home") == "/srv/example.org"
    assert cfg.get("paths", "price") == "$5"


def test_typed_getters(cfg):
    assert cfg.get_int("server", "port") == 8080
    assert cfg.get_int("paths", "retries") == 3
    assert cfg.get_float("server", "timeout") == 2.5
    assert cfg.get_bool("server", "debug") is True
    assert cfg.get_list("server", "tags") == ["web", "api", "edge"]


def test_int_literals():
    c = loads("[n]\nhex = 0x1F\nbin = 0b101\nzeros = 007\nneg = -12\n")
    assert [c.get_int("n", k) for k in ("hex", "bin", "zeros", "neg")] == [31, 5, 7, -12]


def test_bool_spellings():
    c = loads("[b]\na = On\nb = FALSE\nc = 1\nd = no\n")
    assert [c.get_bool("b", k) for k in "abcd"] == [True, False, True, False]


def test_defaults_are_returned_only_for_missing_keys(cfg):
    assert cfg.get("server", "missing", default="x") == "x"
    assert cfg.get_int("server", "missing", default=None) is None
    assert cfg.get_bool("server", "missing", default=False) is False
    assert cfg.get_list("server", "missing", default=[]) == []
    assert cfg.get_int("server", "port", default=1) == 8080


def test_has(cfg):
    assert cfg.has("server", "port")
    assert cfg.has("paths", "name")
    assert not cfg.has("server", "nope")
    assert not cfg.has("nowhere", "port")


def test_as_dict_merges_defaults(cfg):
    result = cfg.as_dict()
    assert result["paths"] == {"name": "demo", "retries": "3", "home": "/srv/example.org", "price": "$5"}


def test_load_reads_a_file(tmp_path):
    path = tmp_path / "app.ini"
    path.write_text("[db]\nuser = admin\n", encoding="utf-8")
    c = load(path)
    assert isinstance(c, Config)
    assert c.get("db", "user") == "admin"
    assert c.source == str(path)
