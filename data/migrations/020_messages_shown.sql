-- 020: whether the message of a lobby or a tournament shows what is stored, and which
-- interaction posted a lobby's message. Every change of its row that the message shows counts
-- the row's revision up; the bot notes the revision the message was last brought to, and at
-- start brings up to date every message a stop left behind (between a change and its edit).
-- The rows stored before count as shown.

ALTER TABLE lobbies ADD COLUMN revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0);
ALTER TABLE lobbies ADD COLUMN shown INTEGER NOT NULL DEFAULT 0 CHECK (shown >= 0);

CREATE INDEX lobbies_unshown ON lobbies (lobby_id) WHERE shown < revision;

-- The interaction whose answer posted the lobby's message (the command, or the Rematch press):
-- until the message's id is stored, a press counts only on the message that answer made.
ALTER TABLE lobbies ADD COLUMN origin_id INTEGER CHECK (origin_id IS NULL OR origin_id > 0);

ALTER TABLE tournaments ADD COLUMN revision INTEGER NOT NULL DEFAULT 0 CHECK (revision >= 0);
ALTER TABLE tournaments ADD COLUMN shown INTEGER NOT NULL DEFAULT 0 CHECK (shown >= 0);

CREATE INDEX tournaments_unshown ON tournaments (tournament_id) WHERE shown < revision;
