package postgres

import (
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
)

// damageable is the PostgreSQL store with the conformance suite's hook to
// damage records (bytes that no longer decode, as a bad restore or a buggy
// writer would leave).
type damageable struct{ *Store }

func (d damageable) damage(table string, id int64) error {
	_, err := d.pool.Exec(ctx, "UPDATE "+table+` SET record = '{"ID": "not a number' WHERE id = $1`, id)
	return err
}

func (d damageable) DamageGame(id gobot.GameID) error { return d.damage("games", int64(id)) }

func (d damageable) DamageChallenge(id gobot.ChallengeID) error {
	return d.damage("challenges", int64(id))
}

func (d damageable) DamageTournament(id gobot.TournamentID) error {
	return d.damage("tournaments", int64(id))
}

func (d damageable) DamageLadder(id gobot.LadderID) error { return d.damage("ladders", int64(id)) }

// The same conformance suite as the bbolt store, unchanged.
func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) gobot.Store {
		s, _ := mustOpen(t)
		return damageable{s}
	})
}
