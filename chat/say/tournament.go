package say

import (
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"
	"unicode"
	"unicode/utf8"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/tournament"
)

// A tournament's and a ladder's tables, as text for chat: fixed-width
// rows in a code block, cut into pages that fit one message (Discord's
// 2,000 characters; Matrix allows far more, but a long table is read
// better a page at a time, and the PNG and the web page show it whole).

// TableBudget is the most characters a table's message takes, its
// code fences, notes and the line that names the next page included.
const TableBudget = 1900

// Paging is which page of a long table to show (from 1) and the command
// that shows a page, to which " page=N" is added in the line that says
// how to see more ("tournament standings").
type Paging struct {
	Page    int
	Command string
}

// StandingsRounds is how many rounds' columns the standings text shows at
// most (the last ones): more make rows too wide for a chat message.
const StandingsRounds = 5

// CrosstablePlayers is how many players the crosstable text shows.
const CrosstablePlayers = 16

// nameWidth is how many characters of a name the tables show.
const nameWidth = 14

// TournamentStandings is the standings after round after (from 0), as
// OpenGotha prints them: place (blank when equal to the line above),
// name, rank, score (McMahon score, or wins), each of the last
// StandingsRounds rounds ("3+/w2": beat line 3 with White at handicap 2),
// SOS, SOSOS and SODOS.
func TournamentStandings(t *tournament.Tournament, after int, pg Paging) (string, error) {
	lines, err := t.Table(after)
	if err != nil {
		return "", err
	}
	first := max(0, after+1-StandingsRounds)
	score := "wins"
	if t.System == tournament.McMahon {
		score = "MMS"
	}
	head := []string{"#", "name", "rank", score}
	for r := first; r <= after; r++ {
		head = append(head, "R"+strconv.Itoa(r+1))
	}
	head = append(head, "SOS", "SOSOS", "SODOS")
	rows := make([][]string, len(lines))
	for i, l := range lines {
		place := strconv.Itoa(l.Place)
		if i > 0 && lines[i-1].Place == l.Place {
			place = ""
		}
		row := []string{place, cell(l.Name, nameWidth), l.Rank.String(), l.Score.String()}
		for _, r := range l.Rounds[first:] {
			row = append(row, r.String())
		}
		rows[i] = append(row, l.SOS.String(), l.SOSOS.String(), l.SODOS.String())
	}
	tab := rowsTable(head, rows, map[int]bool{0: true, 3: true, len(head) - 3: true, len(head) - 2: true, len(head) - 1: true})
	notes := fmt.Sprintf("After round %d. 3+/w2: beat the player on line 3 with White, handicap 2 (- lost, = jigo, ? no result yet; ! by default); 0+ a bye.", after+1)
	if t.System == tournament.McMahon {
		notes += " MMS: McMahon score."
	}
	if first > 0 {
		notes += fmt.Sprintf(" Rounds %d–%d shown.", first+1, after+1)
	}
	// A page's first line shows its place even when equal to the line above.
	tab.row = func(i int, first bool) []string {
		if !first || rows[i][0] != "" {
			return rows[i]
		}
		r := slices.Clone(rows[i])
		r[0] = strconv.Itoa(lines[i].Place)
		return r
	}
	return tab.page(pg, notes)
}

// TournamentCrosstable is the top CrosstablePlayers of the standings
// after round after, each against each: a cell holds the row player's
// results against the column player's (+ won, - lost, = jigo, ? no
// result yet), one a game.
func TournamentCrosstable(t *tournament.Tournament, after int) (string, error) {
	lines, err := t.Table(after)
	if err != nil {
		return "", err
	}
	n := min(len(lines), CrosstablePlayers)
	cells := make([][]string, n)
	width := 1
	for i := range n {
		cells[i] = make([]string, n)
		for _, r := range lines[i].Rounds {
			if r.Kind != tournament.RoundPlayed || r.OpponentLine > n {
				continue
			}
			cells[i][r.OpponentLine-1] += r.Outcome.String()
			width = max(width, len(cells[i][r.OpponentLine-1]))
		}
	}
	head := []string{"#", "name", "score"}
	for j := range n {
		head = append(head, strconv.Itoa(j+1))
	}
	rows := make([][]string, n)
	right := map[int]bool{0: true, 2: true}
	for i := range n {
		rows[i] = []string{strconv.Itoa(i + 1), cell(lines[i].Name, nameWidth), lines[i].Score.String()}
		for j := range n {
			c := cells[i][j]
			switch {
			case i == j:
				c = strings.Repeat("x", width)
			case c == "":
				c = "."
			}
			rows[i] = append(rows[i], c)
		}
	}
	for j := range n {
		right[3+j] = true
	}
	tab := rowsTable(head, rows, right)
	notes := fmt.Sprintf("After round %d: each row's results against each column's player (+ won, - lost, = jigo, ? no result yet).", after+1)
	if more := len(lines) - n; more > 0 {
		notes += fmt.Sprintf(" The top %d; and %d more.", n, more)
	}
	return tab.page(Paging{Page: 1}, notes)
}

