-- 021: the /review requests being worked on. A request is noted before it is acknowledged and
-- taken off once its answer went out, so a review a stop cut short is made again at the next
-- start and sent to its player by direct message (the request's own answer cannot be edited
-- once its process is gone). One per server, game and player: a second request waits for it.

CREATE TABLE pending_reviews (
    guild_id INTEGER NOT NULL,
    game_id  INTEGER NOT NULL,
    user_id  INTEGER NOT NULL,
    language TEXT    NOT NULL CHECK (length(language) BETWEEN 1 AND 16),
    asked_at INTEGER NOT NULL,
    PRIMARY KEY (guild_id, game_id, user_id)
) STRICT, WITHOUT ROWID;
