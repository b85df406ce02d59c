package storage

import (
	"github.com/gobotgo/gobot"
)

// The record format is shared by every store gobot has: storage/postgres
// keeps these same bytes, so a record reads the same from either and
// `gobot store copy` changes no record. The decoders return an error
// (not wrapped in ErrCorrupt: the caller names the record) for bytes that
// are not a current record.

// EncodeGame writes g in the current record format.
func EncodeGame(g *gobot.Match) ([]byte, error) { return encodeGame(g) }

// DecodeGame reads a game record.
func DecodeGame(raw []byte) (*gobot.Match, error) { return decodeGame(raw) }

// EncodeChallenge writes c in the current record format.
func EncodeChallenge(c *gobot.Challenge) ([]byte, error) { return encodeChallenge(c) }

// DecodeChallenge reads a challenge record.
func DecodeChallenge(raw []byte) (*gobot.Challenge, error) { return decodeChallenge(raw) }

// EncodePlayer writes p in the current record format.
func EncodePlayer(p *gobot.Player) ([]byte, error) { return encodePlayer(p) }

// DecodePlayer reads a player record.
func DecodePlayer(raw []byte) (*gobot.Player, error) { return decodePlayer(raw) }

// EncodeRoom writes r in the current record format.
func EncodeRoom(r *gobot.Room) ([]byte, error) { return encodeRoom(r) }

// DecodeRoom reads a room record.
func DecodeRoom(raw []byte) (*gobot.Room, error) { return decodeRoom(raw) }

// EncodeRating writes a rating record in the current record format.
func EncodeRating(r *gobot.PlayerRating) ([]byte, error) { return encodeRating(r) }

// DecodeRating reads a rating record.
func DecodeRating(raw []byte) (*gobot.PlayerRating, error) { return decodeRatingRecord(raw) }
