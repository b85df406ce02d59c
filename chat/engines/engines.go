// Package engines adapts package engine's GTP pools to chat.Engines, so
// the chat layer plays the computer without knowing GTP.
package engines

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot/chat"
	"github.com/gobotgo/gobot/engine"
	"github.com/gobotgo/gobot/game"
)

// Set is the configured engines, one pool each. It implements
// chat.Engines.
type Set struct {
	pools []*engine.Pool
	log   *slog.Logger

	mu    sync.Mutex
	about map[string]string // name -> "GNU Go 3.8", once known
}

var _ chat.Engines = (*Set)(nil)

// New starts a pool per configuration (processes start on first use).
func New(cfgs []engine.Config, log *slog.Logger) (*Set, error) {
	if log == nil {
		log = slog.Default()
	}
	s := &Set{log: log, about: map[string]string{}}
	seen := map[string]bool{}
	for _, c := range cfgs {
		if seen[strings.ToLower(c.Name)] {
			s.Close()
			return nil, fmt.Errorf("%w: engine %q is configured twice", engine.ErrConfig, c.Name)
		}
		seen[strings.ToLower(c.Name)] = true
		p, err := engine.New(c, log)
		if err != nil {
			s.Close()
			return nil, err
		}
		s.pools = append(s.pools, p)
	}
	return s, nil
}

// Close stops every engine process.
func (s *Set) Close() error {
	for _, p := range s.pools {
		p.Close()
	}
	return nil
}

// Has reports whether an engine of that name is configured.
func (s *Set) Has(name string) bool { return s.pool(name) != nil }

func (s *Set) pool(name string) *engine.Pool {
	for _, p := range s.pools {
		if strings.EqualFold(p.Name(), name) {
			return p
		}
	}
	return nil
}

func (s *Set) get(name string) (*engine.Pool, error) {
	if p := s.pool(name); p != nil {
		return p, nil
	}
	return nil, fmt.Errorf("%w: no engine named %q", engine.ErrConfig, name)
}

// List describes the engines; an engine's version is filled in once it
// has run.
func (s *Set) List() []chat.EngineInfo {
	s.mu.Lock()
	defer s.mu.Unlock()
	var out []chat.EngineInfo
	for _, p := range s.pools {
		c := p.Config()
		out = append(out, chat.EngineInfo{Name: c.Name, About: s.about[c.Name], Levels: c.LevelList(), Sizes: append([]int(nil), c.Sizes...)})
	}
	return out
}

// Check asks the pool whether it can play the game.
func (s *Set) Check(ctx context.Context, name string, cfg game.Config, level int) error {
	p, err := s.get(name)
	if err != nil {
		return err
	}
	err = p.Check(ctx, cfg, level)
	if err == nil {
		s.learn(ctx, p)
	}
	if errors.Is(err, engine.ErrUnsupported) {
		// The reason alone: the bot says "gnugo can't play that game: …".
		return errors.New(strings.TrimPrefix(err.Error(), engine.ErrUnsupported.Error()+": "))
	}
	return err
}

func (s *Set) learn(ctx context.Context, p *engine.Pool) {
	s.mu.Lock()
	known := s.about[p.Name()] != ""
	s.mu.Unlock()
	if known {
		return
	}
	ctx, cancel := context.WithTimeout(ctx, 10*time.Second)
	defer cancel()
	if info, err := p.Info(ctx); err == nil {
		s.mu.Lock()
		s.about[p.Name()] = info.Ident
		s.mu.Unlock()
	}
}

// Move asks for the engine's move.
func (s *Set) Move(ctx context.Context, name string, rec game.Record, level int, cleanup bool) (chat.EngineMove, error) {
	p, err := s.get(name)
	if err != nil {
		return chat.EngineMove{}, err
	}
	r, err := p.Move(ctx, engine.Request{Record: rec, Level: level, Cleanup: cleanup})
	if err != nil {
		return chat.EngineMove{}, err
	}
	return chat.EngineMove{Moves: r.Moves, Resign: r.Resign, Illegal: r.Illegal}, nil
}

// Dead asks for the engine's dead stones.
func (s *Set) Dead(ctx context.Context, name string, rec game.Record) ([]game.Point, error) {
	p, err := s.get(name)
	if err != nil {
		return nil, err
	}
	return p.Dead(ctx, rec)
}

// Review asks whether the engine accepts rec's marking.
func (s *Set) Review(ctx context.Context, name string, rec game.Record, c game.Color) (bool, error) {
	p, err := s.get(name)
	if err != nil {
		return false, err
	}
	r, err := p.Review(ctx, rec, c)
	return r.Accept, err
}
