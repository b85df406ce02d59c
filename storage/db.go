package storage

// Tx is one transaction. Its methods are written by the storage engineer;
// see chat.Store for the set the bot uses.
type Tx struct{}
