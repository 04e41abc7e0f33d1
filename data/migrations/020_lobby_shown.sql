-- 020: whether a lobby's message shows what is stored. Every change of a lobby, challenge or
-- rematch counts its revision up; the bot notes the revision its message was last brought to,
-- and at start brings up to date every message a stop left behind (between a change and its
-- edit). The lobbies stored before count as shown.

ALTER TABLE lobbies ADD COLUMN revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0);
ALTER TABLE lobbies ADD COLUMN shown INTEGER NOT NULL DEFAULT 0 CHECK (shown >= 0);

CREATE INDEX lobbies_unshown ON lobbies (lobby_id) WHERE shown < revision;
