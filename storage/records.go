// Package storage keeps everything gobot must not lose in one bbolt file:
// games, challenges, players, room settings, clock deadlines, adapter
// state and the IDs of chat events already handled. It implements
// chat.Store and is the only importer of bbolt.
package storage

import "github.com/gobotgo/gobot/chat"

// The records are chat's model; storage only keeps them.
type (
	UserID          = chat.UserID
	RoomID          = chat.RoomID
	EventID         = chat.EventID
	GameID          = chat.GameID
	ChallengeID     = chat.ChallengeID
	Game            = chat.Game
	Undo            = chat.Undo
	Challenge       = chat.Challenge
	ChallengeStatus = chat.ChallengeStatus
	Player          = chat.Player
	Room            = chat.Room
	TimeControl     = chat.TimeControl
)

// Errors callers test with errors.Is: chat's sentinels.
var (
	ErrNotFound  = chat.ErrNotFound
	ErrCorrupt   = chat.ErrCorrupt
	ErrInUse     = chat.ErrInUse
	ErrConflict  = chat.ErrConflict
	ErrDuplicate = chat.ErrDuplicate
)
