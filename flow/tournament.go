package flow

import (
	"cmp"
	"errors"
	"fmt"
	"slices"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/game"
	"github.com/gobotgo/gobot/tournament"
)

// Tournaments through the door: a tournament is a record of its own
// (gobot.Tournament) whose rounds are paired by package tournament and
// whose games are the bot's games, made here as any accepted challenge's
// are (Propose, Begin, InsertMatch) and played through Act like any
// other. A game's end records its result in its tournament in the same
// transaction (Commit → gameEnded); when the round's last result is in,
// the tournament falls due and the runner pairs the next round
// (TournamentDue), so a round is paired and announced once across
// crashes and processes.

// TournamentProblem is why a tournament command is refused.
type TournamentProblem int

const (
	NoTournamentHere   TournamentProblem = iota + 1 // the room has no tournament going on
	WhichTournament                                 // the room has several: name one
	NoSuchTournament                                // no tournament of that number here
	NotOrganiser                                    // only its organiser and room admins may
	NotRegistering                                  // it has begun (a system that takes no late joiners) or ended
	AlreadyJoined                                   // the player is registered
	NotJoined                                       // the player is not registered
	TournamentFull                                  // it has its most players
	RegistrationClosed                              // its registration closed
	TooFewPlayers                                   // fewer than two players to pair
	RoundGoesOn                                     // the round's games are still being played (Left)
	AllRoundsPlayed                                 // every round is played
	NotStarted                                      // it has not begun
	TournamentOver                                  // it ended
	NotTournamentGame                               // the game is none of its
	ByeNotNeeded                                    // an even field needs no bye
	Withdrawn                                       // the player has withdrawn
	AlreadyStarted                                  // it has begun
	Unclaimed                                       // imported players nobody here is yet (Names)
	NoSuchName                                      // no imported player of that name (Names: the one given)
	NameClaimed                                     // someone here is that imported player already
	FixedSchedule                                   // a round robin's or bracket's players stay: results are recorded instead
	NeedsWinner                                     // an elimination game ended without a winner (Game)
	RoundPaired                                     // the round is paired already (Round)
	StartPassed                                     // the start time asked for has passed (Round)
	NoSuchRound                                     // the tournament has no such round (Round)
)

// TournamentRefusal refuses a tournament command, for its Problem.
type TournamentRefusal struct {
	Problem    TournamentProblem
	Tournament *gobot.Tournament // the tournament meant, when known
	Left       int               // RoundGoesOn: the games still being played
	User       gobot.UserID      // the player it is about
	Game       gobot.GameID      // NotTournamentGame
	Choices    []*gobot.Tournament
	Names      []string // Unclaimed, NoSuchName
	Round      int      // RoundPaired, StartPassed, NoSuchRound: the round (from 1)
}

func (e TournamentRefusal) Error() string {
	return fmt.Sprintf("tournament refused (%d)", e.Problem)
}

// Code names the refusal (Refusal).
func (TournamentRefusal) Code() string { return "tournament-refusal" }

// Where is where a tournament or ladder command comes from: its room
// and, in a joined community (docs/identity.md), the community and the
// rooms it joins, whose tournaments and ladders are open to all of them.
type Where struct {
	Room      gobot.RoomID
	Community gobot.CommunityID // the joined community; "" when the room is in none
	Rooms     []gobot.RoomID    // the joined community's rooms
}

// rooms are the rooms whose tournaments w sees, w.Room first.
func (w Where) rooms() []gobot.RoomID {
	out := []gobot.RoomID{w.Room}
	for _, r := range w.Rooms {
		if !slices.Contains(out, r) {
			out = append(out, r)
		}
	}
	return out
}

// sees reports whether a tournament or ladder of room r rated in
// community c is open to w.
func (w Where) sees(r gobot.RoomID, c gobot.CommunityID) bool {
	return slices.Contains(w.rooms(), r) || w.Community != "" && c == w.Community
}

