-- Joined communities (docs/identity.md): each records the members whose
-- ratings were merged into its list, so that a merge is done once. A
-- player's ratings in every community are looked up when accounts are
-- linked (UserRatings): the ratings' key starts with the community, so
-- players get an index of their own.
CREATE TABLE joined_communities (
    id      text  PRIMARY KEY,
    record  bytea NOT NULL
);
CREATE INDEX ratings_player ON ratings (player, community);
