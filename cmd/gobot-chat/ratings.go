package main

import (
	"context"
	"encoding/json"
	"flag"
	"fmt"
	"io"
	"slices"
	"strings"
	"text/tabwriter"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/storage"
)

// ratingLine is one player's rating as `gobot ratings --json` prints it.
type ratingLine struct {
	Community  gobot.CommunityID `json:"community"`
	User       gobot.UserID      `json:"user"`
	Rating     float64           `json:"rating"`
	RD         float64           `json:"rd"`
	Volatility float64           `json:"volatility"`
	Rank       string            `json:"rank"`
	Games      int               `json:"games"`
	Wins       int               `json:"wins"`
	Losses     int               `json:"losses"`
	Name       string            `json:"name,omitempty"` // a joined community's name
}

// cmdRatings prints every player's rating from the database, opened
// read-only.
func cmdRatings(args []string, stdout, stderr io.Writer) error {
	fs := flag.NewFlagSet("gobot ratings", flag.ContinueOnError)
	fs.SetOutput(stderr)
	dbPath := fs.String("db", "", "database file (default: the config's, else "+defaultDBPath()+")")
	cfgPath := fs.String("config", "", "config file naming the database")
	community := fs.String("community", "", `only this community: a joined community's name ("Go Club") or an ID ("console", "discord:guild:1234", "matrix:!room:example.org")`)
	asJSON := fs.Bool("json", false, "one JSON object per line")
	if err := fs.Parse(args); err != nil {
		return fmt.Errorf("%w: %w", errUsage, err)
	}
	if fs.NArg() > 0 {
		return fmt.Errorf("%w: write gobot ratings [-db PATH | -config FILE] [--community C] [--json]", errUsage)
	}
	path, err := boltFile(*dbPath, *cfgPath, "ratings")
	if err != nil {
		return err
	}
	db, err := storage.Open(path, storage.Options{ReadOnly: true})
	if err != nil {
		return err
	}
	defer db.Close()
	var rs []*gobot.PlayerRating
	var damaged error
	names := map[gobot.CommunityID]string{}
	err = db.View(context.Background(), func(tx gobot.Tx) error {
		joined, err := tx.JoinedCommunities()
		if err != nil {
			return err
		}
		c := gobot.CommunityID(*community)
		for _, j := range joined {
			names[j.ID] = j.Name
			if *community != "" && (j.Name == *community || gobot.Slug(*community) == gobot.Slug(j.Name) && !strings.Contains(*community, ":")) {
				c = j.ID
			}
			if slices.Contains(j.Members, c) {
				fmt.Fprintf(stderr, "%s is joined into %s (%q): its ratings are that community's\n", c, j.ID, j.Name)
				c = j.ID
			}
		}
		if *community != "" && !strings.Contains(string(c), ":") && c != "console" {
			var known []string
			for _, j := range joined {
				known = append(known, fmt.Sprintf("%q", j.Name))
			}
			return fmt.Errorf("%w: --community %q: no joined community has that name (joined: %s); or give an ID like discord:guild:1234", errUsage, *community, orDefault(strings.Join(known, ", "), "none"))
		}
		rs, err = tx.Ratings(c)
		if gobot.Damaged(err) != nil {
			damaged, err = err, nil
		}
		return err
	})
	if err != nil {
		return err
	}
	if *asJSON {
		enc := json.NewEncoder(stdout)
		for _, r := range rs {
			p := r.Player()
			if err := enc.Encode(ratingLine{r.Community, r.User, p.Rating, p.RD, p.Volatility, p.RankLabel(), r.Games, r.Wins, r.Losses, names[r.Community]}); err != nil {
				return err
			}
		}
	} else {
		tw := tabwriter.NewWriter(stdout, 0, 4, 2, ' ', tabwriter.AlignRight)
		fmt.Fprintln(tw, "community\tuser\trating\trd\tvolatility\trank\tgames\twins\tlosses\t")
		for _, r := range rs {
			p := r.Player()
			fmt.Fprintf(tw, "%s\t%s\t%.1f\t%.1f\t%.5f\t%s\t%d\t%d\t%d\t\n", r.Community, r.User, p.Rating, p.RD, p.Volatility, p.RankLabel(), r.Games, r.Wins, r.Losses)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		if len(rs) == 0 {
			fmt.Fprintln(stderr, "no ratings yet")
		}
	}
	if damaged != nil {
		return fmt.Errorf("some ratings could not be read: %w", damaged)
	}
	return nil
}
