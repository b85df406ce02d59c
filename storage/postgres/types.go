package postgres

import (
	"errors"
	"fmt"

	"github.com/gobotgo/gobot/storage/record"

	"github.com/gobotgo/gobot"
)

var _ gobot.Store = (*Store)(nil)

func encodeGame(g *gobot.Match) ([]byte, error)          { return record.EncodeMatch(g) }
func encodeChallenge(c *gobot.Challenge) ([]byte, error) { return record.EncodeChallenge(c) }
func encodePlayer(p *gobot.Player) ([]byte, error)       { return record.EncodePlayer(p) }
func encodeRoom(r *gobot.Room) ([]byte, error)           { return record.EncodeRoom(r) }

func decodeGame(id gobot.GameID, raw []byte) (*gobot.Match, error) {
	g, err := record.DecodeMatch(raw)
	if err != nil {
		return nil, fmt.Errorf("game #%d: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if g.ID != id {
		return nil, fmt.Errorf("game #%d: %w: it says it is game #%d", id, gobot.ErrCorrupt, g.ID)
	}
	return g, nil
}

func decodeChallenge(id gobot.ChallengeID, raw []byte) (*gobot.Challenge, error) {
	c, err := record.DecodeChallenge(raw)
	if err != nil {
		return nil, fmt.Errorf("challenge #%d: %w: %v", id, gobot.ErrCorrupt, err)
	}
	if c.ID != id {
		return nil, fmt.Errorf("challenge #%d: %w: it says it is challenge #%d", id, gobot.ErrCorrupt, c.ID)
	}
	return c, nil
}

func decodePlayer(id gobot.UserID, raw []byte) (*gobot.Player, error) {
	p, err := record.DecodePlayer(raw)
	if err != nil {
		return nil, fmt.Errorf("player %s: %w: %v", id, gobot.ErrCorrupt, err)
	}
	return p, nil
}

func decodeRoom(id gobot.RoomID, raw []byte) (*gobot.Room, error) {
	r, err := record.DecodeRoom(raw)
	if err != nil {
		return nil, fmt.Errorf("room %s: %w: %v", id, gobot.ErrCorrupt, err)
	}
	return r, nil
}

// damaged collects the records a list could not read into chat's
// *DamagedError (nil when there are none).
type damaged struct{ d gobot.DamagedError }

func (d *damaged) game(id gobot.GameID, err error) {
	d.d.Games = append(d.d.Games, id)
	d.d.Err = errors.Join(d.d.Err, err)
}

func (d *damaged) challenge(id gobot.ChallengeID, err error) {
	d.d.Challenges = append(d.d.Challenges, id)
	d.d.Err = errors.Join(d.d.Err, err)
}

func (d *damaged) err() error {
	if len(d.d.Games)+len(d.d.Challenges)+len(d.d.Tournaments)+len(d.d.Ladders) == 0 {
		return nil
	}
	e := d.d
	return &e
}
