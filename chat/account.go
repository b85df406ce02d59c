package chat

import (
	"errors"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
	"github.com/gobotgo/gobot/chat/say"
	"github.com/gobotgo/gobot/flow"
	"github.com/gobotgo/gobot/flow/ratings"
)

// Linked accounts (docs/identity.md): `account link` gives a one-time
// code as the command to send from the other account; `account link
// CODE` from that account links the two; `account unlink` undoes it for
// future games; `account` shows the accounts linked. Every reply is
// private: where it cannot be (a shared Matrix room) the command is
// refused, and a code typed there is voided, as it has been seen.

var accountActions = []string{"link", "unlink"}

func cmdAccount(call *Call) (Result, error) {
	tx, r, a := call.Tx, call.Req, call.Args
	action, code := a.Choice["action"], ""
	if len(a.Text) > 0 {
		code = a.Text[0]
	}
	if len(a.Text) > 1 || code != "" && action != "link" {
		return Result{}, say.AccountUsage()
	}
	if !r.DM && !r.PrivateReplies() {
		if action == "link" && code != "" {
			// Seen by the room: void it, and say so (the change is kept).
			if err := voidCode(tx, code); err != nil {
				return Result{}, err
			}
			return Result{Reply: protocol.Reply{Text: say.CodeSeen(), Error: true, Private: true, Withdraw: true}}, nil
		}
		return Result{}, say.AccountPrivate()
	}
	me := r.User.ID
	var text string
	var err error
	switch {
	case action == "link" && code == "":
		text, err = issueCode(tx, r)
	case action == "link":
		text, err = redeemCode(tx, r, code)
	case action == "unlink":
		text, err = unlink(tx, r)
	default:
		var p gobot.UserID
		if p, err = gobot.PlayerOf(tx, me); err != nil {
			return Result{}, err
		}
		var links []*gobot.AccountLink
		if _, lerr := tx.AccountLink(me); lerr == nil {
			if links, err = tx.LinkedAccounts(p); err != nil {
				return Result{}, err
			}
		}
		text = say.AccountsShown(me, p, links)
	}
	if err != nil {
		return Result{}, err
	}
	return Result{Reply: protocol.Reply{Title: "Accounts", Text: text, Private: true}}, nil
}

// accountLooks: `account` alone only looks.
func accountLooks(a *protocol.Args) bool { return a.Choice["action"] == "" }

// voidCode marks code used, if it is one the bot gave.
func voidCode(tx gobot.Tx, code string) error {
	code, ok := gobot.NormalLinkCode(code)
	if !ok {
		return nil
	}
	c, err := tx.LinkCode(gobot.HashLinkCode(code))
	if errors.Is(err, gobot.ErrNotFound) {
		return nil
	}
	if err != nil || c.Used {
		return err
	}
	c.Used = true
	return tx.PutLinkCode(c)
}

// issueCode gives r's caller a new code, within the limits.
func issueCode(tx gobot.Tx, r *protocol.Request) (string, error) {
	if _, err := tx.ExpireLinkCodes(r.Time.Add(-gobot.LinkCodeKeep)); err != nil {
		return "", err
	}
	codes, err := tx.LinkCodesOf(r.User.ID)
	if err != nil {
		return "", err
	}
	live := 0
	for _, c := range codes {
		if c.Live(r.Time) {
			live++
		}
	}
	if live >= gobot.LinkCodesLive {
		return "", say.TooManyLiveCodes(live)
	}
	if len(codes) >= gobot.LinkCodesPerDay {
		return "", say.TooManyCodesToday(len(codes))
	}
	code, err := gobot.NewLinkCode()
	if err != nil {
		return "", err
	}
	c := &gobot.LinkCode{Hash: gobot.HashLinkCode(code), User: r.User.ID, Issued: r.Time, Expires: r.Time.Add(gobot.LinkCodeTTL)}
	if err := tx.PutLinkCode(c); err != nil {
		return "", err
	}
	return say.LinkCodeIssued(code, gobot.LinkCodeTTL), nil
}

