-- Tournaments and ladders (gobot.Tournament, gobot.Ladder), each numbered
-- by its own counter. The record holds everything; room, active and due
-- serve the lists (RoomTournaments, DueTournaments and the ladders'),
-- and the games tables say which tournament or ladder holds each of the
-- bot's games (TournamentOfGame, LadderOfGame): a game belongs to one of
-- each kind at most. Records are bytea, as games' are (the codec's bytes
-- exactly; jsonb would refuse a NUL in a name).
CREATE TABLE tournaments (
    id       bigint      PRIMARY KEY,
    version  bigint      NOT NULL,
    room     text        NOT NULL,
    active   boolean     NOT NULL,
    due      timestamptz,
    record   bytea       NOT NULL
);
CREATE INDEX tournaments_room ON tournaments (room, id);
CREATE INDEX tournaments_due ON tournaments (due, id) WHERE due IS NOT NULL;
CREATE TABLE tournament_games (
    game       bigint PRIMARY KEY,
    tournament bigint NOT NULL REFERENCES tournaments (id) ON DELETE CASCADE
);
CREATE INDEX tournament_games_tournament ON tournament_games (tournament);

CREATE TABLE ladders (
    id       bigint      PRIMARY KEY,
    version  bigint      NOT NULL,
    room     text        NOT NULL,
    active   boolean     NOT NULL,
    due      timestamptz,
    record   bytea       NOT NULL
);
CREATE INDEX ladders_room ON ladders (room, id);
CREATE INDEX ladders_due ON ladders (due, id) WHERE due IS NOT NULL;
CREATE TABLE ladder_games (
    game   bigint PRIMARY KEY,
    ladder bigint NOT NULL REFERENCES ladders (id) ON DELETE CASCADE
);
CREATE INDEX ladder_games_ladder ON ladder_games (ladder);

INSERT INTO counters (name, value) VALUES ('tournaments', 0), ('ladders', 0);
