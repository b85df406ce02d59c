package say

import (
	"strings"
	"testing"

	"github.com/gobotgo/gobot"
	"github.com/gobotgo/gobot/chat/protocol"
)

// Every refusal of the account command is short, even naming the
// longest account.
func TestAccountRefusalsShort(t *testing.T) {
	long := gobot.UserID("matrix:@" + strings.Repeat("a", 240) + ":example.org")
	for _, err := range []error{AccountPrivate(), AccountUsage(), TooManyLiveCodes(3), TooManyCodesToday(10),
		BadLinkCode(10), NoLinkCode(), LinkCodeUsed(), LinkCodeExpired(), OwnLinkCode(), AlreadyLinked(true),
		AlreadyLinked(false), SamePlatform("matrix", long), NotLinked()} {
		if n := len(err.Error()); n > protocol.MaxRefusal {
			t.Errorf("%d bytes: %s", n, err)
		}
	}
}