// TournamentPairings is round round's (from 0) pairings: board, White
// and Black with their ranks, handicap and result ("B+", "W+forfeit",
// "?" while the game goes on), then the bye and who sits out.
func TournamentPairings(t *tournament.Tournament, round int, pg Paging) (string, error) {
	if round < 0 || round >= len(t.Played) {
		return "", Refusef("Round %d has not been paired yet; %d round%s so far.", round+1, len(t.Played), Plural(len(t.Played)))
	}
	who := make(map[tournament.PlayerID]*tournament.Player, len(t.Players))
	for i := range t.Players {
		who[t.Players[i].ID] = &t.Players[i]
	}
	name := func(id tournament.PlayerID) string {
		p := who[id]
		if p == nil {
			return cell(string(id), nameWidth)
		}
		return cell(p.FullName(), nameWidth) + " (" + p.Rank.String() + ")"
	}
	rd := t.Played[round]
	rows := make([][]string, len(rd.Games))
	for i, g := range rd.Games {
		res := g.Result.String()
		if g.Forfeit {
			res += "forfeit"
		}
		hc := "even"
		if g.Handicap > 0 {
			hc = "h" + strconv.Itoa(g.Handicap)
		}
		rows[i] = []string{strconv.Itoa(g.Table), name(g.White), name(g.Black), hc, res}
	}
	tab := rowsTable([]string{"board", "White", "Black", "hcp", "result"}, rows, map[int]bool{0: true})
	var notes []string
	notes = append(notes, fmt.Sprintf("Round %d: %d game%s.", round+1, len(rd.Games), Plural(len(rd.Games))))
	list := func(ids []tournament.PlayerID) string {
		var s []string
		for _, id := range ids[:min(len(ids), 10)] {
			s = append(s, strings.TrimSpace(name(id)))
		}
		if len(ids) > 10 {
			s = append(s, fmt.Sprintf("%d more", len(ids)-10))
		}
		return AndList(s)
	}
	if len(rd.Byes) > 0 {
		notes = append(notes, "Bye: "+list(rd.Byes)+".")
	}
	if len(rd.Absent) > 0 {
		notes = append(notes, "Sitting out: "+list(rd.Absent)+".")
	}
	return tab.page(pg, strings.Join(notes, " "))
}

// TournamentPage words the link to a tournament's web page, under its
// standings: the room's link, which works until expires.
func TournamentPage(url string, expires time.Time) string {
	return fmt.Sprintf("All standings, every round's pairings with their boards, and the crosstable (web page, until %s):\n%s", expires.UTC().Format("2 Jan 2006"), url)
}

// cell makes s safe for a table in a code block and at most width
// characters: no backticks (they would end the block) and no line
// breaks or other control characters.
func cell(s string, width int) string {
	s = strings.Map(func(r rune) rune {
		switch {
		case r == '`':
			return '\''
		case unicode.IsControl(r):
			return ' '
		}
		return r
	}, s)
	return protocol.ClipRunes(strings.TrimSpace(s), width)
}

// userOf is the bot's user a ladder or tournament player is.
func userOf(p tournament.PlayerID) gobot.UserID { return gobot.UserID(p) }

// table is a text table cut into pages: columns as wide as their widest
// cell on the page, some aligned right. Its rows are made a page at a
// time (row), so a page of a 2,000-rung ladder names its own players
// only; width bounds a row's characters on every page.
type table struct {
	head  []string
	n     int
	row   func(i int, first bool) []string // first: the row opens its page
	right map[int]bool
	width int // the most characters a row takes, its line break included
	// prepare, if set, is told the rows of the page about to be made.
	prepare func(lo, hi int)
}

// rowsTable is a table of rows made already.
func rowsTable(head []string, rows [][]string, right map[int]bool) *table {
	w := widths(head, rows)
	return &table{head: head, n: len(rows), row: func(i int, _ bool) []string { return rows[i] }, right: right, width: lineWidth(w)}
}

// widths is each column's widest cell.
func widths(head []string, rows [][]string) []int {
	w := make([]int, len(head))
	for j, h := range head {
		w[j] = utf8.RuneCountInString(h)
	}
	for _, r := range rows {
		for j, c := range r {
			w[j] = max(w[j], utf8.RuneCountInString(c))
		}
	}
	return w
}