// findEvent is FindTournament's and FindLadder's search: record id when
// w sees it, else (id 0) the one active record in w's rooms, or the
// latest when none is active.
func findEvent[T any](w Where, id uint64, get func(uint64) (*T, error), list func(gobot.RoomID, bool) ([]*T, error),
	room func(*T) gobot.RoomID, community func(*T) gobot.CommunityID, key func(*T) uint64) (one *T, choices []*T, err error) {
	if id != 0 {
		v, err := get(id)
		if errors.Is(err, gobot.ErrNotFound) || err == nil && !w.sees(room(v), community(v)) {
			return nil, nil, gobot.ErrNotFound
		}
		return v, nil, err
	}
	var active, all []*T
	for _, r := range w.rooms() {
		a, err := list(r, true)
		if err != nil {
			return nil, nil, err
		}
		active = append(active, a...)
	}
	if len(active) == 0 { // none going on: the latest, which is over
		for _, r := range w.rooms() {
			a, err := list(r, false)
			if err != nil {
				return nil, nil, err
			}
			all = append(all, a...)
		}
		if len(all) == 0 {
			return nil, nil, gobot.ErrNotFound
		}
		return slices.MaxFunc(all, func(a, b *T) int { return cmp.Compare(key(a), key(b)) }), nil, nil
	}
	slices.SortFunc(active, func(a, b *T) int { return cmp.Compare(key(a), key(b)) })
	if len(active) == 1 {
		return active[0], nil, nil
	}
	return nil, active, nil
}

// FindTournament is tournament id if w sees it, or (id 0) the one
// tournament going on in w's rooms.
func FindTournament(tx gobot.Tx, w Where, id gobot.TournamentID) (*gobot.Tournament, error) {
	t, choices, err := findEvent(w, uint64(id), func(id uint64) (*gobot.Tournament, error) { return tx.Tournament(gobot.TournamentID(id)) },
		tx.RoomTournaments, func(t *gobot.Tournament) gobot.RoomID { return t.Room },
		func(t *gobot.Tournament) gobot.CommunityID { return t.Community }, func(t *gobot.Tournament) uint64 { return uint64(t.ID) })
	switch {
	case errors.Is(err, gobot.ErrNotFound) && id != 0:
		return nil, TournamentRefusal{Problem: NoSuchTournament}
	case errors.Is(err, gobot.ErrNotFound):
		return nil, TournamentRefusal{Problem: NoTournamentHere}
	case err != nil:
		return nil, err
	case choices != nil:
		return nil, TournamentRefusal{Problem: WhichTournament, Choices: choices}
	}
	return t, nil
}

// RoomTournaments are the tournaments of w's rooms, by ID.
func RoomTournaments(tx gobot.Tx, w Where) ([]*gobot.Tournament, error) {
	var out []*gobot.Tournament
	for _, r := range w.rooms() {
		ts, err := tx.RoomTournaments(r, false)
		if err != nil {
			return out, err
		}
		out = append(out, ts...)
	}
	slices.SortFunc(out, func(a, b *gobot.Tournament) int { return cmp.Compare(a.ID, b.ID) })
	return out, nil
}

// NewTournament stores t, registering from now.
func NewTournament(tx gobot.Tx, t *gobot.Tournament, now time.Time) error {
	t.State, t.Created = gobot.Registering, now
	t.Due = t.RegistrationCloses
	if err := t.Check(); err != nil {
		return err
	}
	return tx.PutTournament(t)
}

// refuse is a TournamentRefusal about t.
func refuse(t *gobot.Tournament, p TournamentProblem) error {
	return TournamentRefusal{Problem: p, Tournament: t}
}

// player returns u's index among t's players, or -1.
func player(t *gobot.Tournament, u gobot.UserID) int {
	return slices.IndexFunc(t.Players, func(p gobot.TournamentPlayer) bool { return p.User == u })
}

// fixedField reports whether t's system pairs a field fixed at its start
// (round robin, elimination): no late joiners.
func fixedField(t *gobot.Tournament) bool {
	return t.System != tournament.McMahon && t.System != tournament.Swiss
}

