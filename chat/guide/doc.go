// Package guide is the words of the bot's reference commands: help (a
// command's or all of them), the rules explained (rules, a preset's
// komi and options, the handicap rule), a player's and a room's settings
// shown with the refusals of a settings change, and the ratings shown
// (rating: a player's card; top: the leaderboard). Like chat/say, whose small helpers
// it uses, it is pure: values in, text or a refusal out.
package guide
