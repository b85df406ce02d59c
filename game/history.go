package game

// history is the set of positions a game has reached, by Zobrist hash,
// each with who reached it (seenAny, seenBlack, seenWhite bits), or with
// how often it was reached (the cycle count): what superko and the cycle
// rule ask after every move. It is a hash table with open addressing and
// linear probing; the hashes are uniformly random already, so their low
// bits index it directly. A replay adds one position per move, and this
// is several times faster than a Go map, which hashes the hash again and
// grows in more steps.
type history struct {
	keys []uint64
	vals []uint8 // 0: the slot is free (every position stored has a value)
	n    int     // slots in use; at most half of them
}

// newHistory returns a history with room for about n positions before it
// grows.
func newHistory(n int) history {
	size := 16
	for size < 2*n {
		size *= 2
	}
	return history{keys: make([]uint64, size), vals: make([]uint8, size)}
}

// get returns the value stored for key, 0 when the position is new.
func (h *history) get(key uint64) uint8 {
	if len(h.keys) == 0 { // a game whose history went on in another
		return 0
	}
	mask := uint64(len(h.keys) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		if h.vals[i] == 0 || h.keys[i] == key {
			return h.vals[i]
		}
	}
}

// slot returns the slot of key, making it (with value 0) when key is new.
func (h *history) slot(key uint64) uint64 {
	mask := uint64(len(h.keys) - 1)
	for i := key & mask; ; i = (i + 1) & mask {
		if h.vals[i] == 0 {
			if 2*(h.n+1) > len(h.keys) {
				h.grow()
				return h.slot(key)
			}
			h.n++
			h.keys[i] = key
			return i
		}
		if h.keys[i] == key {
			return i
		}
	}
}

// add sets bits (not 0) in the value of key.
func (h *history) add(key uint64, bits uint8) { h.vals[h.slot(key)] |= bits }

// set stores v (not 0) for key.
func (h *history) set(key uint64, v uint8) { h.vals[h.slot(key)] = v }

// inc adds one to the count stored for key and returns it; a count stops
// at 255.
func (h *history) inc(key uint64) uint8 {
	i := h.slot(key)
	if h.vals[i] < 255 {
		h.vals[i]++
	}
	return h.vals[i]
}

func (h *history) grow() {
	keys, vals := h.keys, h.vals
	h.keys, h.vals = make([]uint64, 2*len(keys)), make([]uint8, 2*len(keys))
	mask := uint64(len(h.keys) - 1)
	for j, v := range vals {
		if v == 0 {
			continue
		}
		i := keys[j] & mask
		for h.vals[i] != 0 {
			i = (i + 1) & mask
		}
		h.keys[i], h.vals[i] = keys[j], v
	}
}