// JoinTournament registers u (named name) in t at now, with their rank
// in t's community (a late joiner of a McMahon enters at their McMahon
// score, as OpenGotha enters them).
//
// In a tournament imported from OpenGotha, as names the imported player u
// is (their name as the file has it): u takes their place.
func JoinTournament(tx gobot.Tx, t *gobot.Tournament, u gobot.UserID, name, as string, now time.Time) error {
	switch {
	case t.State == gobot.Ended:
		return refuse(t, TournamentOver)
	case t.State == gobot.Running && fixedField(t):
		return refuse(t, NotRegistering)
	case !t.RegistrationCloses.IsZero() && !now.Before(t.RegistrationCloses) && t.State == gobot.Registering:
		return refuse(t, RegistrationClosed)
	}
	if as != "" {
		return claim(tx, t, u, as)
	}
	if i := player(t, u); i >= 0 {
		if !t.Players[i].Withdrawn {
			return refuse(t, AlreadyJoined)
		}
		t.Players[i].Withdrawn = false // back for the next rounds
		return tx.PutTournament(t)
	}
	limit := t.MaxPlayers
	if limit <= 0 || limit > tournament.MaxPlayers {
		limit = tournament.MaxPlayers
	}
	if len(t.Players) >= limit {
		return refuse(t, TournamentFull)
	}
	rank := game.Rank(-19) // 20k until rated
	if rec, err := ratings.PlayerRating(tx, t.Community, u); err == nil {
		rank = rec.Player().Rank()
	}
	p := gobot.TournamentPlayer{User: u, Player: tournament.Player{ID: tournament.PlayerID(u), Name: name, Rank: rank,
		Rating: tournament.RatingForRank(rank), Joined: len(t.Played)}}
	t.Players = append(t.Players, p)
	return tx.PutTournament(t)
}

// claim makes u the imported player of t named as.
func claim(tx gobot.Tx, t *gobot.Tournament, u gobot.UserID, as string) error {
	if player(t, u) >= 0 {
		return refuse(t, AlreadyJoined)
	}
	for i := range t.Players {
		p := &t.Players[i]
		if !strings.EqualFold(p.FullName(), as) && !strings.EqualFold(p.Name+" "+p.FirstName, as) {
			continue
		}
		if p.User != "" {
			return TournamentRefusal{Problem: NameClaimed, Tournament: t, User: p.User, Names: []string{p.FullName()}}
		}
		p.User = u
		return tx.PutTournament(t)
	}
	return TournamentRefusal{Problem: NoSuchName, Tournament: t, Names: []string{as}}
}

// ImportTournament stores t, read from an OpenGotha file (players not yet
// anyone here: they join as themselves, JoinTournament's as), at now.
func ImportTournament(tx gobot.Tx, t *gobot.Tournament, now time.Time) error {
	t.State, t.Created = gobot.Registering, now
	if len(t.Played) > 0 {
		t.State = gobot.Running
	}
	if err := t.Check(); err != nil {
		return err
	}
	return tx.PutTournament(t)
}

// userOf is the bot user of t's player id ("" when nobody here is).
func userOf(t *gobot.Tournament, id tournament.PlayerID) gobot.UserID {
	for _, p := range t.Players {
		if p.ID == id {
			return p.User
		}
	}
	return ""
}

// LeaveTournament takes u out of t: before it begins, off the list;
// after, withdrawn from the rounds not yet paired.
func LeaveTournament(tx gobot.Tx, t *gobot.Tournament, u gobot.UserID) error {
	i := player(t, u)
	switch {
	case t.State == gobot.Ended:
		return refuse(t, TournamentOver)
	case i < 0:
		return TournamentRefusal{Problem: NotJoined, Tournament: t, User: u}
	case t.State == gobot.Registering:
		t.Players = slices.Delete(t.Players, i, i+1)
	case fixedField(t):
		return TournamentRefusal{Problem: FixedSchedule, Tournament: t, User: u}
	case t.Players[i].Withdrawn:
		return TournamentRefusal{Problem: Withdrawn, Tournament: t, User: u}
	default:
		t.Players[i].Withdrawn = true
	}
	return tx.PutTournament(t)
}

