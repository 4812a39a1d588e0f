package embeddedstore

// The journal: an append-only file of keyed records with group commit.
//
// A frame is a 12-byte header (key length, value length, CRC-32C of both
// lengths, key and value; little endian) followed by the key and the value.
// A frame with an empty value forgets its key; otherwise the last frame of a
// key is its value. Writers queue their frames and wait; one flusher at a
// time writes everything queued since the last flush and syncs the file
// once, then answers every writer of the batch: concurrent writers share one
// fsync, and a writer is answered only once its frames are durable. A batch
// that fails to be written or synced is cut off the file again and fails as
// a whole, so the file holds whole batches only.
//
// A crash during a flush can leave a torn batch at the end of the file. On
// open, bytes after the last whole frame are such a batch when they are no
// longer than one batch can be (maxBatchBytes); they are cut off, since none
// of their writers was answered. Anything longer is corruption, an error.
//
// The journal keeps the last frame of every live key in memory, so that it
// can compact itself: when the file has grown past twice the live frames
// (and past compactMin), the flusher writes the live frames to a new file,
// syncs it and renames it over the journal.

import (
	"bytes"
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"sync"
)

const (
	frameHeader = 12
	// maxBatchBytes bounds one flush, and so what a crash can tear.
	maxBatchBytes = 16 << 20
	// defaultCompactMin is the smallest journal compacted at run time.
	defaultCompactMin = 64 << 20
)

var castagnoli = crc32.MakeTable(crc32.Castagnoli)

// journal is an open journal file: an append-only file of keyed frames,
// written in batches that share one sync (group commit), with the last
// frame of every live key kept in memory, to answer reads and to compact
// the file when it has grown past twice what is live.
type journal struct {
	path       string
	compactMin int64

	mu       sync.Mutex
	queue    []*writer
	flushing bool
	idle     *sync.Cond // signalled when a flush ends
	broken   error      // set when the file could not be restored after a failure

	// Owned by the flusher (or the opener, before any flush).
	f         *os.File
	size      int64
	live      map[string][]byte // key: its last frame
	liveBytes int64
}

// frame is one record to append.
type frame struct {
	key   string
	value []byte // empty: forget key
}

// journalMode is the journal's file mode: it holds registration tokens and
// call results, so it is its owner's alone, as the toolset files are.
const journalMode = 0o600

// openJournal opens (creating when missing) the journal at path and
// returns it with the value of every live key. A journal that allowed more
// than its owner (journalMode) is restricted to its owner.
func openJournal(path string) (*journal, map[string][]byte, error) {
	_, statErr := os.Stat(path)
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE, journalMode)
	if err != nil {
		return nil, nil, storageError("open journal", err)
	}
	if info, err := f.Stat(); err != nil || info.Mode().Perm() != journalMode {
		if err == nil {
			err = f.Chmod(journalMode)
		}
		if err != nil {
			f.Close()
			return nil, nil, storageError("restrict journal to its owner", err)
		}
	}
	if errors.Is(statErr, fs.ErrNotExist) {
		// A new journal's directory entry must be as durable as its frames.
		if err := syncDir(filepath.Dir(path)); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	j := &journal{path: path, compactMin: defaultCompactMin, f: f, live: make(map[string][]byte)}
	j.idle = sync.NewCond(&j.mu)
	data, err := io.ReadAll(f)
	if err != nil {
		f.Close()
		return nil, nil, fmt.Errorf("registry store: read journal: %w", err)
	}
	end, err := j.replay(data)
	if err != nil {
		f.Close()
		return nil, nil, err
	}
	j.size = end
	if end < int64(len(data)) {
		// A torn batch; cutting it off needs no space.
		if err := j.cut(); err != nil {
			f.Close()
			return nil, nil, err
		}
	}
	values := make(map[string][]byte, len(j.live))
	for k, fr := range j.live {
		values[k] = fr[frameHeader+len(k):]
	}
	return j, values, nil
}

// replay indexes the frames of data and returns where the last whole frame
// ends.
func (j *journal) replay(data []byte) (int64, error) {
	var off int
	for off < len(data) {
		n, key, value, ok := decodeFrame(data[off:])
		if !ok {
			if len(data)-off > maxBatchBytes {
				return 0, fmt.Errorf("registry store: journal %s is corrupt at byte %d", j.path, off)
			}
			break
		}
		j.index(key, value, data[off:off+n])
		off += n
	}
	return int64(off), nil
}

// index records a written frame as its key's latest.
func (j *journal) index(key string, value, fr []byte) {
	if old, ok := j.live[key]; ok {
		j.liveBytes -= int64(len(old))
		delete(j.live, key)
	}
	if len(value) > 0 {
		j.live[key] = fr
		j.liveBytes += int64(len(fr))
	}
}

func encodeFrame(dst []byte, fr frame) []byte {
	var h [frameHeader]byte
	binary.LittleEndian.PutUint32(h[0:], uint32(len(fr.key)))
	binary.LittleEndian.PutUint32(h[4:], uint32(len(fr.value)))
	crc := crc32.Update(0, castagnoli, h[:8])
	crc = crc32.Update(crc, castagnoli, []byte(fr.key))
	crc = crc32.Update(crc, castagnoli, fr.value)
	binary.LittleEndian.PutUint32(h[8:], crc)
	dst = append(dst, h[:]...)
	dst = append(dst, fr.key...)
	return append(dst, fr.value...)
}

