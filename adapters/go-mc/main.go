// Conformance adapter for go-mc (PROTOCOL.md, "Adapters"), on the Go kit:
// every op through go-mc's public level API (NewStatesPaletteContainer,
// NewBiomesPaletteContainer, NewStatesPaletteContainerWithData,
// NewBiomesPaletteContainerWithData, Get, Set, Palette, WriteTo,
// ChunkToSave; NewBitStorage, Get, Set, Swap, Len, Raw).
//
// go-mc v1.20.2 targets Minecraft 1.20.2, whose wire form carries a VarInt
// long count before the longs: the rig measures it against that form's truth
// (the chunk packets of vanilla 1.18.2 to 1.20.1 servers until recordings of
// 1.20.2's rules come back), `write` and `read` through WriteTo and ReadFrom.
package main

import (
	"bytes"
	"encoding/hex"
	"fmt"
	"os"
	"runtime/debug"
	"strings"

	"github.com/Tnze/go-mc/level"
	"github.com/Tnze/go-mc/level/biome"
	"github.com/Tnze/go-mc/level/block"
	"github.com/Tnze/go-mc/save"

	kit "paletted/adapterkit"
)

const module = "github.com/Tnze/go-mc"

func version() string {
	if info, ok := debug.ReadBuildInfo(); ok {
		for _, d := range info.Deps {
			if d.Path == module {
				return strings.TrimPrefix(d.Version, "v")
			}
		}
	}
	return "unknown"
}

type goMC struct{}

func (goMC) Handshake() map[string]any {
	return map[string]any{
		"implementation": "go-mc",
		"version":        version(),
		"minecraft":      "1.20.2",
		"ops": map[string]any{
			"container": []string{"set", "get", "bits", "palette", "write", "read", "pack", "unpack"},
			"storage":   []string{"load", "get", "set", "get_and_set", "values", "longs", "size"},
		},
		"notes": fmt.Sprintf("go-mc %s's level package. Its global widths are fixed by its own "+
			"1.20.2 registries (%d bits for blocks, %d for biomes): the case's registry size is "+
			"not used. Positions are Minecraft's index ((y << b | z) << b | x, Java int "+
			"arithmetic). `bits` is the first byte WriteTo writes; `palette` is Palette(); "+
			"`pack` is ChunkToSave of a one-section chunk, its names mapped back to ids with "+
			"go-mc's own tables, `bits` the container's width (go-mc saves its longs as they "+
			"are); `unpack` is New*PaletteContainerWithData (it takes no declared width). "+
			"`write` is WriteTo and `read` ReadFrom (the bytes consumed), the 1.20.2 wire form "+
			"with a long count; go-mc has no serialized size. go-mc reports a bad index, value or storage length by panicking: every "+
			"panic is reported as `panic`.", version(), block.BitsPerBlock, biome.BitsPerBiome),
	}
}

func (goMC) Subject(spec kit.Op) (kit.Subject, error) {
	switch spec["kind"] {
	case "container":
		initial, err := kit.Int(spec, "initial")
		if err != nil {
			return nil, err
		}
		switch spec["strategy"] {
		case "block_states":
			return &container[level.BlocksState]{blocks: true, c: level.NewStatesPaletteContainer(4096, level.BlocksState(initial))}, nil
		case "biomes":
			return &container[level.BiomesState]{c: level.NewBiomesPaletteContainer(64, level.BiomesState(initial))}, nil
		}
	case "storage":
		bits, err := kit.Int(spec, "bits")
		if err != nil {
			return nil, err
		}
		size, err := kit.Int(spec, "size")
		if err != nil {
			return nil, err
		}
		return &storage{level.NewBitStorage(int(bits), int(size), nil)}, nil
	}
	return nil, kit.NoCallf("subject %v", spec)
}

// Minecraft's index: ((y << b | z) << b) | x in Java int arithmetic.
func index(op kit.Op, b uint) (int, error) {
	var p [3]int32
	for i, f := range []string{"x", "y", "z"} {
		v, err := kit.Int(op, f)
		if err != nil {
			return 0, err
		}
		p[i] = int32(v)
	}
	return int(((p[1]<<b | p[2]) << b) | p[0]), nil
}

type container[T level.BlocksState | level.BiomesState] struct {
	blocks bool
	c      *level.PaletteContainer[T]
}

func (s *container[T]) axisBits() uint {
	if s.blocks {
		return 4
	}
	return 2
}

func (s *container[T]) Run(op kit.Op) (any, error) {
	switch op["op"] {
	case "set":
		i, err := index(op, s.axisBits())
		if err != nil {
			return nil, err
		}
		v, err := kit.Int(op, "value")
		if err != nil {
			return nil, err
		}
		s.c.Set(i, T(v))
		return nil, nil
	case "get":
		i, err := index(op, s.axisBits())
		if err != nil {
			return nil, err
		}
		return int64(s.c.Get(i)), nil
	case "bits":
		var buf bytes.Buffer
		if _, err := s.c.WriteTo(&buf); err != nil {
			return nil, err
		}
		return int64(buf.Bytes()[0]), nil
	case "palette":
		p := s.c.Palette()
		if len(p) == 0 {
			return nil, kit.NoCallf("go-mc exports no entries for a global (or empty) palette")
		}
		out := make([]int64, len(p))
		for i, v := range p {
			out[i] = int64(v)
		}
		return out, nil
	case "write":
		var buf bytes.Buffer
		if _, err := s.c.WriteTo(&buf); err != nil {
			return nil, err
		}
		return hex.EncodeToString(buf.Bytes()), nil
	case "read":
		text, ok := op["bytes"].(string)
		if !ok {
			return nil, kit.NoCallf("malformed case: no hex `bytes`")
		}
		b, err := hex.DecodeString(text)
		if err != nil {
			return nil, kit.NoCallf("malformed case: `bytes` is not hex: %v", err)
		}
		n, err := s.c.ReadFrom(bytes.NewReader(b))
		if err != nil {
			return nil, err
		}
		return n, nil
	case "pack":
		return s.pack()
	case "unpack":
		return s.unpack(op)
	}
	return nil, kit.NoCallf("go-mc has no `%v` on a PaletteContainer", op["op"])
}