// GiveBye gives u the next round's bye (an odd field's one player left
// without an opponent, scored as OpenGotha scores a bye).
func GiveBye(tx gobot.Tx, t *gobot.Tournament, u gobot.UserID) error {
	i := player(t, u)
	switch {
	case t.State == gobot.Ended:
		return refuse(t, TournamentOver)
	case i < 0:
		return TournamentRefusal{Problem: NotJoined, Tournament: t, User: u}
	case t.Players[i].Withdrawn:
		return TournamentRefusal{Problem: Withdrawn, Tournament: t, User: u}
	case fixedField(t):
		return refuse(t, ByeNotNeeded)
	}
	if len(present(t))%2 == 0 {
		return TournamentRefusal{Problem: ByeNotNeeded, Tournament: t, User: u}
	}
	t.ByeNext = tournament.PlayerID(u)
	return tx.PutTournament(t)
}

// present are t's players who take part in the next round.
func present(t *gobot.Tournament) []tournament.PlayerID {
	var out []tournament.PlayerID
	for _, p := range t.Players {
		if !p.Withdrawn {
			out = append(out, p.ID)
		}
	}
	return out
}

// RoundStarted is a round paired and its games begun: Round (from 1),
// its Games (the bot's, pairing order), and Ended when the tournament
// ended instead (its last round was played).
type RoundStarted struct {
	Tournament *gobot.Tournament
	Round      int
	Games      []*Loaded
	Ended      bool
}

// roundLeft is the number of t's current round's games still going on.
func roundLeft(t *gobot.Tournament) int {
	if len(t.Played) == 0 {
		return 0
	}
	n := 0
	for _, g := range t.Played[len(t.Played)-1].Games {
		if g.Result == tournament.Unknown {
			n++
		}
	}
	return n
}

// StartTournament begins t at now: registration ends and the first round
// is paired and begun.
func StartTournament(tx gobot.Tx, vc VacationConfig, t *gobot.Tournament, now time.Time) (*RoundStarted, error) {
	switch t.State {
	case gobot.Running:
		return nil, TournamentRefusal{Problem: AlreadyStarted, Tournament: t}
	case gobot.Ended:
		return nil, refuse(t, TournamentOver)
	}
	if len(present(t)) < 2 {
		return nil, refuse(t, TooFewPlayers)
	}
	t.State = gobot.Running
	return nextRound(tx, vc, t, now)
}

// PairRound pairs and begins t's next round now (the organiser's
// `tournament pair`): once every game of the current round has its
// result.
func PairRound(tx gobot.Tx, vc VacationConfig, t *gobot.Tournament, now time.Time) (*RoundStarted, error) {
	switch t.State {
	case gobot.Registering:
		return nil, refuse(t, NotStarted)
	case gobot.Ended:
		return nil, refuse(t, TournamentOver)
	}
	if n := roundLeft(t); n > 0 {
		return nil, TournamentRefusal{Problem: RoundGoesOn, Tournament: t, Left: n}
	}
	if roundsDone(t) {
		return nil, refuse(t, AllRoundsPlayed)
	}
	return nextRound(tx, vc, t, now)
}

// roundsDone reports whether t has played all its rounds.
func roundsDone(t *gobot.Tournament) bool {
	switch t.System {
	case tournament.RoundRobin, tournament.DoubleRoundRobin:
		return len(t.Played) >= tournament.RoundRobinRounds(len(t.Players), t.System == tournament.DoubleRoundRobin)
	case tournament.Elimination:
		if len(t.Played) == 0 {
			return false
		}
		last := t.Played[len(t.Played)-1]
		return len(last.Games) == 1 && len(last.Byes) == 0
	}
	return t.Rounds > 0 && len(t.Played) >= t.Rounds
}

