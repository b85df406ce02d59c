package game

import (
	"errors"
	"fmt"
	"io"
	"strconv"
	"strings"
	"unicode/utf8"
)

// This file holds the game tree a review walks: the main line and its
// variations, with marks and a comment per node. It is built from a
// finished game's record, from an SGF game tree or as an empty board,
// and written back as SGF (C, TR, SQ, CR, LB) that ReadSGF and
// TreeFromSGF read again.

// Limits of a tree, so that a stored review stays small whatever built
// it: an SGF file (TreeFromSGF refuses one beyond them), a game, or the
// board's edits (Play, ToggleMark and SetComment refuse to grow a tree
// beyond them). With them a tree's stored record is at most a few
// hundred KB plus a small multiple of the SGF it was read from.
const (
	MaxTreeNodes  = 5000 // nodes in a tree, the root included
	MaxCommentLen = 2000 // bytes of one node's comment
	MaxLabelLen   = 4    // bytes of one LB label
	// MaxMarksOfNode: a node has one mark per point at most.
	MaxMarksOfNode = MaxSize * MaxSize
	// MaxTreePoints bounds the setup stones (AB, AW, AE) and marks (TR,
	// SQ, CR, LB) of all the tree's nodes together. A node's setup lists
	// hold each point once (in the list that decides it) and its marks
	// one per point, so a node holds at most twice the board's points.
	MaxTreePoints = 20000
	// MaxTreeText bounds the bytes of the comments and labels of all the
	// tree's nodes together.
	MaxTreeText = 256 << 10
	// MaxInfoLen bounds each game-info text of a tree (players, event…).
	MaxInfoLen = 200
)

// Errors of tree editing; wrapped with the details.
var (
	ErrTreeFull    = errors.New("the review tree is full")
	ErrTreePoints  = errors.New("the review holds too many setup stones and marks")
	ErrTreeText    = errors.New("the review holds too much comment text")
	ErrNoNode      = errors.New("no such position in the review")
	ErrBadMark     = errors.New("not a mark")
	ErrLongComment = errors.New("comment too long")
)

// MarkShape is the kind of a mark on a point.
type MarkShape uint8

const (
	Triangle MarkShape = iota + 1 // SGF TR
	Square                        // SGF SQ
	Circle                        // SGF CR
	Label                         // SGF LB, with the mark's text
)

// markIDs are the SGF properties of the shapes, by MarkShape.
var markIDs = [...]string{Triangle: "TR", Square: "SQ", Circle: "CR", Label: "LB"}

// String returns the shape's name: "triangle", "square", "circle", "label".
func (s MarkShape) String() string {
	switch s {
	case Triangle:
		return "triangle"
	case Square:
		return "square"
	case Circle:
		return "circle"
	case Label:
		return "label"
	}
	return "?"
}

// ParseMarkShape reads a shape's name as String writes it.
func ParseMarkShape(s string) (MarkShape, bool) {
	for _, m := range []MarkShape{Triangle, Square, Circle, Label} {
		if m.String() == s {
			return m, true
		}
	}
	return 0, false
}

// Mark is a shape or a label on one point of a node's position.
type Mark struct {
	Point Point
	Shape MarkShape
	Text  string `json:",omitempty"` // a Label's text
}

// TreeNode is one position of a tree: the move that led to it (none at
// the root or a setup node), setup stones, the marks shown on it and a
// comment. Children[0] continues the main line of the node.
type TreeNode struct {
	Parent   int        // index in Tree.Nodes; -1 for the root
	Move     Move       `json:",omitzero"` // Move.Color is Empty for a node without a move
	Setup    [3][]Point `json:",omitzero"` // AE, AB, AW
	ToPlay   Color      `json:",omitempty"`
	Children []int      `json:",omitempty"`
	Marks    []Mark     `json:",omitempty"`
	Comment  string     `json:",omitempty"`
}

