-- Linked accounts (docs/identity.md): each account of a linked player
-- names the player's ID, the player's own account too; an account with
-- no row is a player of its own. Link codes are stored by their SHA-256
-- (the code itself is kept nowhere), each for a day after it was issued
-- (the daily limit counts them), void once used.
CREATE TABLE account_links (
    account text        PRIMARY KEY,
    player  text        NOT NULL,
    linked  timestamptz NOT NULL
);
CREATE INDEX account_links_player ON account_links (player, linked, account);

CREATE TABLE link_codes (
    hash    text        PRIMARY KEY,
    player  text        NOT NULL,
    issued  timestamptz NOT NULL,
    expires timestamptz NOT NULL,
    used    boolean     NOT NULL
);
CREATE INDEX link_codes_player ON link_codes (player, issued);
CREATE INDEX link_codes_issued ON link_codes (issued);
