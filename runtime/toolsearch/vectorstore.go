package toolsearch

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"io/fs"
	"math"
	"os"
	"path/filepath"
)

// VectorStore keeps tool vectors outside a process, by schema fingerprint,
// for an [EmbeddingCache] ([WithVectorStore]). A store holds the vectors of
// one model: vectors of two models never share a store.
type VectorStore interface {
	// Load returns the vector stored for fingerprint, and false when there
	// is none. An error says the store could not be read or holds a
	// damaged vector.
	Load(fingerprint string) ([]float32, bool, error)
	// Store keeps v as the vector of fingerprint.
	Store(fingerprint string, v []float32) error
}

// vectorMagic opens every file of a [DirVectorStore]: the format and its
// version.
const vectorMagic = "GDV1"

// DirVectorStore is a [VectorStore] in a directory: one file per vector,
// under a subdirectory named by a hash of the model, named by a hash of the
// fingerprint. A file holds "GDV1", the dimension (uint32) and the
// components (float32), little-endian. Files are written whole (a temporary
// file renamed), so an interrupted write leaves no damaged vector.
type DirVectorStore struct {
	dir string
}

var _ VectorStore = (*DirVectorStore)(nil)

// NewDirVectorStore returns the store of model's vectors under dir, creating
// its directory.
func NewDirVectorStore(dir, model string) (*DirVectorStore, error) {
	if model == "" {
		return nil, errors.New("vector store: empty model name")
	}
	sum := sha256.Sum256([]byte(model))
	d := filepath.Join(dir, hex.EncodeToString(sum[:8]))
	if err := os.MkdirAll(d, 0o755); err != nil {
		return nil, fmt.Errorf("vector store: %w", err)
	}
	return &DirVectorStore{dir: d}, nil
}

// Dir returns the directory that holds the model's vectors.
func (s *DirVectorStore) Dir() string { return s.dir }

func (s *DirVectorStore) path(fingerprint string) string {
	sum := sha256.Sum256([]byte(fingerprint))
	return filepath.Join(s.dir, hex.EncodeToString(sum[:])+".vec")
}

// Load implements [VectorStore].
func (s *DirVectorStore) Load(fingerprint string) ([]float32, bool, error) {
	p := s.path(fingerprint)
	b, err := os.ReadFile(p)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, false, nil
	}
	if err != nil {
		return nil, false, fmt.Errorf("vector store: %w", err)
	}
	v, err := decodeVector(b)
	if err != nil {
		return nil, false, fmt.Errorf("vector store: %s (fingerprint %q): %w", p, fingerprint, err)
	}
	return v, true, nil
}

// Store implements [VectorStore].
func (s *DirVectorStore) Store(fingerprint string, v []float32) error {
	p := s.path(fingerprint)
	tmp, err := os.CreateTemp(s.dir, ".vec-*")
	if err != nil {
		return fmt.Errorf("vector store: %w", err)
	}
	_, err = tmp.Write(encodeVector(v))
	if cerr := tmp.Close(); err == nil {
		err = cerr
	}
	if err == nil {
		err = os.Rename(tmp.Name(), p)
	}
	if err != nil {
		_ = os.Remove(tmp.Name()) // already gone when the rename succeeded
		return fmt.Errorf("vector store: %w", err)
	}
	return nil
}

func encodeVector(v []float32) []byte {
	b := make([]byte, 0, 8+4*len(v))
	b = append(b, vectorMagic...)
	b = binary.LittleEndian.AppendUint32(b, uint32(len(v)))
	for _, x := range v {
		b = binary.LittleEndian.AppendUint32(b, math.Float32bits(x))
	}
	return b
}

// decodeVector reads a vector file, refusing one whose header or length is
// wrong or whose components are not finite.
func decodeVector(b []byte) ([]float32, error) {
	if len(b) < 8 || string(b[:4]) != vectorMagic {
		return nil, fmt.Errorf("not a vector file (want %q and a dimension first)", vectorMagic)
	}
	dim := binary.LittleEndian.Uint32(b[4:8])
	if dim == 0 || uint64(len(b)-8) != 4*uint64(dim) {
		return nil, fmt.Errorf("%d bytes of components for dimension %d", len(b)-8, dim)
	}
	v := make([]float32, dim)
	for i := range v {
		x := math.Float32frombits(binary.LittleEndian.Uint32(b[8+4*i:]))
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return nil, fmt.Errorf("component %d is not finite", i)
		}
		v[i] = x
	}
	return v, nil
}