// TournamentDue does t's timed work at now: registration closing starts
// it; a round whose games all ended is followed by the next, or by the
// end. Nothing when nothing is due (another process did it).
func TournamentDue(tx gobot.Tx, vc VacationConfig, t *gobot.Tournament, now time.Time) (*RoundStarted, error) {
	if t.Due.IsZero() || now.Before(t.Due) {
		return nil, nil
	}
	t.Due = time.Time{}
	switch {
	case t.State == gobot.Registering:
		if len(present(t)) < 2 { // nobody to pair: it waits for the organiser
			return nil, tx.PutTournament(t)
		}
		t.State = gobot.Running
		return nextRound(tx, vc, t, now)
	case t.State == gobot.Running && roundLeft(t) == 0:
		if roundsDone(t) {
			t.State = gobot.Ended
			return &RoundStarted{Tournament: t, Round: len(t.Played), Ended: true}, tx.PutTournament(t)
		}
		return nextRound(tx, vc, t, now)
	}
	return nil, tx.PutTournament(t)
}

// nextStart is when t's next round is due once the round before it is
// over at now: its start time if the organiser set one still to come,
// else now.
func nextStart(t *gobot.Tournament, now time.Time) time.Time {
	if s := t.StartOf(len(t.Played) + 1); s.After(now) {
		return s
	}
	return now
}

// ScheduleRound sets when t's round n (from 1) starts: at (zero: no set
// time, the round follows the one before it as soon as that is over).
// Round 1's start is when registration closes. A round with a start
// time is paired then by the runner (TournamentDue), once the round
// before it is over (or later, when it is over); `tournament pair`
// still pairs it at once.
func ScheduleRound(tx gobot.Tx, t *gobot.Tournament, n int, at, now time.Time) error {
	switch {
	case t.State == gobot.Ended:
		return refuse(t, TournamentOver)
	case n < 1 || n > tournament.MaxRounds || (t.Rounds > 0 && !fixedField(t) && n > t.Rounds):
		return TournamentRefusal{Problem: NoSuchRound, Tournament: t, Round: n}
	case n <= len(t.Played):
		return TournamentRefusal{Problem: RoundPaired, Tournament: t, Round: n}
	case !at.IsZero() && !at.After(now):
		return TournamentRefusal{Problem: StartPassed, Tournament: t, Round: n}
	}
	if n == 1 {
		t.RegistrationCloses = at
	} else {
		if len(t.Starts) < n {
			t.Starts = append(t.Starts, make([]time.Time, n-len(t.Starts))...)
		}
		t.Starts[n-1] = at
		for len(t.Starts) > 0 && t.Starts[len(t.Starts)-1].IsZero() {
			t.Starts = t.Starts[:len(t.Starts)-1]
		}
		if len(t.Starts) == 0 {
			t.Starts = nil
		}
	}
	// What the runner waits for now: registration closing, or the next
	// round's time once the round before it is over.
	switch {
	case t.State == gobot.Registering:
		t.Due = t.RegistrationCloses
	case n == len(t.Played)+1 && roundLeft(t) == 0:
		t.Due = nextStart(t, now)
	}
	return tx.PutTournament(t)
}

// EndTournament ends t now: its games go on, but no round follows.
func EndTournament(tx gobot.Tx, t *gobot.Tournament) error {
	if t.State == gobot.Ended {
		return refuse(t, TournamentOver)
	}
	t.State, t.Due = gobot.Ended, time.Time{}
	return tx.PutTournament(t)
}

