// Package engine plays Go against computer programs that speak the Go
// Text Protocol (GTP version 2) — GNU Go out of the box, any other GTP
// engine by configuration.
//
// A Pool runs the processes of one configured engine. The caller (the
// bot) owns the game: it asks the pool for the engine's move in a position
// given as a game.Record, or for the dead stones of a finished position,
// and the pool brings an engine process to that position first. gobot is
// the referee: a move the engine proposes is checked with package game,
// and an illegal proposal counts as a pass.
package engine

import (
	"errors"
	"fmt"
	"os"
	"os/exec"
	"slices"
	"strconv"
	"strings"
	"time"
)

// Errors, tested with errors.Is. Each comes wrapped with the engine's name
// and what went wrong.
var (
	// ErrTimeout: the engine did not answer in time; it was killed.
	ErrTimeout = errors.New("the engine took too long")
	// ErrCrashed: the engine process died (or could not start); the next
	// request starts a new one and replays the game into it.
	ErrCrashed = errors.New("the engine stopped")
	// ErrProtocol: the engine said something that is not GTP; it was
	// killed.
	ErrProtocol = errors.New("the engine does not speak GTP properly")
	// ErrRefused: the engine answered a command with an error ("?").
	ErrRefused = errors.New("the engine refused")
	// ErrUnsupported: the engine cannot play this game (board size or
	// shape, rules, level); see Pool.Check.
	ErrUnsupported = errors.New("the engine cannot play this game")
	// ErrConfig: an engine configuration that cannot work.
	ErrConfig = errors.New("bad engine configuration")
	// ErrNotFound: no engine binary was found (see Discover).
	ErrNotFound = errors.New("no engine found")
	// ErrClosed: the pool was closed.
	ErrClosed = errors.New("the engine pool is closed")
	// ErrPosition: the request's position cannot be asked about (the game
	// is over, or the record does not replay).
	ErrPosition = errors.New("no position to ask the engine about")
)

// Level is how one strength level is set: extra command-line arguments
// for the process, GTP commands sent before each move, or both. A
// command's name must be listed by the engine's list_commands.
type Level struct {
	Args []string `yaml:"args"`
	GTP  []string `yaml:"gtp"`
}

// Config is one engine as the configuration file describes it:
//
//	engines:
//	  - name: gnugo
//	    command: /usr/games/gnugo
//	    args: ["--mode", "gtp"]
//	    levels: {1: {gtp: ["level 1"]}, 10: {gtp: ["level 10"]}}
//	    max_processes: 2
//	    move_timeout: 30s
//	    sizes: [9, 13, 19]
type Config struct {
	Name    string   `yaml:"name"`
	Command string   `yaml:"command"`
	Args    []string `yaml:"args" want:"a list like [\"--mode\", \"gtp\"]"`
	// Levels maps a level from 1 (weakest) to 10 (strongest) to how the
	// engine is set to it. Only configured levels can be asked for; with
	// no levels at all, level 0 ("the engine's default") is the only one.
	Levels map[int]Level `yaml:"levels" want:"levels from 1 to 10, like {1: {gtp: [\"level 1\"]}}"`
	// MaxProcesses is how many engine processes may run at once
	// (default 1); further requests wait their turn, first come first
	// served.
	MaxProcesses int `yaml:"max_processes"`
	// MoveTimeout bounds genmove and final_status_list (default 30s).
	MoveTimeout time.Duration `yaml:"move_timeout"`
	// CommandTimeout bounds every other command (default 10s).
	CommandTimeout time.Duration `yaml:"command_timeout"`
	// IdleTimeout stops a process nobody used for this long (default 5m).
	IdleTimeout time.Duration `yaml:"idle_timeout"`
	// Sizes are the board sizes offered (square boards only); empty means
	// any size the engine accepts.
	Sizes []int `yaml:"sizes" want:"a list of board sizes like [9, 13, 19]"`
}