// Tree is a game tree for review: the board, the komi and game-info of
// its root, and its nodes, Nodes[0] being the root. Nodes are only ever
// added, so an index names a position for the tree's life.
type Tree struct {
	Width, Height int
	Komi          float64
	Handicap      int      `json:",omitempty"`
	Rules         string   `json:",omitempty"` // RU as written
	Info          GameInfo `json:",omitzero"`  // without Moves
	Nodes         []TreeNode
}

// NewTree returns the tree of an empty w×h board: a root and nothing else.
func NewTree(w, h int) (*Tree, error) {
	if err := CheckSize(w, h); err != nil {
		return nil, err
	}
	return &Tree{Width: w, Height: h, Nodes: []TreeNode{{Parent: -1}}}, nil
}

// TreeFromRecord returns the tree of a game: its starting position
// (handicap or setup stones) at the root and its moves as the main line.
func TreeFromRecord(rec Record, info GameInfo) (*Tree, error) {
	g, err := Replay(rec)
	if err != nil {
		return nil, err
	}
	t, err := NewTree(rec.Config.Width, rec.Config.Height)
	if err != nil {
		return nil, err
	}
	info.Moves = nil
	if info.Result == "" {
		if res, ok := g.Result(); ok {
			info.Result = res.String()
		}
	}
	t.Komi, t.Handicap, t.Info = rec.Config.Rules.Komi, rec.Config.Handicap, info
	t.Rules = sgfRulesValue(rec.Config.Rules)
	setup := g.Setup()
	root := &t.Nodes[0]
	root.Setup[Black], root.Setup[White] = setup.Stones(Black), setup.Stones(White)
	if rec.SetupToMove != Empty {
		root.ToPlay = rec.SetupToMove
	}
	if len(rec.Moves)+1 > MaxTreeNodes {
		return nil, fmt.Errorf("%w: a game of %d moves is longer than a review holds (%d)", ErrTreeFull, len(rec.Moves), MaxTreeNodes-1)
	}
	at := 0
	for _, m := range rec.Moves {
		at = t.add(at, TreeNode{Move: m})
	}
	return t, nil
}

// TreeFromSGF returns the tree of one SGF game tree, variations, marks
// and comments included. Text that is not UTF-8 is read as ISO-8859-1
// when the root names no charset (DecodeSGF's rule for the main line;
// variations' comments are read the same way); game-info is clipped to
// MaxInfoLen bytes. Moves onto stones and trees beyond MaxTreeNodes,
// MaxTreePoints or MaxTreeText are errors (ErrTreeFull, ErrTreePoints,
// ErrTreeText), found before the tree is built whole: a compressed
// point list is expanded into each of its points once, so no list
// grows beyond the board.
func TreeFromSGF(root *SGFNode) (*Tree, error) {
	nodes := countSGFNodes(root, MaxTreeNodes+1)
	if nodes > MaxTreeNodes {
		return nil, fmt.Errorf("%w: the SGF has more than %d nodes", ErrTreeFull, MaxTreeNodes)
	}
	// The game-info and the board; the nodes' point lists are read
	// below, within the limits.
	rec, err := decodeSGF(root, false, false)
	if err != nil {
		return nil, err
	}
	t, err := NewTree(rec.Width, rec.Height)
	if err != nil {
		return nil, err
	}
	t.Komi, t.Handicap, t.Rules = rec.Komi, rec.Handicap, clipText(rec.Rules, 40)
	t.Info = rec.Info
	t.Info.Moves = nil
	t.Info.Comment = ""
	t.Info.Extra = nil
	for _, f := range t.Info.texts() {
		*f = clipBytes(*f, MaxInfoLen)
	}
	t.Nodes = make([]TreeNode, 0, nodes)
	text := func(s string) string {
		if utf8.ValidString(s) {
			return s
		}
		return latin1(s)
	}
	type item struct {
		n      *SGFNode
		parent int
	}
	stack := []item{{root, -1}}
	var points, textBytes int
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		node, err := t.sgfNode(it.n, text)
		if err != nil {
			return nil, fmt.Errorf("node %d: %w", len(t.Nodes), err)
		}
		p, x := node.size()
		if points += p; points > MaxTreePoints {
			return nil, fmt.Errorf("%w (the SGF has more than %d)", ErrTreePoints, MaxTreePoints)
		}
		if textBytes += x; textBytes > MaxTreeText {
			return nil, fmt.Errorf("%w (the SGF has more than %d KB)", ErrTreeText, MaxTreeText>>10)
		}
		node.Parent = it.parent
		idx := len(t.Nodes)
		t.Nodes = append(t.Nodes, node)
		if it.parent >= 0 {
			t.Nodes[it.parent].Children = append(t.Nodes[it.parent].Children, idx)
		}
		for i := len(it.n.Children) - 1; i >= 0; i-- {
			stack = append(stack, item{it.n.Children[i], idx})
		}
	}
	// Every position must be reachable: a move onto a stone is an error
	// here rather than a board that cannot be shown later.
	if err := t.check(); err != nil {
		return nil, err
	}
	return t, nil
}

