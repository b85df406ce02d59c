package matrix

import (
	"context"
	"encoding/json"
	"log/slog"
	"strings"

	"github.com/rs/zerolog"
)

// zerologTo passes mautrix's warnings and errors to log.
func zerologTo(log *slog.Logger) zerolog.Logger {
	return zerolog.New(slogWriter{log}).Level(zerolog.WarnLevel).With().Timestamp().Logger()
}

type slogWriter struct{ log *slog.Logger }

func (w slogWriter) Write(p []byte) (int, error) {
	var rec map[string]any
	msg := strings.TrimSpace(string(p))
	level := slog.LevelWarn
	if json.Unmarshal(p, &rec) == nil {
		if m, ok := rec["message"].(string); ok {
			msg = m
		}
		if l, _ := rec["level"].(string); l == "error" || l == "fatal" || l == "panic" {
			level = slog.LevelError
		}
		delete(rec, "message")
		delete(rec, "level")
		delete(rec, "time")
	}
	var args []any
	for k, v := range rec {
		args = append(args, k, v)
	}
	w.log.Log(context.Background(), level, "mautrix: "+msg, args...)
	return len(p), nil
}
