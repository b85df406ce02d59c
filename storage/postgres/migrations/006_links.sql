-- The generation of each player's personal links to a game (the web
-- command's reset): a link or a session minted under an older one is
-- revoked. No row: generation 0, which every link minted before this
-- table existed carries.
CREATE TABLE link_generations (
	game bigint NOT NULL,
	player text NOT NULL,
	generation bigint NOT NULL CHECK (generation >= 0),
	PRIMARY KEY (game, player)
);
