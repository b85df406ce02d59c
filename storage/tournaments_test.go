package storage

import (
	"context"
	"fmt"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/storetest"
	"github.com/gobotgo/gobot/tournament"
)

// bigTournament is a tournament of tournament.MaxPlayers players with
// five rounds paired, each game made: the biggest record a tournament
// makes.
func bigTournament() *gobot.Tournament {
	tm := storetest.NewTournament("t:room", "t:ann")
	tm.Players, tm.Played = nil, nil
	for i := range tournament.MaxPlayers {
		u := gobot.UserID(fmt.Sprintf("discord:%018d", 100000000000000000+i))
		tm.Players = append(tm.Players, gobot.TournamentPlayer{Player: tournament.Player{ID: tournament.PlayerID(u),
			Name: fmt.Sprintf("Player %d", i), Rank: -5, Rating: 1600}, User: u})
	}
	game := gobot.GameID(1)
	for range 5 {
		var r gobot.TournamentRound
		for i := 0; i < len(tm.Players); i += 2 {
			r.Games = append(r.Games, tournament.Game{Table: i/2 + 1, White: tm.Players[i].ID, Black: tm.Players[i+1].ID, Result: tournament.WhiteWins})
			r.Matches = append(r.Matches, game)
			game++
		}
		tm.Played = append(tm.Played, r)
	}
	return tm
}

// BenchmarkPutTournament: recording one result in the biggest
// tournament, a read and a write of its whole record in one transaction
// (what a game's end costs), on a file without fsync.
func BenchmarkPutTournament(b *testing.B) {
	db, err := Open(b.TempDir()+"/gobot.db", Options{NoSync: true})
	if err != nil {
		b.Fatal(err)
	}
	defer db.Close()
	ctx := context.Background()
	tm := bigTournament()
	if err := db.Update(ctx, func(tx gobot.Tx) error { return tx.PutTournament(tm) }); err != nil {
		b.Fatal(err)
	}
	var size int
	b.ResetTimer()
	for i := range b.N {
		err := db.Update(ctx, func(tx gobot.Tx) error {
			v, err := tx.TournamentOfGame(gobot.GameID(1 + i%5000))
			if err != nil {
				return err
			}
			v.Played[4].Games[i%1000].Result = tournament.BlackWins
			return tx.PutTournament(v)
		})
		if err != nil {
			b.Fatal(err)
		}
	}
	b.StopTimer()
	db.view(ctx, func(tx *Tx) error { size = len(tx.b(bTournaments).Get(idKey(1))); return nil })
	b.ReportMetric(float64(size)/1024, "KiB/record")
}