// nextRound pairs t's next round and begins its games at now.
func nextRound(tx gobot.Tx, vc VacationConfig, t *gobot.Tournament, now time.Time) (*RoundStarted, error) {
	var absent []tournament.PlayerID
	sits := t.SitsOut[len(t.Played)] // an imported file's players marked out of this round
	for _, p := range t.Players {
		if p.Withdrawn || p.ID == t.ByeNext || slices.Contains(sits, p.ID) {
			absent = append(absent, p.ID)
		}
	}
	bye := t.ByeNext
	if bye != "" && len(present(t))%2 == 0 { // the field became even: no bye to give
		absent, bye = slices.DeleteFunc(absent, func(id tournament.PlayerID) bool { return id == bye }), ""
	}
	t.ByeNext = ""
	p := t.Pairing()
	rd, err := p.Pair(absent...)
	if err != nil {
		return nil, pairingRefusal(t, err)
	}
	for i := range rd.Games { // the tournament's handicap policy
		g := &rd.Games[i]
		switch {
		case t.Handicap.Kind == gobot.NoHandicap:
			g.Handicap = 0
		case t.Handicap.Cap > 0:
			g.Handicap = min(g.Handicap, t.Handicap.Cap)
		}
	}
	if bye != "" {
		rd.Absent = slices.DeleteFunc(rd.Absent, func(id tournament.PlayerID) bool { return id == bye })
		rd.Byes = append(rd.Byes, bye)
	}
	var unclaimed []string
	for _, g := range rd.Games {
		for _, id := range []tournament.PlayerID{g.Black, g.White} {
			if userOf(t, id) == "" {
				unclaimed = append(unclaimed, t.Players[slices.IndexFunc(t.Players, func(p gobot.TournamentPlayer) bool { return p.ID == id })].FullName())
			}
		}
	}
	if len(unclaimed) > 0 {
		return nil, TournamentRefusal{Problem: Unclaimed, Tournament: t, Names: unclaimed}
	}
	out := &RoundStarted{Tournament: t, Round: len(t.Played) + 1}
	tr := gobot.TournamentRound{Round: rd, Start: now}
	for _, g := range rd.Games {
		l, err := tournamentGame(tx, vc, t, g, now)
		if err != nil {
			return nil, err
		}
		tr.Matches = append(tr.Matches, l.Match.ID)
		out.Games = append(out.Games, l)
	}
	t.Played = append(t.Played, tr)
	delete(t.SitsOut, len(t.Played)-1)
	if len(rd.Games) == 0 { // everyone sat out: the next round follows (at its time)
		t.Due = nextStart(t, now)
	}
	return out, tx.PutTournament(t)
}

// pairingRefusal words package tournament's refusals as the door's.
func pairingRefusal(t *gobot.Tournament, err error) error {
	switch {
	case errors.Is(err, tournament.ErrTooFewPlayers):
		return refuse(t, TooFewPlayers)
	case errors.Is(err, tournament.ErrFinished):
		return refuse(t, AllRoundsPlayed)
	case errors.Is(err, tournament.ErrFixedSchedule):
		return refuse(t, FixedSchedule)
	case errors.Is(err, tournament.ErrNoWinner):
		e := TournamentRefusal{Problem: NeedsWinner, Tournament: t}
		if last := t.Played[len(t.Played)-1]; len(last.Games) > 0 {
			for i, g := range last.Games {
				if g.Result != tournament.WhiteWins && g.Result != tournament.BlackWins {
					e.Game = last.Match(i)
					break
				}
			}
		}
		return e
	}
	return err
}

// tournamentGame begins pairing g's game of t at now, as an accepted
// challenge's: the same game as any other (clocks, reminders, the web
// board), numbered as one.
func tournamentGame(tx gobot.Tx, vc VacationConfig, t *gobot.Tournament, g tournament.Game, now time.Time) (*Loaded, error) {
	cfg := game.Config{Width: t.Size, Height: t.Size, Rules: t.Rules}
	if g.Handicap > 0 { // OpenGotha's handicap games have no komi but the half point
		cfg.Rules.Komi = 0.5
		if g.Handicap >= 2 {
			cfg.Handicap = g.Handicap
		}
	}
	black, white := userOf(t, g.Black), userOf(t, g.White)
	c := &gobot.Challenge{From: black, To: white, Room: t.Room, Config: cfg, Clock: t.Clock, Color: "black", Status: gobot.Pending, Created: now}
	if err := Propose(tx, c); err != nil {
		return nil, err
	}
	o := Opening{By: white, At: now}
	if t.Rated && ratings.RatedSize(t.Size, t.Size) {
		o.Rating = &gobot.GameRating{Community: t.Community, Rated: true,
			BlackRank: rankLabel(tx, t.Community, black), WhiteRank: rankLabel(tx, t.Community, white)}
	}
	l, err := Begin(c, o)
	if err != nil {
		return nil, err
	}
	if _, err := GameBegins(tx, vc, l, now); err != nil {
		return nil, err
	}
	if err := tx.InsertMatch(l.Match); err != nil {
		return nil, err
	}
	ChallengeAccepted(c, l.Match, white, now)
	return l, tx.PutChallenge(c)
}