// lineWidth is the characters a row of columns w takes: the cells, two
// spaces between them, the line break.
func lineWidth(w []int) int {
	n := 2 * len(w)
	for _, x := range w {
		n += x
	}
	return n - 1
}

// line writes one row, its cells two spaces apart, without trailing
// spaces.
func (t *table) line(b *strings.Builder, w []int, r []string) {
	var l strings.Builder
	for j, c := range r {
		if j > 0 {
			l.WriteString("  ")
		}
		pad := strings.Repeat(" ", w[j]-utf8.RuneCountInString(c))
		if t.right[j] {
			l.WriteString(pad + c)
		} else {
			l.WriteString(c + pad)
		}
	}
	b.WriteString(strings.TrimRight(l.String(), " "))
	b.WriteByte('\n')
}

// perPage is how many rows a page holds within TableBudget, with its
// notes and the line naming the next page's command.
func (t *table) perPage(notes, command string) int {
	more := len(fmt.Sprintf("Lines %d–%d of %d; ", t.n, t.n, t.n)) + len(Cmd(command+" page=0000")) + len(" shows the next.")
	fixed := len("```\n") + t.width + len("```\n") + utf8.RuneCountInString(notes) + 1 + more
	return max(1, (TableBudget-fixed)/t.width)
}

// page writes page pg of the table in a code block, the notes under it,
// and, when there are more pages, which lines it shows and the command
// for the next.
func (t *table) page(pg Paging, notes string) (string, error) {
	per := t.perPage(notes, pg.Command)
	pages := max(1, (t.n+per-1)/per)
	p := max(pg.Page, 1)
	if p > pages {
		return "", Refusef("There %s %d page%s; page %d is past the end.", map[bool]string{true: "is", false: "are"}[pages == 1], pages, Plural(pages), p)
	}
	lo, hi := (p-1)*per, min(p*per, t.n)
	if t.prepare != nil {
		t.prepare(lo, hi)
	}
	rows := make([][]string, 0, hi-lo)
	for i := lo; i < hi; i++ {
		rows = append(rows, t.row(i, i == lo))
	}
	w := widths(t.head, rows)
	var b strings.Builder
	b.WriteString("```\n")
	t.line(&b, w, t.head)
	for _, r := range rows {
		t.line(&b, w, r)
	}
	b.WriteString("```\n")
	b.WriteString(notes)
	if pages > 1 {
		fmt.Fprintf(&b, "\nLines %d–%d of %d", lo+1, hi, t.n)
		if p < pages && pg.Command != "" {
			fmt.Fprintf(&b, "; %s shows the next", Cmd(fmt.Sprintf("%s page=%d", pg.Command, p+1)))
		}
		b.WriteString(".")
	}
	return b.String(), nil
}

// RoundScheduled confirms round n's start time (zero: none set).
func RoundScheduled(t *gobot.Tournament, n int, at time.Time) string {
	if at.IsZero() {
		if n == 1 {
			return fmt.Sprintf("%s has no set start: its first round is paired when the organiser starts it.", TournamentName(t))
		}
		return fmt.Sprintf("Round %d of %s has no set start: it is paired as soon as round %d is over.", n, TournamentName(t), n-1)
	}
	when := at.UTC().Format("Mon 2 Jan 2006 15:04 UTC")
	if n == 1 {
		return fmt.Sprintf("Registration for %s closes %s, and round 1 is paired then.", TournamentName(t), when)
	}
	return fmt.Sprintf("Round %d of %s starts %s: it is paired then, once round %d is over (or when it is over, if later).", n, TournamentName(t), when, n-1)
}

// TournamentSchedule lists t's rounds' start times still to come.
func TournamentSchedule(t *gobot.Tournament) string {
	var lines []string
	last := max(len(t.Starts), 1)
	for n := len(t.Played) + 1; n <= last; n++ {
		if s := t.StartOf(n); !s.IsZero() {
			lines = append(lines, fmt.Sprintf("round %d: %s", n, s.UTC().Format("Mon 2 Jan 2006 15:04 UTC")))
		}
	}
	if len(lines) == 0 {
		return fmt.Sprintf("No start times are set for %s's rounds to come: each is paired as soon as the one before it is over. An organiser sets one with %s.", TournamentName(t), Cmd("tournament schedule round=2 at=2026-12-14T18:00"))
	}
	return fmt.Sprintf("Start times of %s's rounds to come:\n%s", TournamentName(t), strings.Join(lines, "\n"))
}
