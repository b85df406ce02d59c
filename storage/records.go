// Package storage keeps everything gobot must not lose in one bbolt file:
// games, challenges, players, room settings, clock deadlines, adapter
// state and the IDs of chat events already handled. It implements
// chat.Store and is the only importer of bbolt.
package storage
