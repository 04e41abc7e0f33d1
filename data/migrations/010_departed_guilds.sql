-- 010: servers that removed the bot. Their running games are cancelled (stakes refunded) when
-- the bot leaves, and the server is marked here with the time; its rows are kept for a grace
-- period in case the bot is added again (which clears the mark), then purged in one
-- transaction (bot.store.purge).

CREATE TABLE departed_guilds (
    guild_id    INTEGER NOT NULL PRIMARY KEY,
    departed_at INTEGER NOT NULL
) STRICT, WITHOUT ROWID;

CREATE INDEX departed_guilds_by_time ON departed_guilds (departed_at);
