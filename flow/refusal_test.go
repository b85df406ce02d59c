package flow

import (
	"fmt"
	"go/ast"
	"go/parser"
	"go/token"
	"io/fs"
	"sort"
	"strings"
	"testing"

	"github.com/gobotgo/gobot/game"
)

// refusals is every refusal type of the package, one value each: a new
// refusal must be added here (TestRefusals fails until it is), and so
// implement Refusal with a code of its own.
var refusals = []Refusal{
	NotAPlayer{}, GameOver{}, VotesInstead{}, BadPoint{}, NotVoteGame{}, NoVoteGame{}, WhichVoteGame{},
	VoteElsewhere{}, AbortElsewhere{}, RuleRefusal{game.ErrScoring},
	NoChallenge{}, OwnChallengeWaits{}, WhichChallenge{}, RoomMoves{}, NoSuchGame{}, NoGameHere{}, WhichGame{}, UnknownName{}, SharedName{},
	Unpausable{}, AlreadyPaused{}, PauseUsedUp{}, PauseWaiting{}, NotPaused{},
	Unplannable{}, LineWord{}, LineMove{}, PlanTooBig{},
	NotYourTurn{}, WhilePaused{}, TooLate{}, IllegalMove{}, NoTakeBack{}, NoUndoAsked{}, UndoWaiting{},
	NotYourMove{}, NotAStone{}, NoStone{}, CountAccepted{},
	TeamsRefusal{}, AnswerRefusal{}, NotTeamTurn{}, VacationRefusal{}, VoteChallengeProblem(0), &VoteRefused{},
	ErrAnswered, TournamentRefusal{}, LadderRefusal{},
}

// TestRefusals lists every error type the package declares (by reading
// its source) and checks each is in refusals, with a code of its own.
func TestRefusals(t *testing.T) {
	fset := token.NewFileSet()
	pkgs, err := parser.ParseDir(fset, ".", func(fi fs.FileInfo) bool {
		return !strings.HasSuffix(fi.Name(), "_test.go")
	}, 0)
	if err != nil {
		t.Fatal(err)
	}
	declared := map[string]bool{}
	for _, p := range pkgs {
		for _, f := range p.Files {
			for _, d := range f.Decls {
				fn, ok := d.(*ast.FuncDecl)
				if !ok || fn.Recv == nil || fn.Name.Name != "Error" {
					continue
				}
				typ := fn.Recv.List[0].Type
				if st, ok := typ.(*ast.StarExpr); ok {
					typ = st.X
				}
				declared[typ.(*ast.Ident).Name] = true
			}
		}
	}
	listed := map[string]bool{}
	codes := map[string]string{}
	for _, r := range refusals {
		name := strings.TrimPrefix(strings.TrimPrefix(typeName(r), "*"), "flow.")
		listed[name] = true
		c := r.Code()
		if c == "" {
			t.Errorf("%s has no code", name)
		}
		if other, dup := codes[c]; dup {
			t.Errorf("%s and %s share the code %q", name, other, c)
		}
		codes[c] = name
	}
	var missing []string
	for name := range declared {
		if !listed[name] {
			missing = append(missing, name)
		}
	}
	sort.Strings(missing)
	if len(missing) > 0 {
		t.Errorf("error types not listed as refusals (add them to refusals, with a Code): %v", missing)
	}
	if len(listed) != len(refusals) {
		t.Errorf("a refusal type is listed twice")
	}
}

func typeName(v any) string { return fmt.Sprintf("%T", v) }
