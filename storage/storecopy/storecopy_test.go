package storecopy

import (
	"reflect"
	"testing"
)

// Each part of an Item is one kind, and every kind has a part.
func TestItemKinds(t *testing.T) {
	typ := reflect.TypeFor[Item]()
	if typ.NumField() != len(Kinds) || len(Kinds) != int(numKinds) {
		t.Fatalf("Item has %d parts, Kinds %d, numKinds %d: one part per kind", typ.NumField(), len(Kinds), numKinds)
	}
	seen := map[Kind]string{}
	for i := range typ.NumField() {
		var it Item
		f := reflect.ValueOf(&it).Elem().Field(i)
		f.Set(reflect.New(f.Type().Elem()))
		k, err := it.Kind()
		if err != nil {
			t.Fatalf("%s: %v", typ.Field(i).Name, err)
		}
		if other, dup := seen[k]; dup {
			t.Errorf("%s and %s are both %s", typ.Field(i).Name, other, k)
		}
		seen[k] = typ.Field(i).Name
	}
	if _, err := (Item{}).Kind(); err == nil {
		t.Error("an empty item has a kind")
	}
	var tl Tally
	tl[Ratings], tl[Games] = 1, 3
	if got, want := tl.String(), "3 games, 0 challenges, 0 players, 0 rooms, 1 rating, 0 web link generations, 0 replies not yet delivered, 0 notices being sent, 0 saved platform settings, 0 handled chat events, 0 reviews, 0 tournaments, 0 ladders, 0 linked accounts, 0 account link codes, 0 joined communities"; got != want {
		t.Errorf("Tally.String() = %q, want %q", got, want)
	}
}
