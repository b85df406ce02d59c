module github.com/gobotgo/gobot/bench/rooklift

go 1.26.0

require (
	github.com/gobotgo/gobot v0.0.0
	github.com/rooklift/sgf v0.0.0-20230511200928-fc09b7bd0bfe
)

require golang.org/x/text v0.43.0 // indirect

replace github.com/gobotgo/gobot => ../..
