package toolsearch

import "hash/maphash"

// dictionary numbers distinct strings in the order they are first added and
// finds them again, from a string while building and from bytes while
// searching (without allocating). It is an open-addressing hash table with
// linear probing over the runtime's seeded hash, so that a hostile catalog
// cannot force collisions.
type dictionary struct {
	seed   maphash.Seed
	slots  []int32 // id+1 of the string hashed to each slot; 0 when empty
	keys   []string
	hashes []uint64 // hash of each key, to skip most string comparisons
}

func newDictionary(capacity int) dictionary {
	size := 16
	for size < 2*capacity {
		size *= 2
	}
	return dictionary{
		seed:   maphash.MakeSeed(),
		slots:  make([]int32, size),
		keys:   make([]string, 0, capacity),
		hashes: make([]uint64, 0, capacity),
	}
}

// add returns the id of key, adding it when it is new.
func (d *dictionary) add(key string) (id int32, added bool) {
	h := maphash.String(d.seed, key)
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := d.slots[i]
		if slot == 0 {
			return d.insert(i, h, key), true
		}
		if d.hashes[slot-1] == h && d.keys[slot-1] == key {
			return slot - 1, false
		}
	}
}

// addBytes is add for the string key spells; it copies key only when it is
// new.
func (d *dictionary) addBytes(key []byte) (id int32, added bool) {
	h := maphash.Bytes(d.seed, key)
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := d.slots[i]
		if slot == 0 {
			return d.insert(i, h, string(key)), true
		}
		if d.hashes[slot-1] == h && d.keys[slot-1] == string(key) {
			return slot - 1, false
		}
	}
}

// insert adds key, with hash h, in the empty slot i and returns its id.
func (d *dictionary) insert(i, h uint64, key string) int32 {
	id := int32(len(d.keys))
	d.slots[i] = id + 1
	d.keys = append(d.keys, key)
	d.hashes = append(d.hashes, h)
	if 2*len(d.keys) > len(d.slots) {
		d.grow()
	}
	return id
}

// lookup returns the id of the string key spells.
func (d *dictionary) lookup(key []byte) (int32, bool) {
	if len(d.slots) == 0 {
		return 0, false // the zero dictionary
	}
	h := maphash.Bytes(d.seed, key)
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := d.slots[i]
		if slot == 0 {
			return 0, false
		}
		if d.hashes[slot-1] == h && d.keys[slot-1] == string(key) {
			return slot - 1, true
		}
	}
}

// lookupString returns the id of key.
func (d *dictionary) lookupString(key string) (int32, bool) {
	if len(d.slots) == 0 {
		return 0, false // the zero dictionary
	}
	h := maphash.String(d.seed, key)
	mask := uint64(len(d.slots) - 1)
	for i := h & mask; ; i = (i + 1) & mask {
		slot := d.slots[i]
		if slot == 0 {
			return 0, false
		}
		if d.hashes[slot-1] == h && d.keys[slot-1] == key {
			return slot - 1, true
		}
	}
}

// grow doubles the table and places every key again.
func (d *dictionary) grow() {
	d.slots = make([]int32, 2*len(d.slots))
	mask := uint64(len(d.slots) - 1)
	for id, h := range d.hashes {
		i := h & mask
		for d.slots[i] != 0 {
			i = (i + 1) & mask
		}
		d.slots[i] = int32(id) + 1
	}
}

// len returns the number of distinct keys.
func (d *dictionary) len() int { return len(d.keys) }
