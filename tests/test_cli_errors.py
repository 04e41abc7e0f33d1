"""The operator's command lines, run as an operator runs them (a child process in a folder of its
own): every bad input ends in one sentence on stderr saying what is wrong and what to do, exit
code 1 or 2, never a traceback, and leaves nothing behind that it was not asked to make."""

from __future__ import annotations

import asyncio
import os
import socket
import sqlite3
import subprocess
import sys
from pathlib import Path

import pytest

ROOT = Path(__file__).resolve().parent.parent
TOKEN = "MTIzNDU2Nzg5MDEyMzQ1Njc4.GabcDE.abcdefghijklmnopqrstuvwxyz0123456789AB"
CORRUPT = "some notes, not a database\n"


def cli(folder: Path, module: str, *args: str, **env: str) -> subprocess.CompletedProcess[str]:
    """``python -m module args`` in ``folder``, with no token or database of the caller's."""
    clean = {k: v for k, v in os.environ.items()
             if not k.startswith(("DISCORD_", "DATABASE_", "HANAFUDA_DB", "DEV_GUILD"))}
    clean.update(PYTHONPATH=str(ROOT), RENDER_WORKERS="1", AI_WORKERS="1", **env)
    return subprocess.run([sys.executable, "-m", module, *args], cwd=folder, env=clean,
                          capture_output=True, text=True, timeout=120, check=False)


def sentence(run: subprocess.CompletedProcess[str]) -> str:
    """The one line of error a failed command printed (log records, timestamped, aside)."""
    assert run.returncode in (1, 2), (run.returncode, run.stdout, run.stderr)
    assert "Traceback" not in run.stdout + run.stderr, run.stderr
    lines = [line for line in run.stderr.splitlines() if line.strip() and not line[:4].isdigit()]
    assert len(lines) == 1 and lines[0].startswith("error: "), run.stderr
    assert ". " not in lines[0], lines[0]  # one sentence
    return lines[0]


@pytest.fixture
def closed_port():
    """A local port that refuses connections: bound (so nobody else takes it), never listening."""
    with socket.socket(socket.AF_INET, socket.SOCK_STREAM) as sock:
        sock.bind(("127.0.0.1", 0))
        yield sock.getsockname()[1]


@pytest.fixture
def corrupt(tmp_path: Path) -> Path:
    path = tmp_path / "corrupt.sqlite3"
    path.write_text(CORRUPT)
    return path


@pytest.fixture
def database(tmp_path: Path) -> Path:
    """A readable SQLite file (a backup copies any)."""
    path = tmp_path / "bot.sqlite3"
    with sqlite3.connect(path) as conn:
        conn.execute("CREATE TABLE notes (x)")
    conn.close()
    return path


def test_an_unknown_url_scheme_is_refused_and_makes_no_file(tmp_path):
    said = sentence(cli(tmp_path, "bot", "db", "migrate", "--database-url", "mysql://foo/bar"))
    assert "--database-url is a mysql:// URL, a database the bot cannot use: give a postgresql://" in said
    assert not list(tmp_path.iterdir())


def test_the_bot_refuses_an_unknown_scheme_before_it_starts(tmp_path):
    said = sentence(cli(tmp_path, "bot", DISCORD_TOKEN=TOKEN, DATABASE_URL="mysql://foo/bar"))
    assert "DATABASE_URL is a mysql:// URL" in said
    assert not list(tmp_path.iterdir())


def test_a_copy_to_an_unreachable_server_is_one_sentence(tmp_path, closed_port):
    from bot.store.schema import migrate_database

    asyncio.run(migrate_database(str(tmp_path / "bot.sqlite3")))  # a source ready to copy
    url = f"postgresql://nobody:secret@127.0.0.1:{closed_port}/x"
    said = sentence(cli(tmp_path, "bot", "db", "copy", "--from", "sqlite:///bot.sqlite3", "--to", url))
    assert said.startswith(f"error: cannot connect to the PostgreSQL database postgresql://nobody:***@"
                           f"127.0.0.1:{closed_port}/x (Connection refused): check that the server runs")
    assert "secret" not in said


