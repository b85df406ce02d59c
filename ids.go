package gobot

import (
	"strings"
)

// UserID is a platform-qualified user: "discord:1234",
// "matrix:@ann:example.org", "console:alice".
type UserID string

// RoomID is a platform-qualified room or channel: "discord:5678",
// "matrix:!abc:example.org", "console:main".
type RoomID string

// EventID is a platform-qualified chat event ("discord:interaction:…",
// "matrix:$event"): the same event delivered twice is handled once.
type EventID string

// GameID numbers games from 1.
type GameID uint64

// ChallengeID numbers challenges from 1.
type ChallengeID uint64

// NewUserID qualifies a platform's user ID: NewUserID("discord", "1234")
// is "discord:1234".
func NewUserID(platform, local string) UserID { return UserID(platform + ":" + local) }

// NewRoomID qualifies a platform's room ID.
func NewRoomID(platform, local string) RoomID { return RoomID(platform + ":" + local) }

// NewEventID qualifies a platform's event ID.
func NewEventID(platform, local string) EventID { return EventID(platform + ":" + local) }

// Platform returns the part before the first colon ("discord").
func (u UserID) Platform() string { p, _, _ := strings.Cut(string(u), ":"); return p }

// Local returns the part after the platform ("1234").
func (u UserID) Local() string { _, l, _ := strings.Cut(string(u), ":"); return l }

// Platform returns the part before the first colon.
func (r RoomID) Platform() string { p, _, _ := strings.Cut(string(r), ":"); return p }

// Local returns the part after the platform.
func (r RoomID) Local() string { _, l, _ := strings.Cut(string(r), ":"); return l }
