-- Vacation: the players on vacation, by when their vacation ends by
-- itself (chat's clock loop ends it, and reminds them a day before).
-- NULL for everyone else, so existing rows need nothing.
ALTER TABLE players ADD COLUMN vacation_due timestamptz;
CREATE INDEX players_vacation_due ON players (vacation_due, id) WHERE vacation_due IS NOT NULL;
