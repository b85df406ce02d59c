package main

import (
	"testing"
	"time"

	"github.com/gobotgo/gobot/flow"
)

// The vacation allowance: three numbers of days, each left out at its
// default; mistakes in plain words; max_days: 0 turns vacations off.
func TestVacationConfig(t *testing.T) {
	for _, tc := range []struct{ yaml, want string }{
		{"vacation:\n  start_days: lots\n", `gobot.yaml:2: vacation.start_days: write a number of days like 14, not "lots"`},
		{"vacation:\n  days_per_week: -1\n", "gobot.yaml:2: vacation.days_per_week: -1 is not a number of days from 0 to 3650"},
		{"vacation:\n  max_days: 10\n", "gobot.yaml:1: vacation.start_days: players would start with 14 days but may hold at most 10 (vacation.max_days); lower start_days or raise max_days"},
		{"vacation:\n  max_day: 10\n", "gobot.yaml:2: vacation.max_day: unknown key (did you mean max_days?)"},
	} {
		_, err := parseConfig([]byte(tc.yaml), "gobot.yaml", func(string) string { return "" })
		if err == nil || err.Error() != tc.want {
			t.Errorf("%q: error %v, want %q", tc.yaml, err, tc.want)
		}
	}
	for _, tc := range []struct {
		yaml string
		want flow.VacationConfig
	}{
		{"", flow.DefaultVacation},
		{"vacation:\n  days_per_week: 0.5\n", flow.VacationConfig{Start: 14 * 24 * time.Hour, PerWeek: 12 * time.Hour, Max: 30 * 24 * time.Hour}},
		{"vacation:\n  start_days: 7\n  days_per_week: 0\n  max_days: 7\n", flow.VacationConfig{Start: 7 * 24 * time.Hour, Max: 7 * 24 * time.Hour}},
		{"vacation:\n  start_days: 0\n  max_days: 0\n", flow.VacationConfig{PerWeek: 24 * time.Hour, Off: true}},
	} {
		cfg, err := parseConfig([]byte(tc.yaml), "gobot.yaml", func(string) string { return "" })
		if err != nil {
			t.Fatalf("%q: %v", tc.yaml, err)
		}
		if got := cfg.chatConfig().Vacation; got != tc.want {
			t.Errorf("%q: %+v, want %+v", tc.yaml, got, tc.want)
		}
	}
}
