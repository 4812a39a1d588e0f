package service

// Catalog pages. Over HTTP a catalog is answered in pages whose records
// encode to at most registry.MaxAnswerRecordBytes (or the smaller
// WithMaxPageBytes), each with the cursor of
// the next. Every record is itself at most that large (Publish refuses
// larger ones), so a page always holds at least one record and every answer
// fits what a Client reads. A cursor names the service instance, the
// generation and the index of the page's first record, and for a
// resolution a digest of the toolsets it names: a page is served only from
// the generation the first page came from, so the pages of one read are
// one consistent catalog, and a read that a change overtakes is answered
// registry.ErrCatalogChanged and starts again.

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strconv"
	"strings"

	"github.com/goa-discovery/goa-discovery/runtime/registry"
)

// cursor is a decoded page cursor.
type cursor struct {
	instance   string
	generation uint64
	index      int
	refs       string // digest of a resolution's toolsets; "" for a list
}

func (c cursor) String() string {
	return fmt.Sprintf("%s.%d.%d.%s", c.instance, c.generation, c.index, c.refs)
}

// parseCursor reads a cursor of this service for a read of refs (""
// for a list) of the catalog of instance (catalogInstance) at generation;
// it is an *registry.Error otherwise.
func (s *Service) parseCursor(text, refs, instance string, generation uint64) (int, error) {
	parts := strings.Split(text, ".")
	if len(parts) != 4 {
		return 0, registry.Errorf(registry.CodeInvalidRequest, "cursor %q is not a page cursor of this registry", text)
	}
	gen, err1 := strconv.ParseUint(parts[1], 10, 64)
	index, err2 := strconv.Atoi(parts[2])
	switch {
	case err1 != nil || err2 != nil || index <= 0:
		return 0, registry.Errorf(registry.CodeInvalidRequest, "cursor %q is not a page cursor of this registry", text)
	case parts[0] != instance || gen != generation:
		return 0, registry.Errorf(registry.CodeCatalogChanged, "the registry changed since the first page of this read; read it again from the first page")
	case parts[3] != refs:
		return 0, registry.Errorf(registry.CodeInvalidRequest, "cursor %q belongs to a read of other toolsets", text)
	}
	return index, nil
}

// refsDigest identifies the toolsets a resolution names, in order.
func refsDigest(refs []registry.ToolsetRef) string {
	h := sha256.New()
	for _, r := range refs {
		h.Write([]byte(r.Name))
		h.Write([]byte{0})
		h.Write([]byte(r.Version))
		h.Write([]byte{0})
	}
	return hex.EncodeToString(h.Sum(nil)[:8])
}

// encodeRecords encodes each toolset.
func encodeRecords(toolsets []registry.ResolvedToolset) ([][]byte, error) {
	out := make([][]byte, len(toolsets))
	for i := range toolsets {
		b, err := json.Marshal(&toolsets[i])
		if err != nil {
			return nil, err
		}
		out[i] = b
	}
	return out, nil
}

// pageEnd returns the end of the page of records that starts at start:
// as many records as fit limit bytes, at least one.
func pageEnd(records [][]byte, start, limit int) int {
	size := 0
	end := start
	for end < len(records) {
		size += len(records[end]) + 1
		if size > limit && end > start {
			break
		}
		end++
	}
	return end
}

// pageBody encodes the page of records [start, end) of generation, with
// the cursor of the next page when end is not the last record.
func pageBody(generation uint64, records [][]byte, start, end int, next cursor) []byte {
	var b bytes.Buffer
	fmt.Fprintf(&b, `{"generation":%d,"toolsets":[`, generation)
	for i := start; i < end; i++ {
		if i > start {
			b.WriteByte(',')
		}
		b.Write(records[i])
	}
	b.WriteByte(']')
	if end < len(records) {
		next.index = end
		fmt.Fprintf(&b, `,"next":%q`, next.String())
	}
	b.WriteString("}\n")
	return b.Bytes()
}
