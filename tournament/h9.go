package tournament

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode"

	"golang.org/x/text/unicode/norm"
)

// ErrUnfinished is returned for a results file asked of a tournament
// with a game that has no result yet.
var ErrUnfinished = errors.New("a game has no result yet")

// WriteH9 writes the EGF results file (".h9") of the rounds played, for
// rating: the header the EGF asks for (class, event, place, dates,
// handicap, komi, adjusted time, overtime), then one line per player in
// the order of the standings — number, name, rank, country, club, score,
// SOS, SOSOS, SODOS, then each round's result as "<opponent's number>
// <+|-|=>/<w|b><handicap>", "3+/w2" — in ASCII, as the EGF reads these
// tables. A round without a rated game is "0+" (a bye, a win by forfeit,
// a win given to both), "0-" (a loss by forfeit, a loss given to both, a
// round sat out or not paired in Swiss) or "0=" (a round sat out in
// McMahon, worth half a point, or a jigo by forfeit): forfeits and
// results the organiser gave both players are not games to rate.
func WriteH9(w io.Writer, t *Tournament, m Meta) error {
	if err := t.check(); err != nil {
		return err
	}
	last := len(t.Played) - 1
	if last < 0 {
		return fmt.Errorf("%w: no round has been played yet", ErrUnfinished)
	}
	for r, rd := range t.Played {
		for _, g := range rd.Games {
			if g.Result == Unknown {
				return fmt.Errorf("%w: the game at table %d of round %d", ErrUnfinished, g.Table, r+1)
			}
		}
	}
	st, err := t.Standings(last)
	if err != nil {
		return err
	}
	line := make(map[PlayerID]int, len(st))
	for i, s := range st {
		line[s.Player] = i + 1
	}
	idx := t.index()
	var b bytes.Buffer
	c := m.Clock.bounded()
	h := DefaultHandicap(t.System)
	if m.Handicap != nil {
		h = *m.Handicap
	}
	fmt.Fprintf(&b, "; CL[%s]\n", egfClass(c, m.Internet))
	fmt.Fprintf(&b, "; EV[%s]\n", h9Text(m.Name))
	fmt.Fprintf(&b, "; PC[,%s]\n", h9Text(m.Location))
	fmt.Fprintf(&b, "; DT[%s,%s]\n", writeDate(m.Begin), writeDate(m.End))
	if h.Ceiling > 0 && h.Correction > 0 {
		fmt.Fprintf(&b, "; HA[h%d]\n", h.Correction)
	}
	fmt.Fprintf(&b, "; KM[%s]\n", strconv.FormatFloat(m.Komi, 'f', -1, 64))
	fmt.Fprintf(&b, "; TM[%d]\n", adjustedSeconds(c)/60)
	fmt.Fprintf(&b, "; CM[%s]\n", [...]string{"Sudden death", "Standard byo-yomi", "Canadian byo-yomi", "Fischer"}[c.Overtime])
	score := "NBW"
	if t.System == McMahon {
		score = "MMS"
	}
	fmt.Fprintf(&b, ";\n; Pl Name                           Rk Co Club %5s   SOS SOSOS SODOS", score)
	for r := range t.Played {
		fmt.Fprintf(&b, " %8d", r+1)
	}
	b.WriteString("\n")
	entries := make([]map[PlayerID]string, len(t.Played))
	absent := make([]map[PlayerID]bool, len(t.Played))
	for r, rd := range t.Played {
		entries[r] = h9Entries(t, r, line)
		absent[r] = make(map[PlayerID]bool, len(rd.Absent))
		for _, id := range rd.Absent {
			absent[r][id] = true
		}
	}
	for i, s := range st {
		p := &t.Players[idx[s.Player]]
		name, first := p.ogNames()
		country := h9Token(p.Country, "XX")
		club := h9Token(javaPrefix(p.Club, ogClubLen), "xxxx")
		fmt.Fprintf(&b, "%4d %-30s %3s %2s %4s %5s %5s %5s %5s", i+1,
			h9Token(name, "-")+" "+h9Token(first, "-"), strings.ToLower(ogRankString(p.Rank)), country, club,
			h9Points(s.Score), h9Points(s.SOS), h9Points(s.SOSOS), h9Points(s.SODOS))
		for r := range t.Played {
			e, ok := entries[r][p.ID]
			if !ok {
				e = h9NoGame(t, r, p, absent[r])
			}
			fmt.Fprintf(&b, " %8s", e)
		}
		b.WriteString("\n")
	}
	_, err = w.Write(b.Bytes())
	return err
}

