// Package flow is the game flow: the typed operations that change a game
// inside the one transaction the router (or the job runner) opened for
// them — a move, a pass, a resignation, a vote, a marking, a timeout, a
// vacation, an engine's turn — each returning an outcome that says what
// happened (a move played and what it captured, the turn passed to a
// teammate, a vote window opened or closed, the game over with its
// result).
//
// flow knows no platform and says nothing to anyone: chat turns its
// outcomes into words (chat/say), the web board turns the same outcomes
// into its state, and nothing re-derives them. A refusal is a typed
// error (Refusal and the game package's sentinels), worded by chat.
//
//	chat (commands, jobs) → flow (operations → outcomes) → gobot, game, rating
package flow