// MinLevel and MaxLevel bound the levels a player can ask for.
const (
	MinLevel = 1
	MaxLevel = 10
)

func (c Config) withDefaults() Config {
	if c.MaxProcesses <= 0 {
		c.MaxProcesses = 1
	}
	if c.MoveTimeout <= 0 {
		c.MoveTimeout = 30 * time.Second
	}
	if c.CommandTimeout <= 0 {
		c.CommandTimeout = 10 * time.Second
	}
	if c.IdleTimeout <= 0 {
		c.IdleTimeout = 5 * time.Minute
	}
	return c
}

// Validate reports a configuration that cannot work, naming the key.
func (c Config) Validate() error {
	bad := func(format string, a ...any) error {
		return fmt.Errorf("%w: engine %q: %s", ErrConfig, c.Name, fmt.Sprintf(format, a...))
	}
	if c.Name == "" || strings.ContainsAny(c.Name, " \t\n=") {
		return fmt.Errorf("%w: an engine needs a name without spaces (like gnugo), not %q", ErrConfig, clip(c.Name))
	}
	if c.Command == "" {
		return bad("command is empty; give the engine's program, like /usr/games/gnugo")
	}
	for l, lv := range c.Levels {
		if l < MinLevel || l > MaxLevel {
			return bad("level %d: levels go from %d to %d", l, MinLevel, MaxLevel)
		}
		for _, g := range lv.GTP {
			if strings.TrimSpace(g) == "" || strings.ContainsAny(g, "\n\r#") {
				return bad("level %d: GTP command %q must be one line without #", l, clip(g))
			}
		}
	}
	for _, s := range c.Sizes {
		if s < 2 || s > 25 {
			return bad("size %d: sizes go from 2 to 25", s)
		}
	}
	if c.MaxProcesses < 0 {
		return bad("max_processes %d is negative", c.MaxProcesses)
	}
	return nil
}

// LevelList returns the configured levels in order (nil when the engine
// has no levels).
func (c Config) LevelList() []int {
	var out []int
	for l := range c.Levels {
		out = append(out, l)
	}
	slices.Sort(out)
	return out
}

// gnugoPaths is where Discover looks when gnugo is not on PATH.
var gnugoPaths = []string{"/usr/games/gnugo", "/usr/local/bin/gnugo", "/opt/homebrew/bin/gnugo"}

// GNUGo returns the configuration for GNU Go at the given path: GTP mode,
// levels 1 to 10 set with GNU Go's level command, two processes, 30
// seconds a move, boards of 9, 13 and 19.
func GNUGo(path string) Config {
	levels := map[int]Level{}
	for l := MinLevel; l <= MaxLevel; l++ {
		levels[l] = Level{GTP: []string{"level " + strconv.Itoa(l)}}
	}
	return Config{
		Name:         "gnugo",
		Command:      path,
		Args:         []string{"--mode", "gtp"},
		Levels:       levels,
		MaxProcesses: 2,
		MoveTimeout:  30 * time.Second,
		Sizes:        []int{9, 13, 19},
	}
}

// Discover finds GNU Go on PATH or in the usual places and returns its
// configuration. When it is not installed the error (ErrNotFound) says
// how to install it.
func Discover() (Config, error) {
	if p, err := exec.LookPath("gnugo"); err == nil {
		return GNUGo(p), nil
	}
	for _, p := range gnugoPaths {
		if st, err := os.Stat(p); err == nil && !st.IsDir() && st.Mode()&0o111 != 0 {
			return GNUGo(p), nil
		}
	}
	return Config{}, fmt.Errorf("%w: GNU Go is not installed (looked on PATH and in %s). Install it with "+
		"`apt-get install gnugo` (Debian, Ubuntu), `dnf install gnugo` (Fedora) or `brew install gnu-go` (macOS), "+
		"or configure another GTP engine under engines: in the config file", ErrNotFound, strings.Join(gnugoPaths, ", "))
}
