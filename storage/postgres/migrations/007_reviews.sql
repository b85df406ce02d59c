-- Reviews (gobot.Review): shared boards for teaching and post-game
-- review. The record holds the tree; room, open and due serve the lists
-- (RoomReviews: a room's open reviews; DueReviews: idle closing and
-- expiry). Numbered apart from games.
CREATE TABLE reviews (
    id       bigint      PRIMARY KEY,
    version  bigint      NOT NULL,
    room     text        NOT NULL,
    open     boolean     NOT NULL,
    due      timestamptz,
    record   jsonb       NOT NULL
);
CREATE INDEX reviews_room_open ON reviews (room) WHERE open;
CREATE INDEX reviews_due ON reviews (due) WHERE due IS NOT NULL;
INSERT INTO counters (name, value) VALUES ('reviews', 0);