// pack: ChunkToSave of a chunk whose one section holds the container, the
// saved names mapped back to ids with go-mc's tables.
func (s *container[T]) pack() (any, error) {
	sec := level.Section{
		States: level.NewStatesPaletteContainer(4096, 0),
		Biomes: level.NewBiomesPaletteContainer(64, 0),
	}
	switch c := any(s.c).(type) {
	case *level.PaletteContainer[level.BlocksState]:
		sec.States = c
	case *level.PaletteContainer[level.BiomesState]:
		sec.Biomes = c
	}
	var saved save.Chunk
	if err := level.ChunkToSave(&level.Chunk{Sections: []level.Section{sec}}, &saved); err != nil {
		return nil, err
	}
	var palette []int64
	var data []uint64
	if s.blocks {
		for _, st := range saved.Sections[0].BlockStates.Palette {
			b, ok := block.FromID[st.Name]
			if !ok {
				return nil, fmt.Errorf("go-mc saved an unknown block %q", st.Name)
			}
			if st.Properties.Data != nil {
				if err := st.Properties.Unmarshal(&b); err != nil {
					return nil, err
				}
			}
			palette = append(palette, int64(block.ToStateID[b]))
		}
		data = saved.Sections[0].BlockStates.Data
	} else {
		for _, name := range saved.Sections[0].Biomes.Palette {
			var t biome.Type
			if err := t.UnmarshalText([]byte(name)); err != nil {
				return nil, err
			}
			palette = append(palette, int64(t))
		}
		data = saved.Sections[0].Biomes.Data
	}
	bits, err := s.Run(kit.Op{"op": "bits"})
	if err != nil {
		return nil, err
	}
	var longs any
	if len(data) > 0 {
		l := make([]int64, len(data))
		for i, d := range data {
			l[i] = int64(d)
		}
		longs = l
	}
	return map[string]any{"palette": palette, "data": longs, "bits": bits}, nil
}

// unpack: the container from a saved palette and longs (no declared width:
// go-mc derives it from the number of longs).
func (s *container[T]) unpack(op kit.Op) (any, error) {
	ids, err := kit.Ints(op, "palette")
	if err != nil {
		return nil, err
	}
	longs, err := kit.Ints(op, "data")
	if err != nil {
		return nil, err
	}
	var data []uint64
	for _, l := range longs {
		data = append(data, uint64(l))
	}
	palette := make([]T, len(ids))
	for i, id := range ids {
		palette[i] = T(id)
	}
	switch c := any(palette).(type) {
	case []level.BlocksState:
		s.c = any(level.NewStatesPaletteContainerWithData(4096, data, c)).(*level.PaletteContainer[T])
	case []level.BiomesState:
		s.c = any(level.NewBiomesPaletteContainerWithData(64, data, c)).(*level.PaletteContainer[T])
	}
	return nil, nil
}

type storage struct{ s *level.BitStorage }

// Results are Java ints: a 32-bit value past 2^31 - 1 comes out negative.
func javaInt(v int) int64 { return int64(int32(uint32(v))) }

func (s *storage) Run(op kit.Op) (any, error) {
	// The op's integer fields (index, value, bits, size), as go-mc's ints.
	f := map[string]int{}
	for _, name := range []string{"index", "value", "bits", "size"} {
		if _, there := op[name]; there {
			v, err := kit.Int(op, name)
			if err != nil {
				return nil, err
			}
			f[name] = int(v)
		}
	}
	switch op["op"] {
	case "load":
		longs, err := kit.Ints(op, "longs")
		if err != nil {
			return nil, err
		}
		data := make([]uint64, len(longs))
		for i, l := range longs {
			data[i] = uint64(l)
		}
		s.s = level.NewBitStorage(f["bits"], f["size"], data)
		return nil, nil
	case "get":
		return javaInt(s.s.Get(f["index"])), nil
	case "set":
		s.s.Set(f["index"], f["value"])
		return nil, nil
	case "get_and_set":
		return javaInt(s.s.Swap(f["index"], f["value"])), nil
	case "values":
		out := make([]int64, s.s.Len())
		for i := range out {
			out[i] = javaInt(s.s.Get(i))
		}
		return out, nil
	case "longs":
		raw := s.s.Raw()
		out := make([]int64, len(raw))
		for i, l := range raw {
			out[i] = int64(l)
		}
		return out, nil
	case "size":
		return int64(s.s.Len()), nil
	case "bits":
		return nil, kit.NoCallf("go-mc's BitStorage does not expose its bits")
	case "fill":
		return nil, kit.NoCallf("go-mc's BitStorage has no fill")
	}
	return nil, kit.NoCallf("go-mc has no `%v` on a BitStorage", op["op"])
}

func main() {
	if err := kit.Serve(goMC{}); err != nil {
		fmt.Fprintln(os.Stderr, err)
		os.Exit(1)
	}
}
