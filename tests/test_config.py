"""Settings: a missing or malformed token is a clear message and exit code 2, never a traceback."""

import pytest

from bot import __main__ as cli
from bot.config import ConfigError, load_settings

TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"


def test_valid_settings(tmp_path):
    s = load_settings({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "42",
                       "LOG_LEVEL": "debug", "DATABASE_PATH": str(tmp_path / "x.db")}, dotenv=None)
    assert s.dev_guild_id == 42 and s.log_level == "DEBUG"
    assert s.database_path == tmp_path / "x.db"


@pytest.mark.parametrize("env, message", [
    ({}, "DISCORD_TOKEN is not set"),
    ({"DISCORD_TOKEN": "hunter2"}, "has 1 dot-separated part where a bot token has three"),
    ({"DISCORD_TOKEN": "MTIz.abc.def"}, r"is too short to be a bot token \(12 characters"),
    ({"DISCORD_TOKEN": "Bot " + TOKEN}, "starts with 'Bot '"),
    ({"DISCORD_TOKEN": TOKEN.replace("G", "é")}, "contains characters a bot token never has"),
    ({"DISCORD_TOKEN": TOKEN + ".x"}, "has 4 dot-separated parts"),
    ({"DISCORD_TOKEN": "MTIz.GabcDE." + "a" * 40}, r"The first part of DISCORD_TOKEN is too short"),
    ({"DISCORD_TOKEN": TOKEN, "DEV_GUILD_ID": "abc"}, "DEV_GUILD_ID must be a Discord id"),
    ({"DISCORD_TOKEN": TOKEN, "LOG_LEVEL": "loud"}, "LOG_LEVEL must be one of"),
    ({"DISCORD_TOKEN": TOKEN, "CJK_FONT": "/no/such/font.ttf"}, "not a file"),
    ({"DISCORD_TOKEN": TOKEN, "EVENT_LOOP": "trio"}, "EVENT_LOOP must be one of uvloop, asyncio"),
    ({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "http"}, "ACTIVITY_PORT must be a port number"),
    ({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8080"}, "DISCORD_CLIENT_SECRET is not"),
])
def test_bad_settings_are_named(env, message):
    with pytest.raises(ConfigError, match=message):
        load_settings(env, dotenv=None)


def test_dotenv_file_is_read_and_environment_wins(tmp_path):
    env_file = tmp_path / ".env"
    env_file.write_text(f"DISCORD_TOKEN={TOKEN}\nLOG_LEVEL=WARNING\n")
    assert load_settings({}, dotenv=env_file).log_level == "WARNING"
    assert load_settings({"LOG_LEVEL": "ERROR"}, dotenv=env_file).log_level == "ERROR"


def test_cli_exits_2_with_a_message(monkeypatch, capsys, tmp_path):
    monkeypatch.chdir(tmp_path)  # no .env here
    monkeypatch.delenv("DISCORD_TOKEN", raising=False)
    assert cli.main([]) == 2
    assert "DISCORD_TOKEN is not set" in capsys.readouterr().err
    monkeypatch.setenv("DISCORD_TOKEN", "nope")
    assert cli.main(["sync"]) == 2
    assert "has 1 dot-separated part" in capsys.readouterr().err


def test_grace_period_and_scheduled_backups(tmp_path):
    plain = load_settings({"DISCORD_TOKEN": TOKEN, "DATABASE_PATH": str(tmp_path / "b.sqlite3")}, dotenv=None)
    assert (plain.departed_grace_days, plain.backup_interval_hours, plain.backup_keep) == (30, None, 7)
    assert plain.backup_dir == tmp_path / "backups"
    set_ = load_settings({"DISCORD_TOKEN": TOKEN, "DEPARTED_GRACE_DAYS": "0.5", "BACKUP_INTERVAL_HOURS": "6",
                          "BACKUP_KEEP": "3", "BACKUP_DIR": str(tmp_path / "x")}, dotenv=None)
    assert (set_.departed_grace_days, set_.backup_interval_hours, set_.backup_keep) == (0.5, 6, 3)
    assert set_.backup_dir == tmp_path / "x"
    for name, raw, words in (("DEPARTED_GRACE_DAYS", "-1", "number of days"),
                             ("DEPARTED_GRACE_DAYS", "nan", "number of days"),
                             ("BACKUP_INTERVAL_HOURS", "0", "number of hours"),
                             ("BACKUP_KEEP", "0", "how many backups")):
        with pytest.raises(ConfigError, match=words):
            load_settings({"DISCORD_TOKEN": TOKEN, name: raw}, dotenv=None)


def test_the_activity_is_off_unless_its_port_is_set(tmp_path):
    off = load_settings({"DISCORD_TOKEN": TOKEN}, dotenv=None)
    assert off.activity_port is None
    on = load_settings({"DISCORD_TOKEN": TOKEN, "ACTIVITY_PORT": "8443",
                        "DISCORD_CLIENT_SECRET": " s3cret "}, dotenv=None)
    assert (on.activity_port, on.activity_host, on.client_secret) == (8443, "127.0.0.1", "s3cret")