// redeemCode links r's caller to the account that asked for code.
func redeemCode(tx gobot.Tx, r *protocol.Request, typed string) (string, error) {
	code, ok := gobot.NormalLinkCode(typed)
	if !ok {
		return "", say.BadLinkCode(gobot.LinkCodeLen)
	}
	c, err := tx.LinkCode(gobot.HashLinkCode(code))
	switch {
	case errors.Is(err, gobot.ErrNotFound):
		return "", say.NoLinkCode()
	case err != nil:
		return "", err
	case c.Used:
		return "", say.LinkCodeUsed()
	case !c.Live(r.Time):
		return "", say.LinkCodeExpired()
	}
	me := r.User.ID
	if c.User == me {
		return "", say.OwnLinkCode()
	}
	player, err := gobot.PlayerOf(tx, c.User)
	if err != nil {
		return "", err
	}
	if l, err := tx.AccountLink(me); err == nil {
		return "", say.AlreadyLinked(l.Player == player)
	} else if !errors.Is(err, gobot.ErrNotFound) {
		return "", err
	}
	accounts, err := gobot.AccountsOf(tx, c.User)
	if err != nil {
		return "", err
	}
	for _, a := range accounts {
		if a.Platform() == me.Platform() {
			return "", say.SamePlatform(me.Platform(), a)
		}
	}
	// One vacation allowance per player: none may be running as the
	// accounts become one (or its games would stay stopped).
	for _, u := range []gobot.UserID{player, me} {
		if flow.OnVacation(tx, u) {
			return "", say.LinkOnVacation()
		}
	}
	if player == c.User {
		if _, err := tx.AccountLink(c.User); errors.Is(err, gobot.ErrNotFound) {
			// The first link: the account that asked is the player's ID.
			if err := tx.PutAccountLink(&gobot.AccountLink{Account: c.User, Player: c.User, Linked: r.Time}); err != nil {
				return "", err
			}
		}
	}
	if err := tx.PutAccountLink(&gobot.AccountLink{Account: me, Player: player, Linked: r.Time}); err != nil {
		return "", err
	}
	c.Used = true
	if err := tx.PutLinkCode(c); err != nil {
		return "", err
	}
	// One rating per community: the player's, under their ID.
	moved, err := ratings.JoinAccounts(tx, player, r.Time)
	if err != nil {
		return "", err
	}
	joined := 0
	for _, m := range moved {
		if m.Joined {
			joined++
		}
	}
	return say.Linked(me, append(accounts, me)) + say.RatingsJoined(joined), nil
}

// unlink takes r's caller out of their player: when it was the player's
// ID, the account linked first after it becomes the ID; a player left
// with one account is linked to none.
func unlink(tx gobot.Tx, r *protocol.Request) (string, error) {
	me := r.User.ID
	l, err := tx.AccountLink(me)
	if errors.Is(err, gobot.ErrNotFound) {
		return "", say.NotLinked()
	}
	if err != nil {
		return "", err
	}
	if flow.OnVacation(tx, me) {
		return "", say.LinkOnVacation()
	}
	if err := tx.DeleteAccountLink(me); err != nil {
		return "", err
	}
	rest, err := tx.LinkedAccounts(l.Player)
	if err != nil {
		return "", err
	}
	switch {
	case len(rest) == 1:
		err = tx.DeleteAccountLink(rest[0].Account)
	case len(rest) > 1 && me == l.Player:
		for _, o := range rest {
			o.Player = rest[0].Account
			if err = tx.PutAccountLink(o); err != nil {
				break
			}
		}
	}
	if err != nil {
		return "", err
	}
	return say.Unlinked(), nil
}

// toldOn are the accounts through which u, the account seated in a game,
// is told of their turn and reminded (settings notify_on=,
// docs/identity.md): u itself where the game is played (the default),
// their account on the platform they chose, or every account they link.
// An account of a platform no adapter serves in this process is still
// named: its notice is dropped, and logged, when sent (Bot.notify).
func toldOn(tx gobot.Tx, u gobot.UserID) []gobot.UserID {
	on := playerIn(tx, u).NotifyOn
	if on == "" {
		return []gobot.UserID{u}
	}
	accounts, err := gobot.AccountsOf(tx, u)
	if err != nil || len(accounts) == 1 {
		return []gobot.UserID{u}
	}
	if on == "both" {
		return accounts
	}
	for _, a := range accounts {
		if a.Platform() == on {
			return []gobot.UserID{a}
		}
	}
	return []gobot.UserID{u} // unlinked since: where the game is played
}
