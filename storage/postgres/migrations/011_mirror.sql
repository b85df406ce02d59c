-- A game between players of two platforms is seen by a second room, its
-- mirror on the other platform (docs/identity.md): RoomGames finds it
-- there too. Existing games have none: the default is right for them.
ALTER TABLE games ADD COLUMN mirror text NOT NULL DEFAULT '';
CREATE INDEX games_mirror ON games (mirror) WHERE mirror <> '';
