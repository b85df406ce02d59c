// Package gobot is the domain of gobot: the model every part shares and
// the ports the stores implement. It holds no I/O and knows no platform,
// no database and no bot.
//
//   - ids.go: platform-qualified IDs (UserID "discord:1234", RoomID,
//     EventID) and the numbers of games and challenges.
//   - match.go: a Match (a stored game: its record, players, clock and
//     result), its TimeControl, a Challenge, a Player, a Room.
//   - rating.go: ratings per community (PlayerRating, GameRating), and
//     two records of one player joined into one (JoinRatings).
//   - community.go: joined communities (Community, Communities: Of,
//     Joined), checked from the config, and the store's record of the
//     members merged (JoinedCommunity).
//   - account.go: linked accounts (PlayerOf, AccountsOf) and link codes.
//   - store.go: the Store and Tx ports, their errors, and State, an
//     adapter's own restart state.
//   - lease.go: leases on State, so one process of several holds a piece
//     of work (a Matrix sync loop, a Discord shard), and their fences:
//     a write made under a lease that was lost is refused.
//   - claim.go: a Claim, the messages of a deadline's work (a reminder, a
//     timeout, an engine's move) that one process took on and has not
//     sent yet.
//
// The rules of Go live in package game; the bot (commands, router,
// handlers, clocks) in package chat; the stores in storage and
// storage/postgres, which the conformance suite chat/storetest checks.
package gobot
