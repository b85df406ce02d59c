-- gobot's shared store, schema 1.
-- Records are kept whole as bytes in the same versioned format the bbolt
-- store writes (storage's record codec: JSON today). bytea rather than
-- jsonb: the bytes stay exactly what the codec wrote (jsonb rejects a
-- \u0000 in a string and reorders keys), so both stores read one format.
-- The columns beside a record hold what is queried (players, rooms, phase,
-- deadlines) so every lookup is an index scan.

CREATE TABLE games (
    id        bigint PRIMARY KEY,
    version   bigint      NOT NULL,
    room      text        NOT NULL,
    black     text        NOT NULL,
    white     text        NOT NULL,
    active    boolean     NOT NULL,
    deadline  timestamptz,
    record    bytea       NOT NULL
);
CREATE INDEX games_black_active ON games (black) WHERE active;
CREATE INDEX games_white_active ON games (white) WHERE active;
CREATE INDEX games_room ON games (room, id);
CREATE INDEX games_deadline ON games (deadline, id) WHERE active AND deadline IS NOT NULL;

CREATE TABLE challenges (
    id        bigint PRIMARY KEY,
    room      text   NOT NULL,
    sender    text   NOT NULL,
    receiver  text   NOT NULL DEFAULT '',
    pending   boolean NOT NULL,
    record    bytea  NOT NULL
);
CREATE INDEX challenges_sender ON challenges (sender) WHERE pending;
CREATE INDEX challenges_receiver ON challenges (receiver) WHERE pending AND receiver <> '';
CREATE INDEX challenges_room ON challenges (room) WHERE pending;

-- Counters number games and challenges from 1 without gaps, like the
-- bbolt store's bucket sequences: a counter row is updated inside the
-- inserting transaction, so a rolled-back insert takes no number.
CREATE TABLE counters (
    name   text   PRIMARY KEY,
    value  bigint NOT NULL
);
INSERT INTO counters (name, value) VALUES ('games', 0), ('challenges', 0);

CREATE TABLE players (
    id      text  PRIMARY KEY,
    record  bytea NOT NULL
);

CREATE TABLE rooms (
    id      text  PRIMARY KEY,
    record  bytea NOT NULL
);

-- Chat events already handled: the primary key makes an event apply once
-- across every process sharing the database.
CREATE TABLE events (
    id       text        PRIMARY KEY,
    handled  timestamptz NOT NULL
);
CREATE INDEX events_handled ON events (handled);

-- Adapters' small state (registered-command hash, Matrix session, sync
-- token, DM rooms).
CREATE TABLE state (
    ns     text  NOT NULL,
    key    text  NOT NULL,
    value  bytea NOT NULL,
    PRIMARY KEY (ns, key)
);

-- What the bot owes as the answer to an event, stored with the event's
-- effect and deleted once delivered (a platform that hands an event over
-- again after a crash gets the answer it was owed).
CREATE TABLE outbox (
    id      text        PRIMARY KEY,
    stored  timestamptz NOT NULL,
    value   bytea       NOT NULL
);
CREATE INDEX outbox_stored ON outbox (stored);

-- One Glicko-2 rating per community and player.
CREATE TABLE ratings (
    community  text  NOT NULL,
    player     text  NOT NULL,
    record     bytea NOT NULL,
    PRIMARY KEY (community, player)
);