// ReadTreeSGF reads the first game tree of an SGF collection into a
// tree (TreeFromSGF), reading no more of data than a tree holds: the
// parse stops after the first game tree, and at node MaxTreeNodes+1
// with ErrTreeFull. Syntax errors are ParseSGF's (ErrSGF, ErrNotSGF).
// Its time and memory grow in proportion to len(data), plus a few MB
// for the nodes a tree holds (TestTreeLimits).
func ReadTreeSGF(data []byte) (*Tree, error) {
	roots, err := parseSGF(data, true, MaxTreeNodes)
	if err != nil {
		return nil, err
	}
	return TreeFromSGF(roots[0])
}

// countSGFNodes counts the nodes of the SGF tree at root, up to limit.
func countSGFNodes(root *SGFNode, limit int) int {
	n := 0
	for stack := []*SGFNode{root}; len(stack) > 0 && n < limit; n++ {
		at := stack[len(stack)-1]
		stack = append(stack[:len(stack)-1], at.Children...)
	}
	return n
}

// texts are the game-info's texts.
func (info *GameInfo) texts() []*string {
	return []*string{&info.Black, &info.White, &info.BlackRank, &info.WhiteRank, &info.Date, &info.Result,
		&info.Event, &info.Round, &info.Place, &info.Name, &info.Comment, &info.TimeLimit, &info.Overtime}
}

// size returns the node's setup stones and marks, and the bytes of its
// comment and labels.
func (n *TreeNode) size() (points, text int) {
	points = len(n.Setup[Empty]) + len(n.Setup[Black]) + len(n.Setup[White]) + len(n.Marks)
	text = len(n.Comment)
	for _, m := range n.Marks {
		text += len(m.Text)
	}
	return points, text
}

// size returns the setup stones and marks of the tree's nodes, and the
// bytes of their comments and labels (MaxTreePoints, MaxTreeText).
func (t *Tree) size() (points, text int) {
	for i := range t.Nodes {
		p, x := t.Nodes[i].size()
		points, text = points+p, text+x
	}
	return points, text
}

// clipBytes is clipText that keeps the result, "…" included, within n
// bytes, so that reading a clipped text again leaves it as it is.
func clipBytes(s string, n int) string {
	if len(s) <= n {
		return s
	}
	return clipText(s, n-len("…"))
}

func latin1(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		b.WriteRune(rune(s[i]))
	}
	return b.String()
}

