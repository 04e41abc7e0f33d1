-- 033: a season's announcement owed to another channel than a schedule's. Staff start a season
-- with a command whose answer is its announcement; when Discord refuses that answer the season
-- has begun unannounced (and staff, seeing nothing, may start another), so the bot owes the
-- announcement to the channel the command was used in: ``owed_in`` (NULL: the schedule's own
-- channel). A server with no schedule is given a row turned off (cadence NULL) to owe it from.

ALTER TABLE season_schedules ADD COLUMN owed_in INTEGER CHECK (owed_in IS NULL OR owed_in > 0);