@pytest.mark.parametrize("args", [["db", "status", "--database-url", "corrupt.sqlite3"],
                                  ["db", "purge-guild", "5", "--yes", "--database-url", "corrupt.sqlite3"]])
def test_a_file_that_is_not_a_database_is_named_so(tmp_path, corrupt, args):
    said = sentence(cli(tmp_path, "bot", *args))
    assert said.startswith("error: corrupt.sqlite3 is not an SQLite database")
    assert "give the path of the bot's database file, or restore a backup" in said
    assert corrupt.read_text() == CORRUPT


def test_the_bot_names_a_corrupt_database_before_it_contacts_discord(tmp_path, corrupt):
    said = sentence(cli(tmp_path, "bot", DISCORD_TOKEN=TOKEN, DATABASE_PATH=corrupt.name))
    assert said.startswith("error: corrupt.sqlite3 is not an SQLite database")


def test_a_backup_into_a_missing_folder_is_refused(tmp_path, database):
    said = sentence(cli(tmp_path, "bot", "db", "backup", "typo/backup.sqlite3",
                        "--database-url", database.name))
    assert said == ("error: the folder typo does not exist: create it, or give a backup path in "
                    "an existing folder")
    assert not (tmp_path / "typo").exists()


def test_the_preview_into_a_path_under_a_file_is_one_sentence(tmp_path):
    (tmp_path / "notes.txt").write_text("a file")
    said = sentence(cli(tmp_path, "rendering.preview", "notes.txt/out"))
    assert said == ("error: notes.txt/out lies under notes.txt, which is a file, not a folder: give "
                    "a folder to write the images into (created if missing)")


def test_the_store_bench_refuses_what_is_not_a_postgresql_server(tmp_path, closed_port):
    said = sentence(cli(tmp_path, "bot.bench", "store", "--runs", "1", "--database-url",
                        f"postgresql://nobody@127.0.0.1:{closed_port}/postgres"))
    assert "cannot connect to the PostgreSQL database" in said


@pytest.mark.parametrize("name", ["load", "activity"])
def test_a_bench_run_outside_the_project_folder_says_where_to_run_it(tmp_path, name):
    """Installed, the package has no tests/: the benches that drive the stand-in say so."""
    clean = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
    run = subprocess.run([sys.executable, "-m", "bot.bench", name, "--help"], cwd=tmp_path,
                         env=clean, capture_output=True, text=True, timeout=120, check=False)
    said = sentence(run)
    assert "run it from the project's folder" in said and run.stdout == ""


def test_the_bench_help_describes_every_benchmark(tmp_path):
    from bot.bench.__main__ import SUMMARIES, available

    run = cli(tmp_path, "bot.bench", "--help")
    assert run.returncode == 0 and not run.stderr, run.stderr
    text = " ".join(run.stdout.split())
    assert set(SUMMARIES) == set(available())
    for name, summary in SUMMARIES.items():
        assert f"{name} {summary}" in text
    assert "`python -m bot.bench NAME --help` gives a benchmark's options" in text


@pytest.mark.parametrize("name", ["backup", "engine", "load", "render", "store"])
def test_each_benchmark_has_its_own_help(name, capsys):
    from bot.bench.__main__ import main

    with pytest.raises(SystemExit) as done:
        main([name, "--help"])
    assert done.value.code == 0
    out = capsys.readouterr().out
    assert out.startswith(f"usage: python -m bot.bench {name}")
    described = out.split("\n\n")[1]  # the paragraph after the usage: what the bench measures
    assert len(described.split()) > 8 and not described.lstrip().startswith("options:")