// sgfNode reads one SGF node's move, setup, marks and comment.
func (t *Tree) sgfNode(n *SGFNode, text func(string) string) (TreeNode, error) {
	var (
		node   TreeNode
		marked pointSet // a point holds one mark: the first the node gives it
	)
	r := &SGFRecord{Width: t.Width, Height: t.Height}
	for _, p := range n.Props {
		var err error
		switch p.ID {
		case "B", "W":
			if node.Move.Color != Empty {
				return node, fmt.Errorf("a node holds one move, this one has B and W")
			}
			c := Black
			if p.ID == "W" {
				c = White
			}
			v := strings.TrimSpace(first(p.Values))
			pt, err := ParseSGFPoint(clipText(v, 8), t.Width, t.Height)
			if err != nil {
				return node, fmt.Errorf("%s[%s]: %w", p.ID, clipText(v, 8), err)
			}
			node.Move = Move{Color: c, Point: pt}
		case "AE":
			node.Setup[Empty], err = r.pointList(p)
		case "AB":
			node.Setup[Black], err = r.pointList(p)
		case "AW":
			node.Setup[White], err = r.pointList(p)
		case "PL":
			switch strings.ToUpper(strings.TrimSpace(first(p.Values))) {
			case "B", "1":
				node.ToPlay = Black
			case "W", "2":
				node.ToPlay = White
			}
		case "C":
			node.Comment = clipBytes(text(first(p.Values)), MaxCommentLen)
		case "TR", "SQ", "CR":
			shape := map[string]MarkShape{"TR": Triangle, "SQ": Square, "CR": Circle}[p.ID]
			var pts []Point
			pts, err = r.pointList(p)
			for _, pt := range pts {
				if marked.add(pt) {
					node.Marks = append(node.Marks, Mark{Point: pt, Shape: shape})
				}
			}
		case "LB":
			for _, v := range p.Values {
				pt, label, ok := strings.Cut(v, ":")
				if !ok {
					return node, fmt.Errorf("LB[%s]: a label is written point:text", clipText(v, 12))
				}
				q, err := ParseSGFPoint(pt, t.Width, t.Height)
				if err != nil || q.IsPass() {
					return node, fmt.Errorf("LB[%s]: %q is no point of the board", clipText(v, 12), clipText(pt, 4))
				}
				if marked.add(q) {
					node.Marks = append(node.Marks, Mark{Point: q, Shape: Label, Text: clipBytes(text(label), MaxLabelLen)})
				}
			}
		}
		if err != nil {
			return node, err
		}
	}
	onePerPoint(&node.Setup)
	return node, nil
}

// check plays every node of the tree once, depth first. The child of a
// node with the largest subtree goes on with the node's board once the
// other children's subtrees have been played on copies of it (each
// under half the node's subtree, so that no more boards than the
// logarithm of the tree's size wait at once); a board nothing waits for
// any more is used again for the next copy. A tree of many variations
// costs a few boards, not one a variation.
func (t *Tree) check() error {
	type board struct {
		*Board
		waiting int // children on the stack that start from it
	}
	type item struct {
		at     int
		parent *board
		copy   bool // play on a copy of the parent's board
	}
	var free []*Board
	sub := make([]int, len(t.Nodes)) // the nodes of each node's subtree
	for i := len(sub) - 1; i >= 0; i-- {
		sub[i]++
		if i > 0 {
			sub[t.Nodes[i].Parent] += sub[i] // a parent comes before its children
		}
	}
	nb, _ := NewBoard(t.Width, t.Height)
	stack := []item{{0, &board{Board: nb, waiting: 1}, false}}
	for len(stack) > 0 {
		it := stack[len(stack)-1]
		stack = stack[:len(stack)-1]
		b := it.parent
		b.waiting-- // never to 0 for a copy: the heavy child waits
		if it.copy {
			var c *Board
			if n := len(free); n > 0 {
				c, free = free[n-1], free[:n-1]
				c.copyFrom(b.Board)
			} else {
				c = b.Clone()
			}
			b = &board{Board: c}
		}
		if err := t.apply(b.Board, it.at); err != nil {
			return fmt.Errorf("node %d: %w", it.at, err)
		}
		kids := t.Nodes[it.at].Children
		heavy := -1
		for _, c := range kids {
			if heavy < 0 || sub[c] > sub[heavy] {
				heavy = c
			}
		}
		if heavy >= 0 {
			stack = append(stack, item{heavy, b, false}) // played last
		}
		for _, c := range kids {
			if c != heavy {
				stack = append(stack, item{c, b, true})
			}
		}
		if b.waiting += len(kids); b.waiting == 0 {
			free = append(free, b.Board)
		}
	}
	return nil
}

