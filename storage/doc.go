// Package storage keeps everything gobot must not lose in one bbolt file:
// games, challenges, players, room settings, clock deadlines, adapter
// state and the IDs of chat events already handled. It implements
// gobot.Store and is the only importer of bbolt; the records are in
// storage/record's format, shared with storage/postgres.
package storage
