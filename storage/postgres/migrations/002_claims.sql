-- Claims on deadline work (chat.Claim): the messages of a reminder, a
-- timeout or an engine's move between the commit that decided them and
-- their sending; another process sends them once a claim expires.
CREATE TABLE claims (
    key      text        PRIMARY KEY,
    holder   text        NOT NULL,
    expires  timestamptz NOT NULL,
    value    bytea       NOT NULL
);
CREATE INDEX claims_expires ON claims (expires);
