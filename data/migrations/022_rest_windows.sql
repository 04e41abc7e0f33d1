-- 022: Discord's rate-limit windows the bot spent, and when each ends. Discord tells what is left
-- of a window only in answers to it, so a bot that stops (by a crash too) leaves them here for its
-- next start, whose first request on each route and channel waits for the window's end instead
-- of drawing a 429. Rows live seconds: a start reads those still open, each write drops the ended.

CREATE TABLE rest_windows (
    route    TEXT    NOT NULL CHECK (length(route) BETWEEN 1 AND 200),
    major    TEXT    NOT NULL CHECK (length(major) BETWEEN 1 AND 100),
    until_ms INTEGER NOT NULL,
    PRIMARY KEY (route, major)
) STRICT, WITHOUT ROWID;