// h9Entries are round r's entries of the players with a game or a bye;
// the others sat out or were not paired (h9NoGame).
func h9Entries(t *Tournament, r int, line map[PlayerID]int) map[PlayerID]string {
	rd := &t.Played[r]
	out := make(map[PlayerID]string, 2*len(rd.Games)+len(rd.Byes))
	for _, g := range rd.Games {
		for _, id := range []PlayerID{g.White, g.Black} {
			sign := "-"
			switch wonX2(&g, id) {
			case 2:
				sign = "+"
			case 1:
				sign = "="
			}
			colour, opp := "w", g.Black
			if g.Black == id {
				colour, opp = "b", g.White
			}
			out[id] = fmt.Sprintf("%d%s/%s%d", line[opp], sign, colour, g.Handicap)
			if g.Forfeit || g.Result == BothWin || g.Result == BothLose {
				out[id] = "0" + sign
			}
		}
	}
	for _, id := range rd.Byes {
		out[id] = "0+"
	}
	return out
}

// h9NoGame is the entry of a round without a game or a bye: half a
// point in McMahon for a round sat out (or before joining), else nothing.
func h9NoGame(t *Tournament, r int, p *Player, absent map[PlayerID]bool) string {
	if t.System == McMahon && (r < p.Joined || absent[p.ID]) {
		return "0="
	}
	return "0-"
}

// h9Points writes points as a decimal number: "3", "2.5", "0.75".
func h9Points(p Points) string {
	return strconv.FormatFloat(float64(p)/4, 'f', -1, 64)
}

// egfClass is the EGF's class of a tournament by its clock: A, B and C
// for the time limits the EGF sets (basic time, and adjusted time: the
// basic time and 45 moves of byo-yomi, 60 of Canadian, or 120 Fischer
// increments), D for the internet, X below them — as OpenGotha reckons it.
func egfClass(c Clock, internet bool) string {
	bt, at := c.BasicMinutes*60, adjustedSeconds(c)
	class := "X"
	fischer := c.Overtime == Fischer
	switch {
	case internet:
		if (!fischer && bt >= 2400 || fischer && bt >= 1800) && at >= 3000 {
			class = "D"
		}
	case !fischer:
		for _, l := range []struct {
			c      string
			bt, at int
		}{{"C", 1500, 1800}, {"B", 2400, 3000}, {"A", 3600, 4500}} {
			if bt >= l.bt && at >= l.at {
				class = l.c
			}
		}
	default:
		for _, l := range []struct {
			c      string
			bt, at int
		}{{"C", 1200, 1800}, {"B", 1800, 3000}, {"A", 2700, 4500}} {
			if bt >= l.bt && at >= l.at {
				class = l.c
			}
		}
	}
	return class
}

// adjustedSeconds is the EGF's adjusted time of a clock, in seconds.
func adjustedSeconds(c Clock) int {
	bt := c.BasicMinutes * 60
	switch c.Overtime {
	case ByoYomi:
		return bt + 45*c.ByoYomiSeconds
	case Canadian:
		return bt + 60*c.CanadianSeconds/c.CanadianMoves
	case Fischer:
		return bt + 120*c.FischerSeconds
	}
	return bt
}

// h9Token writes a name, club or country as one token of ASCII: letters
// lose their accents, spaces become underscores, other characters a
// question mark; empty, it is def.
func h9Token(s, def string) string {
	s = strings.ReplaceAll(strings.TrimSpace(h9Text(s)), " ", "_")
	if s == "" {
		return def
	}
	return s
}

// h9Text writes s in ASCII, as the EGF reads its tables: accents dropped,
// a few letters spelled out, other characters a question mark, and no
// character that would end a header's value or start a comment.
func h9Text(s string) string {
	var b strings.Builder
	for _, r := range norm.NFD.String(s) {
		switch {
		case unicode.Is(unicode.Mn, r):
		case r == '[':
			b.WriteByte('(')
		case r == ']':
			b.WriteByte(')')
		case r == ';' || r == '\n' || r == '\r' || r == '\t':
			b.WriteByte(' ')
		case r < 0x20 || r == 0x7f:
		case r < 0x80:
			b.WriteRune(r)
		default:
			if t, ok := h9Letters[r]; ok {
				b.WriteString(t)
			} else {
				b.WriteByte('?')
			}
		}
	}
	return b.String()
}

// h9Letters spells out the letters that do not decompose into a Latin
// letter and accents.
var h9Letters = map[rune]string{
	'ß': "ss", 'ẞ': "SS", 'Æ': "AE", 'æ': "ae", 'Œ': "OE", 'œ': "oe", 'Ø': "O", 'ø': "o",
	'Ł': "L", 'ł': "l", 'Đ': "D", 'đ': "d", 'Ð': "D", 'ð': "d", 'Þ': "Th", 'þ': "th", 'ı': "i",
}
