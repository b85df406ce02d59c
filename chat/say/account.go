package say

import (
	"fmt"
	"strings"
	"time"

	"github.com/gobotgo/gobot"
)

// Words of linked accounts (chat/account.go, docs/identity.md).

// AccountPrivate refuses an account command where its reply cannot be
// private (a shared Matrix room).
func AccountPrivate() error {
	return Refusef("Account links are private: send %s to me in a direct message instead. Nothing changed.", Cmd("account"))
}

// AccountUsage refuses words the account command does not take.
func AccountUsage() error {
	return Refusef("Write %s (your accounts), %s (a code, or with the code from your other account: %s) or %s. Nothing changed.", Cmd("account"), Cmd("account link"), Cmd("account link CODE"), Cmd("account unlink"))
}

// CodeSeen is the answer to a link code typed where others can see it:
// the code is void.
func CodeSeen() string {
	return "That code was typed where others can see it, so I've voided it and linked nothing. Ask for a new one with " + Cmd("account link") + " in a direct message to me."
}

// LinkCodeIssued is the private answer to account link: the code as the
// command to send from the other account.
func LinkCodeIssued(code string, ttl time.Duration) string {
	return fmt.Sprintf("To link another of your accounts (Discord, Matrix or the terminal) to this one, send me this from that account, privately, within %d minutes:\n%s\nThe code works once. Don't share it: whoever sends it joins your account to theirs.", int(ttl/time.Minute), Cmd("account link "+code))
}

// TooManyLiveCodes refuses a new code to someone holding n unused ones.
func TooManyLiveCodes(n int) error {
	return Refusef("You already have %d link codes waiting; use one of them, or wait until they expire (10 minutes after each was given).", n)
}

// TooManyCodesToday refuses a new code to someone who asked for n today.
func TooManyCodesToday(n int) error {
	return Refusef("You have asked for %d link codes in the last 24 hours, the most I give; try again tomorrow.", n)
}

// BadLinkCode refuses what cannot be a code.
func BadLinkCode(n int) error {
	return Refusef("That is not a link code: a code is %d letters and digits, as %s gave it. Nothing changed.", n, Cmd("account link"))
}

// NoLinkCode refuses a code that is not one the bot gave (or was
// forgotten a day after).
func NoLinkCode() error {
	return Refusef("I gave no such code. Check it, or ask for a new one with %s from your other account. Nothing changed.", Cmd("account link"))
}

// LinkCodeUsed refuses a code already used or voided.
func LinkCodeUsed() error {
	return Refusef("That code has been used already (or voided). Ask for a new one with %s from your other account.", Cmd("account link"))
}

// LinkCodeExpired refuses a code past its time.
func LinkCodeExpired() error {
	return Refusef("That code has expired (codes last 10 minutes). Ask for a new one with %s from your other account.", Cmd("account link"))
}

// OwnLinkCode refuses a code sent back from the account that asked for
// it.
func OwnLinkCode() error {
	return Refusef("That code is this account's own: send it from your other account, the one you want to link to this one. Nothing changed.")
}

// AlreadyLinked refuses linking an account that is linked already:
// same, to the very player the code is for.
func AlreadyLinked(same bool) error {
	if same {
		return Refusef("This account is already linked to that one. Nothing changed.")
	}
	return Refusef("This account is already linked to other accounts. Send %s from it first if you want to link it here instead. Nothing changed.", Cmd("account unlink"))
}

// SamePlatform refuses a second account of one platform.
func SamePlatform(platform string, has gobot.UserID) error {
	short := fmt.Sprintf("Those are two %s accounts; a player links one account per platform. Nothing changed.", platformName(platform))
	return Shortest(fmt.Sprintf("Those are two %s accounts; a player links one account per platform (%s is already linked). Nothing changed.", platformName(platform), has), short)
}

// Linked is the answer to a link made: me is this account, accounts all
// of the player's.
func Linked(me gobot.UserID, accounts []gobot.UserID) string {
	var others []string
	for _, a := range accounts {
		if a != me {
			others = append(others, string(a))
		}
	}
	return fmt.Sprintf("Linked: this account and %s are now one player. Your games from each are in %s, and you can play each from any of them. %s undoes it for future games.", strings.Join(others, " and "), Cmd("games"), Cmd("account unlink"))
}

// Unlinked is the answer to account unlink.
func Unlinked() string {
	return "Unlinked: from now on this account is a player of its own again. Games already played stay as they are."
}

// NotLinked refuses account unlink from an account linked to none.
func NotLinked() error {
	return Refusef("This account is linked to no other: there is nothing to unlink. Nothing changed.")
}

// AccountsShown lists the player's accounts (me: this one); none linked
// says how to link one.
func AccountsShown(me, player gobot.UserID, links []*gobot.AccountLink) string {
	if len(links) == 0 {
		return "This account is linked to no other. To play as one player from Discord, Matrix and the terminal: send " + Cmd("account link") + " here, then the command it gives you from your other account."
	}
	var b strings.Builder
	b.WriteString("Your linked accounts, one player:")
	for _, l := range links {
		fmt.Fprintf(&b, "\n• %s (%s)", l.Account, platformName(l.Account.Platform()))
		if l.Account == player {
			b.WriteString(", the player's ID")
		}
		if l.Account == me {
			b.WriteString(", this one")
		}
		fmt.Fprintf(&b, ", since %s", l.Linked.Format("2006-01-02"))
	}
	b.WriteString("\n" + Cmd("account unlink") + " from one of them unlinks it.")
	return b.String()
}

// platformName is how a platform is called to a person.
func platformName(p string) string {
	switch p {
	case "discord":
		return "Discord"
	case "matrix":
		return "Matrix"
	case "console":
		return "terminal"
	}
	return p
}

// LinkOnVacation refuses account link and unlink while the player (or
// the account to link) is on vacation: a player has one vacation
// allowance, and the games it stopped must start again first.
func LinkOnVacation() error {
	return Refusef("You are on vacation: send %s first, then link or unlink. Nothing changed.", Cmd("vacation off"))
}