@pytest.mark.parametrize(("args", "said"), [
    (["engine", "--runs", "0"], "argument --runs: takes 1 or more, got 0"),
    (["render", "--runs", "-1"], "argument --runs: takes 1 or more, got -1"),
    (["store", "--games", "0"], "argument --games: takes 1 or more, got 0"),
    (["backup", "--mb", "-1"], "argument --mb: takes 1 or more, got -1"),
    (["load", "--tables", "1", "--think-ms", "-5"], "argument --think-ms: takes 0 or more, got -5"),
    (["activity", "--tables", "1", "--ai-delay", "nan"], "argument --ai-delay: takes 0 or more, got nan"),
])
def test_a_bench_refuses_a_count_of_none_or_a_negative_pause(capsys, args, said):
    """Refused where it is typed, not met later as an empty median or a database constraint."""
    from bot.bench.__main__ import main

    with pytest.raises(SystemExit) as done:
        main(args)
    assert done.value.code == 2
    assert capsys.readouterr().err.splitlines()[-1].endswith(said)


@pytest.mark.parametrize(("args", "said"), [
    (["nogame"], "unknown game 'nogame'"),
    (["koikoi", "--players", "greedy"], "Koi-Koi is a game for two players"),
    (["koikoi", "--players", "greedy,bogus"], "unknown AI level 'bogus'"),
    (["koikoi", "--preset", "nope"], "unknown preset 'nope'"),
    (["koikoi", "--set", "nonsense=1"], "there is no rule option 'nonsense'"),
    (["koikoi", "--set", "rounds=abc"], "rounds takes a whole number, got 'abc'"),
    (["koikoi", "--set", "rounds"], "--set takes OPTION=VALUE, got 'rounds'"),
    (["koikoi", "--set", "rounds=-5"], "rounds must be a whole number from 0 to 1000"),
])
def test_the_simulator_refuses_a_bad_game_level_or_option_in_one_sentence(tmp_path, args, said):
    run = cli(tmp_path, "bot.games", "simulate", *args, "--games", "1")
    assert said in sentence(run) and run.returncode == 2 and run.stdout == ""


def test_the_simulator_plays_at_least_one_match(tmp_path):
    run = cli(tmp_path, "bot.games", "simulate", "koikoi", "--games", "-3")
    assert run.returncode == 2 and "Traceback" not in run.stderr and run.stdout == ""
    assert run.stderr.splitlines()[-1].endswith("argument --games: takes 1 or more, got -3")
    run = cli(tmp_path, "bot.games", "simulate", "koikoi", "--games", "1", "--set", "rounds=1")
    assert run.returncode == 0 and run.stdout.startswith("koikoi: 1 matches, ")


@pytest.mark.parametrize("args", [
    ["arena", "nogame"], ["arena", "koikoi", "--a", "bogus"], ["arena", "koikoi", "--players", "5"],
    ["arena", "koikoi", "--preset", "nope"], ["arena", "koikoi", "--set", "nonsense=1"],
    ["arena", "koikoi", "--rounds", "-3"], ["onestep", "nogame"], ["onestep", "koikoi", "--level", "bogus"],
    ["ratings", "nogame"],
])
def test_the_ai_studies_refuse_a_bad_game_level_or_rule_before_playing(tmp_path, args):
    run = cli(tmp_path, "bot.ai", *args)
    said = sentence(run)
    assert run.returncode == 2 and run.stdout == ""
    assert any(word in said for word in ("unknown game", "unknown AI level", "two players",
                                         "unknown preset", "no rule option", "rounds must be"))


@pytest.mark.parametrize(("args", "said"), [
    (["--plot", "missing/plot.png"], "argument --plot: there is no folder missing to write plot.png in"),
    (["--save", "missing/run.json"], "argument --save: there is no folder missing to write run.json in"),
    (["--save", "."], "argument --save: . is a folder; give the path of a file"),
    (["--level", "bogus"], "unknown AI level 'bogus'"),
])
def test_a_calibration_refuses_where_it_could_not_write_before_playing(tmp_path, args, said):
    """A calibration run takes hours: a place it cannot write its results is refused first."""
    run = cli(tmp_path, "bot.ai", "calibration", "koikoi", "--decisions", "1", *args)
    assert run.returncode == 2 and "Traceback" not in run.stderr and run.stdout == ""
    assert said in run.stderr.splitlines()[-1]
    assert list(tmp_path.iterdir()) == []
