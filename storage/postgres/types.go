package postgres

import (
	"encoding/json"
	"fmt"
	"time"

	"github.com/gobotgo/gobot/storage"
)

// The model and its errors (moving to package chat with the store seam).
type (
	GameID      = storage.GameID
	ChallengeID = storage.ChallengeID
	UserID      = storage.UserID
	RoomID      = storage.RoomID
	Game        = storage.Game
	Challenge   = storage.Challenge
	Player      = storage.Player
	Room        = storage.Room
)

const Pending = storage.Pending

var (
	ErrNotFound  = storage.ErrNotFound
	ErrCorrupt   = storage.ErrCorrupt
	ErrConflict  = storage.ErrConflict
	ErrDuplicate = storage.ErrDuplicate
)

// Tx is the transaction as chat uses it.
type Tx interface {
	Game(id GameID) (*Game, error)
	PutGame(g *Game) error
	DeleteGame(id GameID) error
	ActiveGames(u UserID) ([]*Game, error)
	RoomGames(r RoomID, activeOnly bool) ([]*Game, error)
	DueGames(before time.Time, limit int) ([]*Game, error)
	Challenge(id ChallengeID) (*Challenge, error)
	PutChallenge(c *Challenge) error
	DeleteChallenge(id ChallengeID) error
	PendingChallenges(u UserID) ([]*Challenge, error)
	RoomChallenges(r RoomID) ([]*Challenge, error)
	Player(id UserID) (*Player, error)
	PutPlayer(p *Player) error
	Room(id RoomID) (*Room, error)
	PutRoom(r *Room) error
	State(ns, key string) ([]byte, error)
	PutState(ns, key string, v []byte) error
	MarkEvent(id string, t time.Time) error
	ExpireEvents(before time.Time) (int, error)
}

func encodeGame(g *Game) ([]byte, error)           { return json.Marshal(g) }
func encodeChallenge(c *Challenge) ([]byte, error) { return json.Marshal(c) }
func encodePlayer(p *Player) ([]byte, error)       { return json.Marshal(p) }
func encodeRoom(r *Room) ([]byte, error)           { return json.Marshal(r) }

func decodeGame(id GameID, raw []byte) (*Game, error) {
	var g Game
	if err := json.Unmarshal(raw, &g); err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", id, ErrCorrupt, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("game #%d: %w: it says it is game #%d", id, ErrCorrupt, g.ID)
	}
	return &g, nil
}

func decodeChallenge(id ChallengeID, raw []byte) (*Challenge, error) {
	var c Challenge
	if err := json.Unmarshal(raw, &c); err != nil {
		return nil, fmt.Errorf("challenge #%d: %w: %v", id, ErrCorrupt, err)
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge #%d: %w: it says it is challenge #%d", id, ErrCorrupt, c.ID)
	}
	return &c, nil
}

func decodePlayer(id UserID, raw []byte) (*Player, error) {
	var p Player
	if err := json.Unmarshal(raw, &p); err != nil {
		return nil, fmt.Errorf("player %s: %w: %v", id, ErrCorrupt, err)
	}
	return &p, nil
}

func decodeRoom(id RoomID, raw []byte) (*Room, error) {
	var r Room
	if err := json.Unmarshal(raw, &r); err != nil {
		return nil, fmt.Errorf("room %s: %w: %v", id, ErrCorrupt, err)
	}
	return &r, nil
}
