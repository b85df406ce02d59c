package main

import (
	"fmt"
	"math"
	"time"

	"github.com/gobotgo/gobot/flow"
)

// VacationConfig is the vacation allowance (config.example.yaml's
// vacation section, docs/commands.md's vacation): every player starts
// with start_days, earns days_per_week per week from their first game,
// and holds at most max_days. A key left out keeps its default (14, 1,
// 30).
type VacationConfig struct {
	StartDays   *float64 `yaml:"start_days" want:"a number of days like 14"`
	DaysPerWeek *float64 `yaml:"days_per_week" want:"a number of days like 1"`
	MaxDays     *float64 `yaml:"max_days" want:"a number of days like 30"`
}

const maxVacationDays = 3650 // ten years: more is a typo

func (v VacationConfig) check() error {
	for _, k := range []struct {
		key string
		v   *float64
	}{{"vacation.start_days", v.StartDays}, {"vacation.days_per_week", v.DaysPerWeek}, {"vacation.max_days", v.MaxDays}} {
		if k.v == nil {
			continue
		}
		if d := *k.v; math.IsNaN(d) || d < 0 || d > maxVacationDays {
			return fmt.Errorf("%s: %v is not a number of days from 0 to %d", k.key, d, maxVacationDays)
		}
	}
	c := v.chatConfig()
	if c.Start > c.Max {
		return fmt.Errorf("vacation.start_days: players would start with %v days but may hold at most %v (vacation.max_days); lower start_days or raise max_days", days(c.Start), days(c.Max))
	}
	return nil
}

func days(d time.Duration) float64 { return d.Hours() / 24 }

// chatConfig is the allowance for the bot, each key left out at its
// default.
func (v VacationConfig) chatConfig() flow.VacationConfig {
	c := flow.DefaultVacation
	set := func(d *time.Duration, n *float64) {
		if n != nil {
			*d = time.Duration(*n * 24 * float64(time.Hour)).Round(time.Second)
		}
	}
	set(&c.Start, v.StartDays)
	set(&c.PerWeek, v.DaysPerWeek)
	set(&c.Max, v.MaxDays)
	c.Off = c.Max == 0 // max_days: 0 turns vacations off
	return c
}
