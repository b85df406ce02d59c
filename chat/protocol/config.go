package protocol

import (
	"errors"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/game"
)

// Defaults are the game settings a challenge's options fall back on: the
// bot's, or a room's (zero and "": the room has none).
type Defaults struct {
	Rules         string // preset or rules spec
	Width, Height int
	Komi          *float64 // nil: the ruleset's default for size and handicap
	Clock         string   // clock spec as typed
}

// Config merges the typed options with the room's and the bot's
// defaults and checks the result: the game's configuration, clock and
// colour ("random" when not given). Its errors are refusals.
func (o GameOptions) Config(bot, room Defaults) (game.Config, gobot.TimeControl, string, error) {
	var cfg game.Config
	rulesText := bot.Rules
	if room.Rules != "" {
		rulesText = room.Rules
	}
	spec := rulesText
	switch {
	case o.Rules != nil && o.RulesPreset == "" && len(o.RulesOpts) > 0:
		// Options alone (ko=simple) change the room's ruleset.
		spec = rulesText + " " + o.RulesText
	case o.Rules != nil:
		spec = o.RulesText
	}
	rules, err := game.ParseRules(spec)
	if err != nil {
		if o.Rules == nil {
			return cfg, gobot.TimeControl{}, "", Refusef("the default rules %q don't work: %v", rulesText, err)
		}
		return cfg, gobot.TimeControl{}, "", Refusef("%s", RulesError(err, spec))
	}
	cfg.Rules = rules
	base, hasBase, komiGiven := RulesBase(spec)
	cfg.Width, cfg.Height = bot.Width, bot.Height
	if room.Width > 0 {
		cfg.Width, cfg.Height = room.Width, room.Height
	}
	if o.Width > 0 {
		cfg.Width, cfg.Height = o.Width, o.Height
	}
	if hasBase {
		if err := base.CheckBoard(cfg.Width, cfg.Height); err != nil {
			return cfg, gobot.TimeControl{}, "", Refusef("%v: choose a size like 9, 13 or 19.", err)
		}
	}
	if o.Handicap != nil {
		cfg.Handicap = *o.Handicap
		if cfg.Handicap == 1 && !(hasBase && base.Komi.OneStone) {
			oneStone := 0.5 // a handicap game's komi, at most 0.5
			if hasBase {
				oneStone = min(base.Komi.Handicap, 0.5)
			}
			return cfg, gobot.TimeControl{}, "", Refusef("Under %s rules a handicap starts at 2 stones; handicap=1 would place none. For Black to play first with the handicap komi, write komi=%s instead.", cfg.Rules.Name, game.FormatKomi(oneStone))
		}
	}
	if o.Placement != "" {
		cfg.Rules.Placement = map[string]game.Placement{"fixed": game.PlacementFixed, "free": game.PlacementFree, "white-passes": game.PlacementWhitePasses}[o.Placement]
	}
	// The komi: as the rules text says it, else by the policy of the
	// preset it starts from (for this size and handicap), else as a
	// custom ruleset's.
	var komi float64
	switch {
	case komiGiven:
		komi = cfg.Rules.Komi
	case hasBase:
		komi = base.Komi.For(cfg.Width, cfg.Height, cfg.Handicap)
	default:
		komi = cfg.Rules.DefaultKomi(cfg.Width, cfg.Height, cfg.Handicap)
	}
	if cfg.Handicap == 0 { // an even game: the bot's and the room's komi
		if bot.Komi != nil {
			komi = *bot.Komi
		}
		if room.Komi != nil {
			komi = *room.Komi
		}
	}
	if o.Komi != nil {
		komi = *o.Komi
	}
	cfg.Rules.Komi = komi
	if _, err := game.New(cfg); err != nil {
		if errors.Is(err, game.ErrHandicap) {
			return cfg, gobot.TimeControl{}, "", Refusef("A %d-stone handicap has no fixed points on a %s board: add placement=free so Black places the stones anywhere.", cfg.Handicap, game.SizeString(cfg.Width, cfg.Height))
		}
		return cfg, gobot.TimeControl{}, "", Refusef("those options don't make a game: %v", err)
	}
	clockText := bot.Clock
	if room.Clock != "" {
		clockText = room.Clock
	}
	var clock gobot.TimeControl
	if o.Clock != nil {
		clock = *o.Clock
	} else {
		c, err := ParseClock(clockText)
		if err != nil {
			return cfg, gobot.TimeControl{}, "", err
		}
		clock = c
	}
	color := o.Color
	if color == "" {
		color = "random"
	}
	return cfg, clock, color, nil
}