// apply plays node at's setup and move on b.
func (t *Tree) apply(b *Board, at int) error {
	n := &t.Nodes[at]
	for c, pts := range n.Setup {
		for _, p := range pts {
			if err := b.Set(p, Color(c)); err != nil {
				return err
			}
		}
	}
	if n.Move.Color == Empty || n.Move.Point.IsPass() {
		return nil
	}
	if _, _, err := b.Play(n.Move.Color, n.Move.Point); err != nil {
		return fmt.Errorf("%s at %w", n.Move.Color.Name(), err) // "White at D6: point is occupied"
	}
	return nil
}

// add appends node as the last child of parent and returns its index.
func (t *Tree) add(parent int, node TreeNode) int {
	node.Parent = parent
	t.Nodes = append(t.Nodes, node)
	i := len(t.Nodes) - 1
	t.Nodes[parent].Children = append(t.Nodes[parent].Children, i)
	return i
}

// Has reports whether n names a node of the tree.
func (t *Tree) Has(n int) bool { return n >= 0 && n < len(t.Nodes) }

// Path returns the nodes from the root to n, both included.
func (t *Tree) Path(n int) []int {
	var out []int
	for at := n; at >= 0; at = t.Nodes[at].Parent {
		out = append(out, at)
	}
	for i, j := 0, len(out)-1; i < j; i, j = i+1, j-1 {
		out[i], out[j] = out[j], out[i]
	}
	return out
}

// MainLine returns the root and the first child of each node after it.
func (t *Tree) MainLine() []int {
	return t.Line(0)
}

// Line returns the path to n and its continuation by first children:
// the line the first/back/forward/last buttons walk from n.
func (t *Tree) Line(n int) []int {
	out := t.Path(n)
	for at := n; len(t.Nodes[at].Children) > 0; {
		at = t.Nodes[at].Children[0]
		out = append(out, at)
	}
	return out
}

// OnMainLine reports whether n is on the tree's main line: every node on
// its path is its parent's first child.
func (t *Tree) OnMainLine(n int) bool {
	for at := n; at > 0; at = t.Nodes[at].Parent {
		if t.Nodes[t.Nodes[at].Parent].Children[0] != at {
			return false
		}
	}
	return true
}

// MoveNumber returns how many moves lead from the root to n.
func (t *Tree) MoveNumber(n int) int {
	k := 0
	for at := n; at >= 0; at = t.Nodes[at].Parent {
		if t.Nodes[at].Move.Color != Empty {
			k++
		}
	}
	return k
}

// Position returns the board at node n, and for each point the node
// whose move put the stone there (-1 for setup stones and empty points).
func (t *Tree) Position(n int) (*Board, []int, error) {
	if !t.Has(n) {
		return nil, nil, fmt.Errorf("%w: %d", ErrNoNode, n)
	}
	b, err := NewBoard(t.Width, t.Height)
	if err != nil {
		return nil, nil, err
	}
	placed := make([]int, t.Width*t.Height)
	for i := range placed {
		placed[i] = -1
	}
	for _, at := range t.Path(n) {
		if err := t.apply(b, at); err != nil {
			return nil, nil, err
		}
		for i := range placed {
			if b.cells[i] == Empty {
				placed[i] = -1
			}
		}
		if m := t.Nodes[at].Move; m.Color != Empty && !m.Point.IsPass() {
			placed[b.index(m.Point)] = at
		}
		for c, pts := range t.Nodes[at].Setup {
			for _, p := range pts {
				if Color(c) != Empty {
					placed[b.index(p)] = -1
				}
			}
		}
	}
	return b, placed, nil
}

