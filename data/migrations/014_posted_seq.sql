-- 014: how far a game's one-off posts (the round summaries) went out: the last move whose posts
-- were sent. A start sends those of the later stored moves again, so a summary due when the
-- process stopped is not lost; every game stored before this column counts as posted.

ALTER TABLE games ADD COLUMN posted_seq INTEGER NOT NULL DEFAULT 0 CHECK (posted_seq >= 0);

UPDATE games SET posted_seq = last_seq;
