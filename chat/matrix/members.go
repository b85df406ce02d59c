package matrix

import (
	"fmt"
	"sort"
	"strings"

	"maunium.net/go/mautrix/id"

	"github.com/gobotgo/gobot/chat/protocol"
)

// resolveUsers checks the user arguments of a command against the room's
// joined members (user → display name). A bare "@bob" (typed, no pill)
// becomes the member whose localpart or display name is bob; a full
// Matrix ID (typed or a pill) must be a member. It returns the text of
// the error to answer when a user cannot be resolved.
func resolveUsers(c *command, members map[id.UserID]string) string {
	if members == nil {
		return "" // the member list could not be read: leave it to the bot
	}
	for i, a := range c.Args {
		local, ok := strings.CutPrefix(a, "@")
		if !ok || local == "" {
			continue
		}
		if full, ok := strings.CutPrefix(a, "@"+Platform+":"); ok {
			u := id.UserID(full)
			if _, in := members[u]; !in {
				return fmt.Sprintf("%s is not in this room, so they can't play here: invite them first, or name someone who is here.", protocol.ClipRunes(full, 80))
			}
			continue
		}
		// A bare name: localpart or display name, case-insensitive.
		name := strings.TrimRight(local, ",;:")
		var found []id.UserID
		for u, display := range members {
			if strings.EqualFold(u.Localpart(), name) || (display != "" && strings.EqualFold(strings.TrimPrefix(display, "@"), name)) {
				found = append(found, u)
			}
		}
		switch len(found) {
		case 0:
			return fmt.Sprintf("I don't see anyone called %q in this room. Mention them (type @ and pick them from the list) or write their full Matrix ID, like @%s:example.org.", protocol.ClipRunes(name, 40), protocol.ClipRunes(name, 40))
		case 1:
			u := found[0]
			c.Args[i] = "@" + string(UserID(u))
			known := false
			for _, m := range c.Mentions {
				known = known || m.ID == UserID(u)
			}
			if !known {
				display := members[u]
				if display == "" {
					display = u.Localpart()
				}
				c.Mentions = append(c.Mentions, protocol.User{ID: UserID(u), Name: display})
			}
		default:
			ids := make([]string, len(found))
			for j, u := range found {
				ids[j] = string(u)
			}
			sort.Strings(ids)
			if len(ids) > 5 {
				ids = append(ids[:5], "…")
			}
			return fmt.Sprintf("Several people here are called %q: %s. Which one? Mention them, or write the full Matrix ID.", protocol.ClipRunes(name, 40), strings.Join(ids, ", "))
		}
	}
	return ""
}
