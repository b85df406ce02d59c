// Package storage keeps everything gobot must not lose in one bbolt file:
// games, challenges, players, room settings, clock deadlines, adapter
// state and the IDs of chat events already handled. It implements
// chat.Store and is the only importer of bbolt.
package storage

import (
	"github.com/gobotgo/gobot"
)

// The records are chat's model; storage only keeps them.
type (
	UserID          = gobot.UserID
	RoomID          = gobot.RoomID
	EventID         = gobot.EventID
	GameID          = gobot.GameID
	ChallengeID     = gobot.ChallengeID
	Game            = gobot.Game
	Undo            = gobot.Undo
	Challenge       = gobot.Challenge
	ChallengeStatus = gobot.ChallengeStatus
	Player          = gobot.Player
	Room            = gobot.Room
	TimeControl     = gobot.TimeControl
)

// Errors callers test with errors.Is: chat's sentinels.
var (
	ErrNotFound  = gobot.ErrNotFound
	ErrCorrupt   = gobot.ErrCorrupt
	ErrInUse     = gobot.ErrInUse
	ErrConflict  = gobot.ErrConflict
	ErrDuplicate = gobot.ErrDuplicate
)