// rankLabel is u's rank label in community c ("" when unknown).
func rankLabel(tx gobot.Tx, c gobot.CommunityID, u gobot.UserID) string {
	rec, err := ratings.PlayerRating(tx, c, u)
	if err != nil {
		return ""
	}
	return rec.Player().RankLabel()
}

// gameEnded records the result of m, which ended now, in its tournament
// or its ladder (if it has one), in the transaction that ended it; the
// round's last result makes the tournament due for its next round.
func gameEnded(tx gobot.Tx, m *gobot.Match, now time.Time) error {
	t, err := tx.TournamentOfGame(m.ID)
	if errors.Is(err, gobot.ErrNotFound) {
		return ladderGameEnded(tx, m, now) // a ladder's challenge, if it is one (ladder.go)
	}
	if err != nil {
		return err
	}
	if known(t, m.ID) { // the organiser's result stands (SetTournamentResult)
		return nil
	}
	res, forfeit := ResultOf(m)
	if !setResult(t, m.ID, res, forfeit) {
		return nil
	}
	if t.State == gobot.Running && roundLeft(t) == 0 {
		t.Due = nextStart(t, now)
	}
	return tx.PutTournament(t)
}

// ResultOf is game m's result as a tournament records it: an aborted
// game counts for neither (both lose, as OpenGotha's organiser records
// an annulled game); a game lost on time or by resignation counts as
// played.
func ResultOf(m *gobot.Match) (tournament.Result, bool) {
	r, err := game.ParseResult(m.Result)
	switch {
	case err != nil || m.Result == "" || m.Result == "Void" || m.Result == "?":
		return tournament.BothLose, false
	case r.Winner == game.Black:
		return tournament.BlackWins, false
	case r.Winner == game.White:
		return tournament.WhiteWins, false
	}
	return tournament.Jigo, false
}

// known reports whether game id of t has its result already.
func known(t *gobot.Tournament, id gobot.GameID) bool {
	for _, r := range t.Played {
		for i, g := range r.Games {
			if r.Match(i) == id {
				return g.Result != tournament.Unknown
			}
		}
	}
	return false
}

// setResult records game id's result in t; false when id is none of its.
func setResult(t *gobot.Tournament, id gobot.GameID, res tournament.Result, forfeit bool) bool {
	for ri := range t.Played {
		r := &t.Played[ri]
		for i := range r.Games {
			if r.Match(i) == id {
				r.Games[i].Result, r.Games[i].Forfeit = res, forfeit
				return true
			}
		}
	}
	return false
}

// SetTournamentResult is the organiser's result for game id of t (a
// correction, or an adjudication: a forfeit); the game itself is left
// as it is. A round's last result makes the next round due.
func SetTournamentResult(tx gobot.Tx, t *gobot.Tournament, id gobot.GameID, res tournament.Result, forfeit bool, now time.Time) error {
	if !setResult(t, id, res, forfeit) {
		return TournamentRefusal{Problem: NotTournamentGame, Tournament: t, Game: id}
	}
	if t.State == gobot.Running && roundLeft(t) == 0 {
		t.Due = nextStart(t, now)
	}
	return tx.PutTournament(t)
}
