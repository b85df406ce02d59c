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
	"github.com/gobotgo/gobot/storage"
	"github.com/gobotgo/gobot/storage/postgres"
	"github.com/gobotgo/gobot/storage/storecopy"
)

const storeUsage = `gobot store copy --from SPEC --to SPEC

Copies a whole installation (games, challenges, players, rooms, ratings,
owed replies, adapter state, remembered event IDs) from one store into
another, empty one, keeping game and challenge numbers, then counts each
kind on both sides to check the copy. SPEC is bbolt:FILE or postgres:DSN
(a postgres:// URL may be given as is). Stop the bot first: a bbolt file
in use cannot be read, and a copy taken while the bot writes fails its
check.`

// cmdStore is `gobot store …`.
func cmdStore(args []string, stdout, stderr io.Writer) error {
	if len(args) > 0 && (args[0] == "-h" || args[0] == "-help" || args[0] == "--help" || args[0] == "help") {
		fmt.Fprintln(stdout, storeUsage)
		return nil
	}
	if len(args) == 0 || args[0] != "copy" {
		return fmt.Errorf("%w: %s", errUsage, storeUsage)
	}
	fs := flag.NewFlagSet("gobot store copy", flag.ContinueOnError)
	fs.SetOutput(stderr)
	from := fs.String("from", "", "source: bbolt:FILE or postgres:DSN")
	to := fs.String("to", "", "destination (empty): bbolt:FILE or postgres:DSN")
	if err := fs.Parse(args[1:]); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if *from == "" || *to == "" || fs.NArg() > 0 {
		return fmt.Errorf("%w: %s", errUsage, storeUsage)
	}
	ctx := context.Background()
	src, closeSrc, err := openSpec(ctx, *from, true)
	if err != nil {
		return err
	}
	defer closeSrc()
	dst, closeDst, err := openSpec(ctx, *to, false)
	if err != nil {
		return err
	}
	defer closeDst()
	n, err := storecopy.Copy(ctx, src.(storecopy.Source), dst.(storecopy.Sink))
	if errors.Is(err, storecopy.ErrNotEmpty) {
		return fmt.Errorf("%s: %w", specName(*to), err)
	}
	if errors.Is(err, storecopy.ErrMismatch) {
		return fmt.Errorf("copy from %s to %s: %w. The destination is not a good copy: empty it and copy again with the bot stopped", specName(*from), specName(*to), err)
	}
	if err != nil {
		return fmt.Errorf("copy from %s to %s: %w", specName(*from), specName(*to), err)
	}
	fmt.Fprintf(stdout, "copied %s\nfrom %s\nto   %s\nchecked: the destination holds every record copied, counted kind by kind\n", n.Tally, specName(*from), specName(*to))
	if n.Damaged != nil {
		fmt.Fprintf(stdout, "not copied (damaged; see gobot repair): %s\n", n.Damaged)
	}
	return nil
}

// openSpec opens bbolt:FILE or postgres:DSN.
func openSpec(ctx context.Context, spec string, source bool) (any, func() error, error) {
	driver, arg, ok := strings.Cut(spec, ":")
	if strings.HasPrefix(spec, "postgres://") || strings.HasPrefix(spec, "postgresql://") {
		driver, arg, ok = driverPostgres, spec, true
	}
	if !ok || arg == "" {
		return nil, nil, fmt.Errorf("%w: %q: write bbolt:FILE or postgres:DSN", errUsage, clip(spec, 80))
	}
	switch driver {
	case driverBolt:
		if source {
			if _, err := os.Stat(arg); err != nil {
				return nil, nil, fmt.Errorf("no database at %s: %w", arg, err)
			}
		}
		db, err := storage.Open(arg, storage.Options{ReadOnly: source})
		if errors.Is(err, gobot.ErrInUse) {
			return nil, nil, fmt.Errorf("%s is in use by a running gobot: stop it first (or copy from a gobot backup file)", arg)
		}
		if err != nil {
			return nil, nil, err
		}
		return db, db.Close, nil
	case driverPostgres:
		pg, err := postgres.Open(ctx, arg, postgres.Options{})
		if err != nil {
			return nil, nil, err
		}
		return pg, pg.Close, nil
	}
	return nil, nil, fmt.Errorf("%w: %q: the store is bbolt:FILE or postgres:DSN", errUsage, clip(driver, 40))
}

// specName is a spec for messages, without a password.
func specName(spec string) string {
	if i := strings.Index(spec, "://"); i >= 0 {
		if at := strings.LastIndex(spec, "@"); at > i {
			if c := strings.Index(spec[i+3:at], ":"); c >= 0 {
				return spec[:i+3+c+1] + "xxxxx" + spec[at:]
			}
		}
	}
	return spec
}
