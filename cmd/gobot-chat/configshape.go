package main

import (
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"sort"
	"strconv"
	"strings"
	"sync"
	"time"

	"github.com/gobotgo/gobot/chat/protocol"
	"go.yaml.in/yaml/v3"
)

// A config mistake is reported as the file, the line, the key path and
// what the key takes:
//
//	gobot.yaml:5: discord.tokn: unknown key (did you mean token?)
//	gobot.yaml:7: clock.reminders: write a list of durations like [24h, 1h], not "24h"
//
// The shape check walks the file's YAML against Config's fields (their
// yaml tags name the keys, a `want` tag says what a key takes where its
// type alone says too little) before anything is decoded, so the
// decoder's own messages (Go type names, YAML tags) never reach the
// admin. check's errors begin with the key at fault; the line is found
// from the key.

// configError is one mistake at one key.
type configError struct {
	Line int    // 1-based; 0 when the file has no such key (a missing value)
	Key  string // "discord.token", "engines[0].levels.5"; "" for the whole file
	Msg  string
}

func (e *configError) Error() string {
	if e.Key == "" {
		return e.Msg
	}
	return e.Key + ": " + e.Msg
}

// configErrors are the shape mistakes of one file, in file order.
type configErrors struct {
	path string
	errs []*configError
}

// maxConfigErrors bounds how many shape mistakes one load reports.
const maxConfigErrors = 10

func (e *configErrors) Error() string {
	lines := make([]string, 0, len(e.errs))
	for i, ce := range e.errs {
		if i == maxConfigErrors {
			lines = append(lines, fmt.Sprintf("%s: and %d more", e.path, len(e.errs)-i))
			break
		}
		lines = append(lines, at(e.path, ce))
	}
	return strings.Join(lines, "\n")
}

// at formats one mistake as file:line: key: message.
func at(path string, e *configError) string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", path, e.Line, e.Error())
	}
	return fmt.Sprintf("%s: %s", path, e.Error())
}

// keyPrefix matches the key path an error message starts with
// (compiled when a config error is worded, not at every start).
var keyPrefix = sync.OnceValue(func() *regexp.Regexp {
	return regexp.MustCompile(`^([a-z_]+(?:\[\d+\]|\.[a-z_0-9]+)*): `)
})

// locate turns an error that starts with a key path (check's, or a field's
// own UnmarshalYAML) into a configError at that key's line in root.
func locate(root *yaml.Node, err error) *configError {
	msg := err.Error()
	m := keyPrefix().FindStringSubmatch(msg)
	if m == nil {
		return &configError{Msg: msg}
	}
	return &configError{Line: lineOf(root, m[1]), Key: m[1], Msg: msg[len(m[0]):]}
}

// lineOf returns the line of key (like "clock.reminders[1]") in root, or
// of its deepest part the file has (discord: for a missing
// discord.token), or 0.
func lineOf(root *yaml.Node, key string) int {
	n, line := root, 0
	for _, part := range splitKey(key) {
		n = deref(n)
		if n == nil {
			break
		}
		var next, keyNode *yaml.Node
		if i, err := strconv.Atoi(strings.Trim(part, "[]")); strings.HasPrefix(part, "[") && err == nil {
			if n.Kind == yaml.SequenceNode && i < len(n.Content) {
				next, keyNode = n.Content[i], n.Content[i]
			}
		} else if n.Kind == yaml.MappingNode {
			for j := 0; j+1 < len(n.Content); j += 2 {
				if n.Content[j].Value == part {
					keyNode, next = n.Content[j], n.Content[j+1]
				}
			}
		}
		if next == nil {
			break
		}
		line, n = keyNode.Line, next
	}
	return line
}

// splitKey splits "engines[0].levels.5" into engines, [0], levels, 5.
func splitKey(key string) []string {
	var parts []string
	for _, dotted := range strings.Split(key, ".") {
		for dotted != "" {
			i := strings.IndexByte(dotted[1:], '[') + 1
			if i == 0 {
				i = len(dotted)
			}
			parts = append(parts, dotted[:i])
			dotted = dotted[i:]
		}
	}
	return parts
}

// deref follows a document to its content and an alias to its anchor.
func deref(n *yaml.Node) *yaml.Node {
	for n != nil && (n.Kind == yaml.DocumentNode || n.Kind == yaml.AliasNode) {
		if n.Kind == yaml.AliasNode {
			n = n.Alias
		} else if len(n.Content) > 0 {
			n = n.Content[0]
		} else {
			return nil
		}
	}
	return n
}

var (
	unmarshalerType = reflect.TypeFor[yaml.Unmarshaler]()
	durationType    = reflect.TypeFor[time.Duration]()
)

// checkShape reports every key of n that t has no field for and every
// value of the wrong kind, naming the key path and what it takes.
func checkShape(n *yaml.Node, t reflect.Type) []*configError {
	var errs []*configError
	walkShape(n, t, "", "", &errs)
	return errs
}