// decodeFrame decodes the frame at the start of data; ok is false when data
// does not start with a whole, intact frame.
func decodeFrame(data []byte) (n int, key string, value []byte, ok bool) {
	if len(data) < frameHeader {
		return 0, "", nil, false
	}
	kl := int(binary.LittleEndian.Uint32(data[0:]))
	vl := int(binary.LittleEndian.Uint32(data[4:]))
	if kl == 0 || kl > len(data) || vl > len(data) || frameHeader+kl+vl > len(data) {
		return 0, "", nil, false
	}
	n = frameHeader + kl + vl
	crc := crc32.Update(0, castagnoli, data[:8])
	crc = crc32.Update(crc, castagnoli, data[frameHeader:n])
	if crc != binary.LittleEndian.Uint32(data[8:]) {
		return 0, "", nil, false
	}
	return n, string(data[frameHeader : frameHeader+kl]), data[frameHeader+kl : n], true
}

// commit appends frames and returns once they are durable, or with the
// error that kept the batch they were part of from being written.
func (j *journal) commit(frames ...frame) error {
	var size int
	for _, fr := range frames {
		size += frameHeader + len(fr.key) + len(fr.value)
	}
	if size > maxBatchBytes {
		return fmt.Errorf("registry store: a change of %d bytes exceeds the journal's batch of %d bytes", size, maxBatchBytes)
	}
	w := &writer{frames: frames, size: size, done: make(chan error, 1)}
	j.mu.Lock()
	if j.broken != nil {
		j.mu.Unlock()
		return j.broken
	}
	j.queue = append(j.queue, w)
	if !j.flushing {
		j.flushing = true
		go j.flush()
	}
	j.mu.Unlock()
	return <-w.done
}

// writer is one commit waiting for its frames to be durable.
type writer struct {
	frames []frame
	size   int
	done   chan error
}

// flush writes batches until the queue is empty.
func (j *journal) flush() {
	for {
		j.mu.Lock()
		if len(j.queue) == 0 || j.broken != nil {
			for _, w := range j.queue {
				w.done <- j.broken
			}
			j.queue = nil
			j.flushing = false
			j.idle.Broadcast()
			j.mu.Unlock()
			return
		}
		batch := j.takeBatch()
		j.mu.Unlock()
		err := j.write(batch)
		for _, w := range batch {
			w.done <- err
		}
	}
}

// takeBatch takes the queued writers, up to maxBatchBytes of frames (and
// at least one writer). j.mu must be held.
func (j *journal) takeBatch() []*writer {
	var size, n int
	for n < len(j.queue) {
		size += j.queue[n].size
		if size > maxBatchBytes && n > 0 {
			break
		}
		n++
	}
	batch := j.queue[:n:n]
	j.queue = j.queue[n:]
	return batch
}

// write appends frames, syncs, and compacts when due. On failure the file
// is cut back to where it was.
func (j *journal) write(batch []*writer) error {
	var buf []byte
	for _, w := range batch {
		for _, fr := range w.frames {
			buf = encodeFrame(buf, fr)
		}
	}
	_, err := j.f.WriteAt(buf, j.size)
	if err == nil {
		err = j.f.Sync()
	}
	if err != nil {
		if cerr := j.cut(); cerr != nil {
			j.mu.Lock()
			j.broken = fmt.Errorf("registry store: journal unusable after a failed write (%w): %w", err, cerr)
			j.mu.Unlock()
		}
		return storageError("write journal", err)
	}
	off := 0
	for _, w := range batch {
		for _, fr := range w.frames {
			n := frameHeader + len(fr.key) + len(fr.value)
			j.index(fr.key, fr.value, bytes.Clone(buf[off:off+n]))
			off += n
		}
	}
	j.size += int64(len(buf))
	if j.size > j.compactMin && j.size > 2*j.liveBytes {
		j.compact()
	}
	return nil
}

// cut truncates the file to the end of its last whole batch.
func (j *journal) cut() error {
	if err := j.f.Truncate(j.size); err != nil {
		return fmt.Errorf("registry store: truncate journal: %w", err)
	}
	if err := j.f.Sync(); err != nil {
		return fmt.Errorf("registry store: sync journal: %w", err)
	}
	return nil
}

// compact rewrites the journal as its live frames. A compaction that fails
// (for want of space, typically) leaves the journal as it was, which is
// still correct; the next one is tried once the journal has grown by half.
func (j *journal) compact() {
	var buf []byte
	for _, fr := range j.live {
		buf = append(buf, fr...)
	}
	tmp := filepath.Join(filepath.Dir(j.path), tempPrefix+filepath.Base(j.path))
	f, err := writeSynced(tmp, buf)
	if err == nil {
		err = os.Rename(tmp, j.path)
		if err == nil {
			err = syncDir(filepath.Dir(j.path))
		}
	}
	if err != nil {
		_ = os.Remove(tmp)
		if f != nil {
			_ = f.Close()
		}
		j.compactMin = j.size + j.size/2
		return
	}
	_ = j.f.Close()
	j.f = f
	j.size = int64(len(buf))
	// The frames now live in buf; re-index them there.
	j.live = make(map[string][]byte, len(j.live))
	j.liveBytes = 0
	_, _ = j.replay(buf)
}

// writeSynced creates path with data, synced, and returns it open.
func writeSynced(path string, data []byte) (*os.File, error) {
	f, err := os.OpenFile(path, os.O_RDWR|os.O_CREATE|os.O_TRUNC, journalMode)
	if err != nil {
		return nil, err
	}
	if _, err := f.Write(data); err != nil {
		return f, err
	}
	if err := f.Sync(); err != nil {
		return f, err
	}
	return f, nil
}

// close waits for the flush under way and closes the file.
func (j *journal) close() error {
	j.mu.Lock()
	for j.flushing {
		j.idle.Wait()
	}
	j.broken = errors.New("registry store: journal closed")
	j.mu.Unlock()
	return j.f.Close()
}
