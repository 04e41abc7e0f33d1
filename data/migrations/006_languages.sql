-- 006: languages. A server may choose the language of its public tables (empty: the server's
-- own Discord locale), and each user is remembered in the language their client last showed
-- (for DMs, which carry no locale) or the one they chose with /language (which wins).

ALTER TABLE guild_settings ADD COLUMN language TEXT NOT NULL DEFAULT ''
    CHECK (language IN ('', 'en', 'ja', 'ko'));

CREATE TABLE user_languages (
    user_id    INTEGER PRIMARY KEY,
    seen       TEXT    NOT NULL DEFAULT '' CHECK (seen IN ('', 'en', 'ja', 'ko')),
    chosen     TEXT    NOT NULL DEFAULT '' CHECK (chosen IN ('', 'en', 'ja', 'ko')),
    updated_at INTEGER NOT NULL
) WITHOUT ROWID;