// ToPlay returns who plays the next move after node n: the other colour
// than n's move, PL where it is set, and at a root without PL White when
// handicap stones were placed, else Black.
func (t *Tree) ToPlay(n int) Color {
	node := t.Nodes[n]
	switch {
	case node.ToPlay != Empty:
		return node.ToPlay
	case node.Move.Color != Empty:
		return node.Move.Color.Opponent()
	case node.Parent >= 0:
		return t.ToPlay(node.Parent)
	case t.Handicap >= 2 && len(node.Setup[Black]) > 0:
		return White
	}
	return Black
}

// Play adds the move of the player to play at point p after node n (a
// pass when p is Pass) and returns its node: the child of n that already
// plays it, or a new last child (a variation, or the main line's next
// move when n had none). A move onto a stone, a suicide and a retaking
// of a ko at once are refused.
func (t *Tree) Play(n int, p Point) (int, error) {
	if !t.Has(n) {
		return 0, fmt.Errorf("%w: %d", ErrNoNode, n)
	}
	c := t.ToPlay(n)
	for _, k := range t.Nodes[n].Children {
		if m := t.Nodes[k].Move; m.Color == c && m.Point == p {
			return k, nil
		}
	}
	if !p.IsPass() && !p.In(t.Width, t.Height) {
		return 0, fmt.Errorf("%s is %w", p.GTP(t.Height), ErrOffBoard)
	}
	if len(t.Nodes) >= MaxTreeNodes {
		return 0, fmt.Errorf("%w (%d positions)", ErrTreeFull, MaxTreeNodes)
	}
	if !p.IsPass() {
		b, _, err := t.Position(n)
		if err != nil {
			return 0, err
		}
		_, suicided, err := b.Play(c, p)
		if err != nil {
			return 0, err // "D4: point is occupied"
		}
		if suicided > 0 {
			return 0, fmt.Errorf("%s: %w", p.GTP(t.Height), ErrSuicide)
		}
		if parent := t.Nodes[n].Parent; parent >= 0 && t.Nodes[n].Move.Color != Empty {
			if before, _, err := t.Position(parent); err == nil && before.Equal(b) {
				return 0, fmt.Errorf("%s: %w", p.GTP(t.Height), ErrKo)
			}
		}
	}
	return t.add(n, TreeNode{Move: Move{Color: c, Point: p}}), nil
}

// SetComment replaces node n's comment; an empty text removes it.
func (t *Tree) SetComment(n int, text string) error {
	if !t.Has(n) {
		return fmt.Errorf("%w: %d", ErrNoNode, n)
	}
	text = strings.TrimSpace(text)
	if len(text) > MaxCommentLen {
		return fmt.Errorf("%w: %d bytes, at most %d", ErrLongComment, len(text), MaxCommentLen)
	}
	if !utf8.ValidString(text) {
		return fmt.Errorf("%w: a comment is UTF-8 text", ErrBadMark)
	}
	if _, used := t.size(); used-len(t.Nodes[n].Comment)+len(text) > MaxTreeText {
		return fmt.Errorf("%w (%d KB in all)", ErrTreeText, MaxTreeText>>10)
	}
	t.Nodes[n].Comment = text
	return nil
}

