"""One reading of a database's URL or path for every entry point: the store, the bot's settings
and the ``db`` commands accept the same forms and refuse the same others, in one sentence."""

from __future__ import annotations

import sqlite3

import pytest

from bot.__main__ import main
from bot.config import ConfigError, load_settings
from bot.store import Store
from bot.store.db import database_target
from bot.store.target import DatabaseUnusable, TargetError, operating_on, parse_target

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


@pytest.mark.parametrize("raw, kind, location", [
    ("sqlite:///data/x.sqlite3", "sqlite", "data/x.sqlite3"),
    ("sqlite:////srv/bot/x.sqlite3", "sqlite", "/srv/bot/x.sqlite3"),
    ("SQLite:///data/my%20bot.sqlite3", "sqlite", "data/my bot.sqlite3"),
    ("data/x.sqlite3", "sqlite", "data/x.sqlite3"),
    ("  /srv/bot/x.sqlite3\n", "sqlite", "/srv/bot/x.sqlite3"),
    (":memory:", "sqlite", ":memory:"),
    ("postgresql://bot:secret@db.internal:5433/hanafuda", "postgresql",
     "postgresql://bot:secret@db.internal:5433/hanafuda"),
    ("postgres://bot@127.0.0.1/hanafuda", "postgresql", "postgres://bot@127.0.0.1/hanafuda"),
    ("PostgreSQL://bot@127.0.0.1/hanafuda", "postgresql", "postgresql://bot@127.0.0.1/hanafuda"),
])
def test_every_form_reads_as_one_location(raw, kind, location):
    target = parse_target(raw)
    assert (target.kind, target.location) == (kind, location)
    assert parse_target(target.location) == target  # a location reads back as itself


@pytest.mark.parametrize("raw, words", [
    ("mysql://foo/bar", "--database-url is a mysql:// URL, a database the bot cannot use: give"),
    ("file:///tmp/x.sqlite3", "is a file:// URL"),
    ("sqlite://host/x.sqlite3", "names a host (host) where an sqlite:// URL has none"),
    ("sqlite:///", "names no file: write sqlite:///relative/path or sqlite:////absolute/path"),
    ("sqlite:///x.sqlite3?mode=ro", "options after the file's name"),
    ("   ", "--database-url is empty"),
    ("postgresql://bot:secret@[::1/x", "is not a PostgreSQL URL libpq can read"),
])
def test_other_forms_are_refused_in_one_sentence(raw, words):
    with pytest.raises(TargetError) as refused:
        parse_target(raw, "--database-url")
    assert words in str(refused.value)
    assert "secret" not in str(refused.value) and "\n" not in str(refused.value)


def test_the_store_and_the_default_read_through_the_same_parser(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    monkeypatch.setenv("DATABASE_URL", "sqlite:///from-env.sqlite3")
    assert database_target() == "from-env.sqlite3"
    monkeypatch.setenv("DATABASE_URL", "mysql://foo/bar")
    with pytest.raises(TargetError, match="DATABASE_URL is a mysql:// URL"):
        database_target()
    assert not list(tmp_path.iterdir())  # nothing created under a name like "mysql:"


async def test_an_sqlite_url_opens_the_file_it_names(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    async with await Store.open("sqlite:///data/bot.sqlite3") as store:
        assert store.path == "data/bot.sqlite3"
    assert (tmp_path / "data" / "bot.sqlite3").is_file()
    assert not (tmp_path / "sqlite:").exists()


def test_the_settings_take_every_form(tmp_path):
    def settings(**env):
        return load_settings({"DISCORD_TOKEN": TOKEN, **env}, dotenv=None)

    file = settings(DATABASE_URL=f"sqlite:///{tmp_path}/a.sqlite3")
    assert (file.database_path, file.database_url) == (tmp_path / "a.sqlite3", None)
    assert settings(DATABASE_PATH=f"sqlite:///{tmp_path}/b.sqlite3").database_path == tmp_path / "b.sqlite3"
    pg = settings(DATABASE_PATH=str(tmp_path / "c.sqlite3"), DATABASE_URL="postgres://bot@127.0.0.1/x")
    assert (pg.database_url, pg.backup_dir) == ("postgres://bot@127.0.0.1/x", tmp_path / "backups")
    with pytest.raises(ConfigError, match="DATABASE_URL is a mysql:// URL"):
        settings(DATABASE_URL="mysql://foo/bar")
    with pytest.raises(ConfigError, match="DATABASE_PATH names no file"):
        settings(DATABASE_PATH="sqlite:///")


def test_db_migrate_takes_the_sqlite_url_db_copy_suggests(tmp_path, monkeypatch):
    monkeypatch.chdir(tmp_path)
    assert main(["db", "migrate", "--database-url", "sqlite:///data/x.sqlite3"]) == 0
    assert (tmp_path / "data" / "x.sqlite3").is_file() and not (tmp_path / "sqlite:").exists()
    absolute = tmp_path / "abs.sqlite3"
    assert main(["db", "status", "--database-url", f"sqlite:///{absolute}"]) == 1  # nothing yet
    assert main(["db", "migrate", "--database-url", f"sqlite:///{absolute}"]) == 0
    assert absolute.is_file()


@pytest.mark.parametrize("write, words", [
    (lambda path: path.write_text("some notes, not a database\n"), "is not an SQLite database"),
    (lambda path: path.mkdir(), "is a folder, not an SQLite file"),
])
async def test_an_unusable_file_is_named_with_what_to_do(tmp_path, write, words):
    path = tmp_path / "bot.sqlite3"
    write(path)
    with pytest.raises(DatabaseUnusable) as unusable, operating_on(str(path)):
        async with await Store.open(path):
            pass
    assert words in str(unusable.value) and str(path) in str(unusable.value)


def test_other_errors_are_left_alone(tmp_path):
    with pytest.raises(sqlite3.IntegrityError), operating_on(str(tmp_path / "x.sqlite3")):
        raise sqlite3.IntegrityError("UNIQUE constraint failed")  # a caller's mistake, not the file
    with pytest.raises(KeyError), operating_on("postgresql://127.0.0.1/x"):
        raise KeyError("a bug keeps its traceback")