func walkShape(n *yaml.Node, t reflect.Type, key, want string, errs *[]*configError) {
	n = deref(n)
	if n == nil || n.Kind == 0 || n.Kind == yaml.ScalarNode && n.Tag == "!!null" {
		return // an empty file or value leaves the defaults
	}
	if want == "" {
		want = wantOf(t)
	}
	wrong := func() {
		*errs = append(*errs, &configError{Line: n.Line, Key: key, Msg: fmt.Sprintf("write %s, not %s", want, found(n))})
	}
	if reflect.PointerTo(t).Implements(unmarshalerType) {
		if err := n.Decode(reflect.New(t).Interface()); err != nil {
			ce := locate(&yaml.Node{}, err)
			ce.Line = n.Line
			if ce.Key == "" {
				ce.Key = key
			}
			*errs = append(*errs, ce)
		}
		return
	}
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Struct:
		if n.Kind != yaml.MappingNode {
			wrong()
			return
		}
		fields := map[string]reflect.StructField{}
		var names []string
		for _, f := range reflect.VisibleFields(t) {
			name, _, _ := strings.Cut(f.Tag.Get("yaml"), ",")
			if f.IsExported() && name != "" && name != "-" {
				fields[name] = f
				names = append(names, name)
			}
		}
		seen := map[string]int{}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k, v := deref(n.Content[i]), n.Content[i+1]
			if k.Tag == "!!merge" { // <<: *anchor
				walkShape(v, t, key, want, errs)
				continue
			}
			sub := joinKey(key, clip(k.Value, 40))
			f, ok := fields[k.Value]
			switch {
			case k.Kind != yaml.ScalarNode:
				*errs = append(*errs, &configError{Line: k.Line, Key: key, Msg: "a key must be a plain word, like enabled"})
			case !ok:
				*errs = append(*errs, &configError{Line: k.Line, Key: sub, Msg: unknownKey(k.Value, names)})
			case seen[k.Value] > 0:
				*errs = append(*errs, &configError{Line: k.Line, Key: sub, Msg: fmt.Sprintf("given twice (first on line %d); keep one", seen[k.Value])})
			default:
				seen[k.Value] = k.Line
				walkShape(v, f.Type, sub, f.Tag.Get("want"), errs)
			}
		}
	case reflect.Slice:
		if n.Kind != yaml.SequenceNode {
			wrong()
			return
		}
		for i, item := range n.Content {
			walkShape(item, t.Elem(), fmt.Sprintf("%s[%d]", key, i), "", errs)
		}
	case reflect.Map:
		if n.Kind != yaml.MappingNode {
			wrong()
			return
		}
		for i := 0; i+1 < len(n.Content); i += 2 {
			k := deref(n.Content[i])
			if k.Kind != yaml.ScalarNode || k.Decode(reflect.New(t.Key()).Interface()) != nil {
				*errs = append(*errs, &configError{Line: k.Line, Key: key, Msg: fmt.Sprintf("write %s, not %s", want, found(k))})
				continue
			}
			walkShape(n.Content[i+1], t.Elem(), joinKey(key, clip(k.Value, 40)), "", errs)
		}
	default:
		if n.Kind != yaml.ScalarNode || n.Decode(reflect.New(t).Interface()) != nil {
			wrong()
		}
	}
}

func joinKey(key, name string) string {
	if key == "" {
		return name
	}
	return key + "." + name
}

// wantOf says what a value of type t looks like, for a key with no want
// tag.
func wantOf(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t == durationType {
		return "a duration like 30s or 5m"
	}
	switch t.Kind() {
	case reflect.Struct, reflect.Map:
		return "a section of key: value lines"
	case reflect.Slice:
		switch t.Elem().Kind() {
		case reflect.Struct:
			return "a list of sections (each item starts with -)"
		case reflect.Int:
			return "a list of whole numbers like [9, 13, 19]"
		}
		return "a list like [a, b]"
	case reflect.Bool:
		return "true or false"
	case reflect.Int:
		return "a whole number"
	case reflect.Float64:
		return "a number like 6.5"
	}
	return "a single value"
}

// found describes what the file has where something else was wanted.
func found(n *yaml.Node) string {
	switch n.Kind {
	case yaml.MappingNode:
		return "a section"
	case yaml.SequenceNode:
		return "a list"
	}
	return strconv.Quote(clip(n.Value, 40))
}

// unknownKey suggests the known key closest to name, or lists them.
func unknownKey(name string, known []string) string {
	best, bestD := "", 3
	for _, k := range known {
		if d := protocol.EditDistance(strings.ToLower(name), k); d < bestD && d <= len(k)/2 {
			best, bestD = k, d
		}
	}
	if best != "" {
		return fmt.Sprintf("unknown key (did you mean %s?)", best)
	}
	sorted := append([]string(nil), known...)
	sort.Strings(sorted)
	return "unknown key; the keys here are " + strings.Join(sorted, ", ")
}

// yamlSyntax matches the YAML parser's "yaml: line N: message".
var yamlSyntax = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^yaml: (?:line (\d+): )?(.*)$`) })

// syntaxError turns the YAML parser's error into file:line: message.
func syntaxError(path string, err error) error {
	m := yamlSyntax().FindStringSubmatch(err.Error())
	if m == nil {
		return fmt.Errorf("%s: not valid YAML: %w", path, err)
	}
	line, _ := strconv.Atoi(m[1])
	return errors.New(at(path, &configError{Line: line, Msg: "not valid YAML: " + m[2]}))
}
