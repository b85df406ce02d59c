package storage

import (
	"encoding/binary"
	"errors"
	"fmt"

	"github.com/gobotgo/gobot"
)

// bLinks holds the generation of each player's personal links to a game
// (the web command's reset): game id(8) user → generation(8). The bucket
// is made by the first PutLinkGeneration, so a file written before it
// existed opens unchanged (read-only too): every link in it is of
// generation 0, as its links were minted.
var bLinks = []byte("links")

func linkKey(g gobot.GameID, u gobot.UserID) []byte { return append(idKey(uint64(g)), u...) }

// LinkGeneration returns the generation of u's links to game g (0 when
// none was stored).
func (tx *Tx) LinkGeneration(g gobot.GameID, u gobot.UserID) (uint64, error) {
	b := tx.b(bLinks)
	if b == nil {
		return 0, nil
	}
	v := b.Get(linkKey(g, u))
	switch len(v) {
	case 0:
		return 0, nil
	case 8:
		return binary.BigEndian.Uint64(v), nil
	}
	return 0, fmt.Errorf("link generation of %s in game #%d: %w: %d bytes", u, g, gobot.ErrCorrupt, len(v))
}

// PutLinkGeneration stores the generation of u's links to game g.
func (tx *Tx) PutLinkGeneration(g gobot.GameID, u gobot.UserID, gen uint64) error {
	if g == 0 || u == "" {
		return errors.New("a link generation needs a game and a user")
	}
	b, err := tx.tx.CreateBucketIfNotExists(bLinks)
	if err != nil {
		return err
	}
	return b.Put(linkKey(g, u), binary.BigEndian.AppendUint64(nil, gen))
}

// eachLinkGeneration calls fn for every stored generation, by game then
// user (Export).
func (tx *Tx) eachLinkGeneration(fn func(g gobot.GameID, u gobot.UserID, gen uint64) error) error {
	b := tx.b(bLinks)
	if b == nil {
		return nil
	}
	return b.ForEach(func(k, v []byte) error {
		if len(k) < 9 || len(v) != 8 {
			return fmt.Errorf("link generation %q: %w", k, gobot.ErrCorrupt)
		}
		return fn(gobot.GameID(binary.BigEndian.Uint64(k[:8])), gobot.UserID(k[8:]), binary.BigEndian.Uint64(v))
	})
}
