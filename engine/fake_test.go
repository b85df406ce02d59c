package engine

import (
	"bufio"
	"fmt"
	"os"
	"strconv"
	"strings"
	"time"

	"github.com/gobotgo/gobot/game"
)

// The fake engine is this test binary started as
//
//	engine.test -fakegtp MODE LOGFILE [ignored arguments...]
//
// It speaks enough GTP to play (first empty point that is no suicide) and
// misbehaves as MODE says, on genmove unless noted:
//
//	ok           plays properly
//	slow         never answers genmove
//	mute         never answers anything (not even protocol_version)
//	crash        exits without answering the first genmove of the test
//	             (LOGFILE.crashed marks that it did), then plays properly
//	illegal      answers with the point of the last play (occupied)
//	garbage      answers with a line that is not GTP
//	badvertex    answers "=id Z99"
//	badid        answers with an id one higher than asked
//	refusesize   refuses every boardsize except 19
//	nosuicide    refuses suicide (every mode does), and
//	suicide      accepts it
//	stderr       writes a line to stderr for each command
//	dead         lists every Black stone in final_status_list dead
//	nofinal      does not list final_status_list
//	refusefinal  refuses final_status_list
//
// Every command it reads is appended to LOGFILE, after a "start" line and
// a "pid N" line.
func fakeEngine(mode, logfile string) {
	logf, err := os.OpenFile(logfile, os.O_APPEND|os.O_CREATE|os.O_WRONLY, 0o644)
	if err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(2)
	}
	fmt.Fprintln(logf, "start")
	fmt.Fprintln(logf, "pid", os.Getpid())
	out := bufio.NewWriter(os.Stdout)
	size := 19
	board, _ := game.NewBoard(size, size)
	var history []*game.Board
	var last game.Point
	hasLast := false
	reply := func(id string, ok bool, text string) {
		c := "="
		if !ok {
			c = "?"
		}
		fmt.Fprintf(out, "%s%s %s\n\n", c, id, text)
		out.Flush()
	}
	play := func(c game.Color, v string) error {
		p, err := game.ParseGTP(v, size, size)
		if err != nil {
			return err
		}
		if p.IsPass() {
			history = append(history, board.Clone())
			return nil
		}
		nb := board.Clone()
		if _, sui, err := nb.Play(c, p); err != nil {
			return err
		} else if sui > 0 && mode != "suicide" {
			return fmt.Errorf("illegal move")
		}
		history = append(history, board)
		board, last, hasLast = nb, p, true
		return nil
	}
	sc := bufio.NewScanner(os.Stdin)
	for sc.Scan() {
		line := strings.TrimSpace(sc.Text())
		fmt.Fprintln(logf, line)
		if mode == "mute" {
			continue
		}
		if mode == "stderr" {
			fmt.Fprintln(os.Stderr, "fake engine thinking about", line)
		}
		f := strings.Fields(line)
		id := ""
		if len(f) > 0 {
			if _, err := strconv.Atoi(f[0]); err == nil {
				id, f = f[0], f[1:]
			}
		}
		if len(f) == 0 {
			continue
		}
		color := func() game.Color {
			if len(f) > 1 && strings.HasPrefix(strings.ToLower(f[1]), "w") {
				return game.White
			}
			return game.Black
		}
		switch f[0] {
		case "protocol_version":
			reply(id, true, "2")
		case "name":
			reply(id, true, "Fake")
		case "version":
			reply(id, true, "0.1")
		case "list_commands":
			list := "protocol_version\nname\nversion\nlist_commands\nboardsize\nclear_board\nkomi\nplay\ngenmove\nkgs-genmove_cleanup\nundo\nset_free_handicap\nfinal_status_list\nlevel\nquit"
			if mode == "nofinal" {
				list = strings.Replace(list, "final_status_list\n", "", 1)
			}
			reply(id, true, list)
		case "boardsize":
			n, _ := strconv.Atoi(f[len(f)-1])
			if n < 2 || n > 25 || (mode == "refusesize" && n != 19) {
				reply(id, false, "unacceptable size")
				continue
			}
			size = n
			board, _ = game.NewBoard(n, n)
			history, hasLast = nil, false
			reply(id, true, "")
		case "clear_board":
			board, _ = game.NewBoard(size, size)
			history, hasLast = nil, false
			reply(id, true, "")
		case "komi", "level":
			reply(id, true, "")
		case "set_free_handicap":
			for _, v := range f[1:] {
				p, _ := game.ParseGTP(v, size, size)
				board.Set(p, game.Black)
			}
			reply(id, true, "")
		case "play":
			if len(f) < 3 {
				reply(id, false, "syntax error")
				continue
			}
			if err := play(color(), f[2]); err != nil {
				reply(id, false, "illegal move")
				continue
			}
			reply(id, true, "")
		case "undo":
			if len(history) == 0 {
				reply(id, false, "cannot undo")
				continue
			}
			board, history = history[len(history)-1], history[:len(history)-1]
			reply(id, true, "")
		case "genmove", "kgs-genmove_cleanup":
			switch mode {
			case "slow":
				time.Sleep(time.Hour)
			case "crash":
				if _, err := os.Stat(logfile + ".crashed"); err != nil {
					os.WriteFile(logfile+".crashed", nil, 0o644)
					os.Exit(3)
				}
			case "garbage":
				fmt.Fprint(out, "I think I will play somewhere nice\n\n")
				out.Flush()
				continue
			case "badvertex":
				reply(id, true, "Z99")
				continue
			case "badid":
				n, _ := strconv.Atoi(id)
				reply(strconv.Itoa(n+1), true, "pass")
				continue
			case "illegal":
				if hasLast {
					reply(id, true, last.GTP(size))
					continue
				}
			}
			c := color()
			move := "pass"
			for y := 0; y < size && move == "pass"; y++ {
				for x := 0; x < size; x++ {
					p := game.Pt(x, y)
					if board.At(p) != game.Empty {
						continue
					}
					nb := board.Clone()
					if _, sui, err := nb.Play(c, p); err == nil && sui == 0 {
						move = p.GTP(size)
						break
					}
				}
			}
			play(c, move)
			reply(id, true, move)
		case "final_status_list":
			switch mode {
			case "dead":
				var v []string
				for _, p := range board.Stones(game.Black) {
					v = append(v, p.GTP(size))
				}
				reply(id, true, strings.Join(v, " "))
			case "refusefinal", "nofinal":
				reply(id, false, "unknown command")
			default:
				reply(id, true, "")
			}
		case "quit":
			reply(id, true, "")
			return
		default:
			reply(id, false, "unknown command")
		}
	}
}
