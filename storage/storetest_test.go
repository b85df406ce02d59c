package storage

import (
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	bolt "go.etcd.io/bbolt"
)

// damageable is the bbolt store with the conformance suite's hook to
// damage records.
type damageable struct{ *DB }

func (d damageable) damage(bucket []byte, id uint64) error {
	return d.bolt.Update(func(btx *bolt.Tx) error {
		return btx.Bucket(bucket).Put(idKey(id), []byte(`{"ID": "not a number`))
	})
}

func (d damageable) DamageGame(id gobot.GameID) error { return d.damage(bGames, uint64(id)) }

func (d damageable) DamageChallenge(id gobot.ChallengeID) error {
	return d.damage(bChallenges, uint64(id))
}

func (d damageable) DamageTournament(id gobot.TournamentID) error {
	return d.damage(bTournaments, uint64(id))
}

func (d damageable) DamageLadder(id gobot.LadderID) error { return d.damage(bLadders, uint64(id)) }

func TestStore(t *testing.T) {
	storetest.Run(t, func(t *testing.T) gobot.Store { return damageable{mustOpen(t)} })
}
