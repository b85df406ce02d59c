package record

import (
	"bytes"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// reviewRec is a review (gobot.Review). Its tree is a list of nodes, each
// naming its parent (an earlier node): a node's children are the later
// nodes naming it, in order. Points are SGF points ("dd"), moves "B dd",
// "W" (a pass) or absent, marks "TR dd", "SQ dd", "CR dd" or "LB dd A".
type reviewRec struct {
	V          int               `json:"v"`
	ID         uint64            `json:"id"`
	Version    int               `json:"version"`
	Room       string            `json:"room"`
	Game       uint64            `json:"game,omitempty"`
	Title      string            `json:"title"`
	Width      int               `json:"width"`
	Height     int               `json:"height"`
	Komi       float64           `json:"komi"`
	Handicap   int               `json:"handicap,omitempty"`
	Rules      string            `json:"rules,omitempty"`
	Info       map[string]string `json:"info,omitempty"` // SGF game-info by property: PB, PW, RE…
	Nodes      []nodeRec         `json:"nodes"`
	Node       int               `json:"node"`
	Owner      string            `json:"owner"`
	Controller string            `json:"controller"`
	Present    []string          `json:"present,omitempty"`
	LinkGen    map[string]uint64 `json:"gen,omitempty"`
	Kept       bool              `json:"kept,omitempty"`
	Closed     bool              `json:"closed,omitempty"`
	Created    time.Time         `json:"created"`
	Updated    time.Time         `json:"updated"`
}

type nodeRec struct {
	Parent  int      `json:"p"`
	Move    string   `json:"m,omitempty"`
	AE      []string `json:"ae,omitempty"`
	AB      []string `json:"ab,omitempty"`
	AW      []string `json:"aw,omitempty"`
	ToPlay  string   `json:"pl,omitempty"`
	Marks   []string `json:"mk,omitempty"`
	Comment string   `json:"c,omitempty"`
}

// infoFields are the game-info a review keeps, by SGF property.
func infoFields(info *game.GameInfo) map[string]*string {
	return map[string]*string{"PB": &info.Black, "PW": &info.White, "BR": &info.BlackRank, "WR": &info.WhiteRank,
		"DT": &info.Date, "RE": &info.Result, "EV": &info.Event, "RO": &info.Round, "PC": &info.Place, "GN": &info.Name,
		"TM": &info.TimeLimit, "OT": &info.Overtime}
}

func points(pts []game.Point) []string {
	var out []string
	for _, p := range pts {
		out = append(out, p.SGF())
	}
	return out
}

var markWords = map[game.MarkShape]string{game.Triangle: "TR", game.Square: "SQ", game.Circle: "CR", game.Label: "LB"}

// EncodeReview writes a review in the record format.
func EncodeReview(r *gobot.Review) ([]byte, error) {
	t := r.Tree
	if t == nil {
		return nil, fmt.Errorf("review #%d cannot be stored: no tree", r.ID)
	}
	rec := reviewRec{V: Format, ID: uint64(r.ID), Version: r.Version, Room: string(r.Room), Game: uint64(r.Game), Title: r.Title,
		Width: t.Width, Height: t.Height, Komi: t.Komi, Handicap: t.Handicap, Rules: t.Rules, Node: r.Node,
		Owner: string(r.Owner), Controller: string(r.Controller), Kept: r.Kept, Closed: r.Closed, Created: r.Created, Updated: r.Updated}
	for id, f := range infoFields(&t.Info) {
		if *f != "" {
			if rec.Info == nil {
				rec.Info = map[string]string{}
			}
			rec.Info[id] = *f
		}
	}
	for u, g := range r.LinkGen {
		if g != 0 {
			if rec.LinkGen == nil {
				rec.LinkGen = map[string]uint64{}
			}
			rec.LinkGen[string(u)] = g
		}
	}
	for _, u := range r.Present {
		rec.Present = append(rec.Present, string(u))
	}
	for i, n := range t.Nodes {
		if i > 0 && (n.Parent < 0 || n.Parent >= i) {
			return nil, fmt.Errorf("review #%d cannot be stored: node %d hangs from node %d", r.ID, i, n.Parent)
		}
		nr := nodeRec{Parent: n.Parent, AE: points(n.Setup[game.Empty]), AB: points(n.Setup[game.Black]), AW: points(n.Setup[game.White]), Comment: n.Comment}
		if n.Move.Color != game.Empty {
			nr.Move = strings.TrimSpace(n.Move.Color.String() + " " + n.Move.Point.SGF())
		}
		if n.ToPlay != game.Empty {
			nr.ToPlay = n.ToPlay.String()
		}
		for _, m := range n.Marks {
			s := markWords[m.Shape] + " " + m.Point.SGF()
			if m.Shape == game.Label {
				s += " " + m.Text
			}
			nr.Marks = append(nr.Marks, s)
		}
		rec.Nodes = append(rec.Nodes, nr)
	}
	// Text as it is, not HTML-escaped: "<" in a comment ("a <- b") is
	// one byte in the record, not six.
	var buf bytes.Buffer
	enc := json.NewEncoder(&buf)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(rec); err != nil {
		return nil, err
	}
	return bytes.TrimSuffix(buf.Bytes(), []byte("\n")), nil
}

// DecodeReview reads a review written by EncodeReview.
func DecodeReview(raw []byte) (*gobot.Review, error) {
	if err := checkFormat(raw); err != nil {
		return nil, err
	}
	var rec reviewRec
	if err := json.Unmarshal(raw, &rec); err != nil {
		return nil, err
	}
	t, err := game.NewTree(rec.Width, rec.Height)
	if err != nil {
		return nil, err
	}
	t.Komi, t.Handicap, t.Rules = rec.Komi, rec.Handicap, rec.Rules
	for id, f := range infoFields(&t.Info) {
		*f = rec.Info[id]
	}
	t.Nodes = t.Nodes[:0]
	pts := func(ss []string) ([]game.Point, error) {
		var out []game.Point
		for _, s := range ss {
			p, err := game.ParseSGFPoint(s, rec.Width, rec.Height)
			if err != nil {
				return nil, err
			}
			out = append(out, p)
		}
		return out, nil
	}
	color := func(s string) (game.Color, error) {
		switch s {
		case "B":
			return game.Black, nil
		case "W":
			return game.White, nil
		}
		return game.Empty, fmt.Errorf("colour %q", s)
	}
	for i, nr := range rec.Nodes {
		if (i == 0) != (nr.Parent < 0) || nr.Parent >= i {
			return nil, fmt.Errorf("node %d hangs from node %d", i, nr.Parent)
		}
		n := game.TreeNode{Parent: nr.Parent, Comment: nr.Comment}
		var err error
		for c, ss := range [3][]string{nr.AE, nr.AB, nr.AW} {
			if n.Setup[c], err = pts(ss); err != nil {
				return nil, fmt.Errorf("node %d: %w", i, err)
			}
		}
		if nr.Move != "" {
			c, p, _ := strings.Cut(nr.Move, " ")
			if n.Move.Color, err = color(c); err != nil {
				return nil, fmt.Errorf("node %d: %w", i, err)
			}
			if n.Move.Point, err = game.ParseSGFPoint(p, rec.Width, rec.Height); err != nil {
				return nil, fmt.Errorf("node %d: %w", i, err)
			}
		}
		if nr.ToPlay != "" {
			if n.ToPlay, err = color(nr.ToPlay); err != nil {
				return nil, fmt.Errorf("node %d: %w", i, err)
			}
		}
		for _, s := range nr.Marks {
			f := strings.SplitN(s, " ", 3)
			var m game.Mark
			for shape, w := range markWords {
				if w == f[0] {
					m.Shape = shape
				}
			}
			if m.Shape == 0 || len(f) < 2 || (m.Shape == game.Label) != (len(f) == 3) {
				return nil, fmt.Errorf("node %d: mark %q", i, s)
			}
			if m.Point, err = game.ParseSGFPoint(f[1], rec.Width, rec.Height); err != nil {
				return nil, fmt.Errorf("node %d: %w", i, err)
			}
			if len(f) == 3 {
				m.Text = f[2]
			}
			n.Marks = append(n.Marks, m)
		}
		t.Nodes = append(t.Nodes, n)
		if i > 0 {
			t.Nodes[nr.Parent].Children = append(t.Nodes[nr.Parent].Children, i)
		}
	}
	if len(t.Nodes) == 0 || !t.Has(rec.Node) {
		return nil, fmt.Errorf("position %d of a tree of %d nodes", rec.Node, len(t.Nodes))
	}
	r := &gobot.Review{ID: gobot.ReviewID(rec.ID), Version: rec.Version, Room: gobot.RoomID(rec.Room), Game: gobot.GameID(rec.Game),
		Title: rec.Title, Tree: t, Node: rec.Node, Owner: gobot.UserID(rec.Owner), Controller: gobot.UserID(rec.Controller),
		Kept: rec.Kept, Closed: rec.Closed, Created: rec.Created, Updated: rec.Updated}
	for u, g := range rec.LinkGen {
		if r.LinkGen == nil {
			r.LinkGen = map[gobot.UserID]uint64{}
		}
		r.LinkGen[gobot.UserID(u)] = g
	}
	for _, u := range rec.Present {
		r.Present = append(r.Present, gobot.UserID(u))
	}
	return r, nil
}
