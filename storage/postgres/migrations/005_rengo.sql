-- Team games (rengo): every member of a team game's teams, so each finds
-- the game as their own (ActiveGames); empty for a game between two
-- players, whose black and white columns say it all. Existing games are
-- two-player games: the default is right for them.
ALTER TABLE games ADD COLUMN team text[] NOT NULL DEFAULT '{}';
CREATE INDEX games_team_active ON games USING gin (team) WHERE active;

-- A team challenge's named players, each of whom finds it among their
-- pending challenges (PendingChallenges).
ALTER TABLE challenges ADD COLUMN team text[] NOT NULL DEFAULT '{}';
CREATE INDEX challenges_team ON challenges USING gin (team) WHERE pending;
