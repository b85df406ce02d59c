package storage

// ActiveGameIDs returns the IDs of u's active games from the index,
// without reading the records, so that a caller can read each one and
// name the damaged ones instead of losing the whole list.
func (tx *Tx) ActiveGameIDs(u UserID) []GameID {
	ids := tx.idsWithPrefix(bPlayerGames, string(u), nil)
	out := make([]GameID, len(ids))
	for i, id := range ids {
		out[i] = GameID(id)
	}
	return out
}