// ToggleMark puts mark m on node n's position, replacing another mark on
// its point, or takes it away when the same mark is already there. A
// mark on a point without one is refused when the tree holds
// MaxTreePoints setup stones and marks already.
func (t *Tree) ToggleMark(n int, m Mark) error {
	if !t.Has(n) {
		return fmt.Errorf("%w: %d", ErrNoNode, n)
	}
	if m.Shape < Triangle || m.Shape > Label || !m.Point.In(t.Width, t.Height) {
		return fmt.Errorf("%w: a triangle, square, circle or label on a point of the board", ErrBadMark)
	}
	if m.Shape == Label {
		m.Text = strings.TrimSpace(m.Text)
		if m.Text == "" || len(m.Text) > MaxLabelLen || !utf8.ValidString(m.Text) || strings.ContainsAny(m.Text, ":]\\\n") {
			return fmt.Errorf("%w: a label is 1 to %d letters or digits", ErrBadMark, MaxLabelLen)
		}
	} else {
		m.Text = ""
	}
	marks := t.Nodes[n].Marks
	var was Mark
	for i, old := range marks {
		if old.Point != m.Point {
			continue
		}
		marks = append(marks[:i:i], marks[i+1:]...)
		if old == m {
			t.Nodes[n].Marks = marks
			return nil
		}
		was = old
		break
	}
	points, text := t.size()
	if was.Shape == 0 && points >= MaxTreePoints {
		return fmt.Errorf("%w (%d in all)", ErrTreePoints, MaxTreePoints)
	}
	if text-len(was.Text)+len(m.Text) > MaxTreeText {
		return fmt.Errorf("%w (%d KB in all)", ErrTreeText, MaxTreeText>>10)
	}
	t.Nodes[n].Marks = append(marks, m)
	return nil
}

// SGF returns the tree as an SGF game tree: game-info at the root, each
// node's move, setup, comment (C) and marks (TR, SQ, CR, LB), variations
// in order.
func (t *Tree) SGF() *SGFNode {
	nodes := make([]SGFNode, len(t.Nodes))
	add := func(n *SGFNode, id string, vals ...string) {
		if len(vals) == 0 || (len(vals) == 1 && vals[0] == "") {
			return
		}
		n.Props = append(n.Props, SGFProperty{ID: id, Values: vals})
	}
	root := &nodes[0]
	add(root, "FF", "4")
	add(root, "GM", "1")
	add(root, "CA", "UTF-8")
	add(root, "AP", "gobot")
	if t.Width == t.Height {
		add(root, "SZ", strconv.Itoa(t.Width))
	} else {
		add(root, "SZ", strconv.Itoa(t.Width)+":"+strconv.Itoa(t.Height))
	}
	add(root, "KM", FormatKomi(t.Komi))
	add(root, "RU", t.Rules)
	if t.Handicap != 0 {
		add(root, "HA", strconv.Itoa(t.Handicap))
	}
	info := t.Info
	for _, f := range []struct{ id, v string }{
		{"PB", info.Black}, {"BR", info.BlackRank}, {"PW", info.White}, {"WR", info.WhiteRank},
		{"DT", info.Date}, {"EV", info.Event}, {"RO", info.Round}, {"PC", info.Place},
		{"GN", info.Name}, {"TM", info.TimeLimit}, {"OT", info.Overtime}, {"RE", info.Result},
	} {
		add(root, f.id, f.v)
	}
	for i := range t.Nodes {
		tn, n := &t.Nodes[i], &nodes[i]
		if tn.Move.Color != Empty {
			n.Props = append(n.Props, SGFProperty{ID: tn.Move.Color.String(), Values: []string{tn.Move.Point.SGF()}})
		}
		add(n, "AE", sgfPoints(tn.Setup[Empty])...)
		add(n, "AB", sgfPoints(tn.Setup[Black])...)
		add(n, "AW", sgfPoints(tn.Setup[White])...)
		if tn.ToPlay != Empty {
			add(n, "PL", tn.ToPlay.String())
		}
		add(n, "C", tn.Comment)
		var shapes [Label + 1][]string
		for _, m := range tn.Marks {
			v := m.Point.SGF()
			if m.Shape == Label {
				v += ":" + m.Text
			}
			shapes[m.Shape] = append(shapes[m.Shape], v)
		}
		for s := Triangle; s <= Label; s++ {
			add(n, markIDs[s], shapes[s]...)
		}
		for _, k := range tn.Children {
			n.Children = append(n.Children, &nodes[k])
		}
	}
	return root
}

// WriteSGF writes the tree as an SGF collection of one game tree.
func (t *Tree) WriteSGF(w io.Writer) error { return WriteSGFTree(w, t.SGF()) }
