package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"time"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

// cmdRepair lists the records gobot cannot read and takes one out of
// play. The bot must be stopped: repair needs the database to itself.
func cmdRepair(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot repair", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "", "database file (default: the config's, else "+defaultDBPath()+")")
	cfgPath := fs.String("config", "", "config file naming the database")
	list := fs.Bool("list", false, "list damaged and quarantined records")
	quarantine := fs.String("quarantine", "", "move the damaged record `REF` (game:7, #7, challenge:3, tournament:2, ladder:1, player:ID, room:ID) to quarantine")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 || *list == (*quarantine != "") {
		return fmt.Errorf("%w: write gobot repair --list or gobot repair --quarantine game:7 [-db PATH | -config FILE]", errUsage)
	}
	path, err := boltFile(*dbPath, *cfgPath, "repair")
	if err != nil {
		return err
	}
	db, err := storage.Open(path, storage.Options{Timeout: 300 * time.Millisecond})
	if errors.Is(err, gobot.ErrInUse) {
		return fmt.Errorf("%w: stop gobot first (repair needs the database to itself)", err)
	}
	if err != nil {
		return err
	}
	defer db.Close()
	ctx := context.Background()
	if *list {
		damaged, err := db.Damaged(ctx)
		if err != nil {
			return err
		}
		if len(damaged) == 0 {
			fmt.Fprintln(stdout, "no damaged records")
		}
		for _, d := range damaged {
			fmt.Fprintf(stdout, "damaged %s\n", d)
		}
		held, err := db.Quarantined(ctx)
		if err != nil {
			return err
		}
		for _, q := range held {
			fmt.Fprintf(stdout, "quarantined %s\n", q)
		}
		if len(damaged) > 0 {
			fmt.Fprintf(stdout, "take one out of play with: gobot repair -db %s --quarantine %s\n", path, damaged[0].Ref())
		}
		return nil
	}
	d, err := db.Quarantine(ctx, *quarantine)
	if err != nil {
		return err
	}
	fmt.Fprintf(stdout, "%s moved to quarantine (it was: %v); the other records are untouched\n", d.Ref(), d.Err)
	return nil
}
