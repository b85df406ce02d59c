package game

// ProposeDead returns one stone of each string the automatic proposal
// marks dead at the end of a game.
func ProposeDead(b *Board, r Rules) []Point {
	return nil // replaced by the scoring helper
}
