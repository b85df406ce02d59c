package main

import (
	"fmt"
	"log/slog"
	"os/exec"
	"strings"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/chat/engines"
	"github.com/gobotgo/gobot/engine"
)

// ScoringConfig is the scoring section: which engine proposes the dead
// stones of games between people.
type ScoringConfig struct {
	Engine string `yaml:"engine"`
}

// RatingsConfig tunes ratings.
type RatingsConfig struct {
	// EngineGames rates games against engines (off: they are unrated).
	EngineGames bool `yaml:"engine_games"`
}

// checkEngines validates the engines and scoring sections.
func (c *Config) checkEngines() error {
	seen := map[string]bool{}
	for i, e := range c.Engines {
		if err := e.Validate(); err != nil {
			return fmt.Errorf("engines[%d]: %s", i, strings.TrimPrefix(err.Error(), engine.ErrConfig.Error()+": "))
		}
		name := strings.ToLower(e.Name)
		if seen[name] {
			return fmt.Errorf("engines[%d]: the name %q is used twice", i, e.Name)
		}
		seen[name] = true
	}
	if s := strings.ToLower(c.Scoring.Engine); s != "" && !seen[s] && (len(c.Engines) > 0 || s != "gnugo") {
		return fmt.Errorf("scoring.engine: %q is not one of the engines", c.Scoring.Engine)
	}
	return nil
}

// setupEngines offers the configured engines to bot, or GNU Go when none
// are configured and it is installed; the returned func stops them.
func setupEngines(cfg *Config, bot *chat.Bot, log *slog.Logger) func() {
	cfgs := cfg.Engines
	if len(cfgs) == 0 {
		found, err := engine.Discover()
		if err != nil {
			log.Info("no engine configured and GNU Go not found", "err", err)
			bot.SetEngines(nil, "", strings.TrimPrefix(err.Error(), engine.ErrNotFound.Error()+": "))
			return func() {}
		}
		cfgs = []engine.Config{found}
	}
	// An engine whose program is not there is not offered: the operator
	// hears of it now, not players at their first challenge.
	var runnable []engine.Config
	var missing []string
	for _, c := range cfgs {
		if _, err := exec.LookPath(c.Command); err != nil {
			log.Error("engine not offered: its program was not found", "engine", c.Name, "command", c.Command, "err", err)
			missing = append(missing, fmt.Sprintf("%s (%s not found)", c.Name, c.Command))
			continue
		}
		runnable = append(runnable, c)
	}
	if len(runnable) == 0 {
		bot.SetEngines(nil, "", "The configured engines are not installed here: "+strings.Join(missing, ", ")+".")
		return func() {}
	}
	cfgs = runnable
	set, err := engines.New(cfgs, log)
	if err != nil {
		log.Error("engines", "err", err)
		bot.SetEngines(nil, "", "The engines could not be set up: "+err.Error())
		return func() {}
	}
	scorer := ""
	if s := cfg.Scoring.Engine; s != "" && set.Has(s) {
		scorer = s
	}
	bot.SetEngines(set, scorer, "")
	return func() {
		bot.StopEngines()
		set.Close()
	}
}
