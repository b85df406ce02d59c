package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/flow/ratings"
	"github.com/gobotgo/gobot/storage"
)

// cmdCheck runs the full check of a database file and prints a verdict:
// exit 0 healthy, 1 damaged (or not checkable).
func cmdCheck(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot check", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintf(stderr, "Usage: gobot check [FILE]   (default %s)\n\n"+
			"Reads every page of the database and runs bbolt's consistency check and\n"+
			"gobot's index check. Exit status 0: healthy; 1: damaged or not checked;\n"+
			"3: in use by a running gobot (check a copy made with gobot backup).\n", defaultDBPath())
	}
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 1 {
		return fmt.Errorf("%w: write gobot check FILE (one file)", errUsage)
	}
	path := fs.Arg(0)
	if path == "" {
		path = defaultDBPath()
	}
	if _, err := os.Stat(path); err != nil {
		return fmt.Errorf("no database at %s: %w", path, err)
	}
	rep, err := storage.Verify(path)
	switch {
	case errors.Is(err, storage.ErrDamaged):
		fmt.Fprintf(stdout, "DAMAGED: %v\n%s", err, damagedHelp(err))
		return exitError{Code: 1}
	case errors.Is(err, storage.ErrNotDatabase):
		return err // plainly: there is nothing of gobot's in it to restore or repair
	case errors.Is(err, gobot.ErrInUse):
		// Not a verdict on the file: a monitor must not read it as damage.
		fmt.Fprintf(stderr, "gobot: %v: stop it first, or check a copy: gobot backup -o copy.db, then gobot check copy.db\n", err)
		return exitError{Code: 3}
	case err != nil:
		return fmt.Errorf("could not check %s: %w", path, err)
	}
	if rep.Size == 0 {
		fmt.Fprintf(stdout, "%s: healthy (an empty file; gobot will set it up on start).\n", path)
		return nil
	}
	fmt.Fprintf(stdout, "%s: healthy.\n  %d bytes, %d pages of %d bytes (%d free), last transaction %d.\n"+
		"  Read every page of the tree (%d); bbolt's consistency check and gobot's index check passed.\n",
		path, rep.Size, rep.Pages, rep.PageSize, rep.Free, rep.Txid, rep.Read)
	checkRatings(path, stdout)
	return nil
}

// checkRatings reports rating records and links out of place (not
// damage: ratings.Check), and the joined communities recorded.
func checkRatings(path string, stdout io.Writer) {
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		fmt.Fprintf(stdout, "  Ratings and links not checked: %v\n", err)
		return
	}
	defer db.Close()
	var findings []ratings.Finding
	var joined []*gobot.JoinedCommunity
	err = db.View(context.Background(), func(tx gobot.Tx) error {
		var err error
		if joined, err = tx.JoinedCommunities(); err != nil {
			return err
		}
		findings, err = ratings.Check(tx)
		return err
	})
	if err != nil {
		fmt.Fprintf(stdout, "  Ratings and links not checked: %v\n", err)
		return
	}
	for _, j := range joined {
		if len(j.Members) > 0 {
			fmt.Fprintf(stdout, "  Joined community %s (%q): %d member%s merged, the last change %s.\n", j.ID, j.Name, len(j.Members), map[bool]string{true: "", false: "s"}[len(j.Members) == 1], j.Updated.Format("2006-01-02 15:04"))
		}
	}
	for _, f := range findings {
		fmt.Fprintf(stdout, "  Note: %s.\n", f)
	}
}

// damagedHelp says what to do about a damaged database, for errors that
// wrap storage.ErrDamaged ("" for others). main prints it after the error.
func damagedHelp(err error) string {
	var de *storage.DamagedError
	if !errors.As(err, &de) {
		return ""
	}
	p := de.Path
	if strings.ContainsAny(p, " '\"$\\") {
		p = "'" + strings.ReplaceAll(p, "'", `'\''`) + "'"
	}
	return fmt.Sprintf(`gobot will not start on a damaged database: it could lose or garble games.
What to do:
  - Keep the damaged file as it is; do not start gobot on it again.
  - Restore the latest copy made with gobot backup -o FILE: stop gobot, move
    %[1]s aside (rename it), copy the backup to %[1]s (mode 0600),
    start gobot (docs/storage.md, "Backup and restore").
  - gobot check %[1]s reads the whole file and lists what is wrong.
`, p)
}
