-- 019: hints. Casual games (no stake, no rating) offer a Hint button on the hand, which a
-- server may turn off (/settings hints); 1 offers them, the default.

ALTER TABLE guild_settings ADD COLUMN hints INTEGER NOT NULL DEFAULT 1 CHECK (hints IN (0, 1));
