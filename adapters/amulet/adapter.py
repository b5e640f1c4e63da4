#!/usr/bin/env python3
"""Conformance adapter for Amulet (amulet-core), on the Python kit: the disk
form of a section, through Amulet's Anvil chunk interface for Minecraft 26.3's
data version (`Anvil5013Interface.decode` / `encode`, `Chunk.get_block` /
`set_block`, its `biomes` and `biome_palette`) and its long-array codec
(`amulet.utils.world_utils.decode_long_array` / `encode_long_array`).

Amulet holds blocks by name, not by registry id: id N is the block
`paletted:sN` (a biome, `paletted:bN`), so ids go in and come out unchanged.
A subject is a one-section chunk decoded from a single-value section of its
initial value, as Amulet reads a saved chunk; `unpack` decodes the section the
case gives, `pack` encodes the chunk back and reads the section's palette and
longs. Amulet has no wire form, no in-memory palette per section, no counts.
"""
import os
import sys

# Amulet's decoder sorts a chunk's palette by the blocks' string hashes (numpy.unique over
# Block, whose ordering is hash()), so its saved palette order follows Python's hash seed.
# One fixed seed keeps results reproducible; FINDINGS.md shows the spread across seeds.
if os.environ.get("PYTHONHASHSEED") is None:
    os.environ["PYTHONHASHSEED"] = "0"
    os.execv(sys.executable, [sys.executable, *sys.argv])

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kits", "python"))

from paletted_adapter import Thrown, Unsupported, error, serve  # noqa: E402

import numpy  # noqa: E402
from amulet.api.block import Block  # noqa: E402
from amulet.api.registry import BlockManager  # noqa: E402
from amulet.level.interfaces.chunk.anvil.anvil_5013 import Anvil5013Interface  # noqa: E402
from amulet.utils.world_utils import decode_long_array, encode_long_array  # noqa: E402
from amulet_nbt import (ByteTag, CompoundTag, IntTag, ListTag, LongArrayTag,  # noqa: E402
                        NamedTag, StringTag)

DATA_VERSION = 5023  # Minecraft 26.3
INTERFACE = Anvil5013Interface()
PREFIX = {"block_states": "paletted:s", "biomes": "paletted:b"}
AXIS = {"block_states": 16, "biomes": 4}


def name(strategy, value):
    return f"{PREFIX[strategy]}{value}"


def id_of(strategy, text):
    if not text.startswith(PREFIX[strategy]):
        raise Thrown("NoRegistryId", f"Amulet holds {text}, which no id of the case names")
    return int(text[len(PREFIX[strategy]):])


def section_nbt(strategy, palette, data):
    """A saved section: `palette` ids as names, `data` longs (or absent)."""
    container = CompoundTag({"palette": ListTag([StringTag(name(strategy, v)) for v in palette])})
    if data is not None:
        container["data"] = LongArrayTag(data)
    other = "biomes" if strategy == "block_states" else "block_states"
    return CompoundTag({"Y": ByteTag(0), strategy: container, other: CompoundTag(
        {"palette": ListTag([StringTag(name(other, 0))])})})


def decode(strategy, palette, data):
    root = CompoundTag({"DataVersion": IntTag(DATA_VERSION), "xPos": IntTag(0), "zPos": IntTag(0),
                        "yPos": IntTag(0), "Status": StringTag("minecraft:full"),
                        "sections": ListTag([section_nbt(strategy, palette, data)])})
    chunk, blocks = INTERFACE.decode(0, 0, {"region": NamedTag(root)}, (0, 16))
    # As Amulet's level does with a decoded chunk: its palette becomes the chunk's.
    chunk.block_palette = BlockManager(blocks)
    return chunk


def java_int(v):
    v = int(v) & 0xFFFFFFFF
    return v - (1 << 32) if v >= 1 << 31 else v


class Container:
    def __init__(self, subject):
        self.strategy = subject["strategy"]
        self.chunk = decode(self.strategy, [subject["initial"]], None)

    def position(self, op):
        x, y, z = op["x"], op["y"], op["z"]
        n = AXIS[self.strategy]
        if not all(0 <= c < n for c in (x, y, z)):
            raise Unsupported(f"Amulet addresses a section by coordinates 0..{n - 1}")
        return x, y, z

    def run(self, op):
        kind, chunk, s = op["op"], self.chunk, self.strategy
        if kind == "get":
            x, y, z = self.position(op)
            if s == "block_states":
                return id_of(s, chunk.get_block(x, y, z).namespaced_name)
            return id_of(s, chunk.biome_palette[chunk.biomes.get_section(0)[x, y, z]])
        if kind == "set":
            x, y, z = self.position(op)
            if s == "block_states":
                namespace, base = name(s, op["value"]).split(":")
                chunk.set_block(x, y, z, Block(namespace, base))
            else:
                chunk.biomes.get_section(0)[x, y, z] = chunk.biome_palette.get_add_biome(
                    name(s, op["value"]))
            return None
        if kind == "unpack":
            try:
                self.chunk = decode(s, op["palette"], op["data"])
            except Exception as e:  # noqa: BLE001
                if "long array" in str(e):  # its length check: Minecraft's DataResult error
                    return error(f"{type(e).__name__}: {e}")
                raise
            return None
        if kind == "pack":
            data = INTERFACE.encode(chunk, numpy.array(chunk.block_palette.blocks, dtype=object),
                                    ("java", DATA_VERSION), (0, 16))
            saved = data["region"].compound.get_list("sections")[0][s]
            palette = [id_of(s, t.py_str) for t in saved.get_list("palette")]
            longs = saved.get("data")
            # The disk form has no width: give the one Amulet's own decoder reads at.
            least = 4 if s == "block_states" else 1
            bits = max(least, (len(palette) - 1).bit_length()) if longs is not None else 0
            return {"palette": palette, "data": None if longs is None else [int(v) for v in longs.np_array],
                    "bits": bits}
        raise Unsupported(f"Amulet has no `{kind}` for a section")


class Storage:
    """Amulet's long-array codec (not dense: one value never spans two longs)."""

    def __init__(self, subject):
        self.bits = subject["bits"]
        self.values = numpy.zeros(subject["size"], dtype=numpy.uint32)

    def run(self, op):
        kind = op["op"]
        if kind == "load":
            longs = numpy.array(op["longs"], dtype=">q")
            self.values = decode_long_array(longs, op["size"], op["bits"], dense=False)
            self.bits = op["bits"]
            return None
        if kind == "values":
            return [java_int(v) for v in self.values]
        if kind == "longs":
            return [int(v) for v in encode_long_array(self.values, self.bits, dense=False)]
        raise Unsupported(f"Amulet's long-array codec has no `{kind}`")


def subject(spec):
    return Container(spec) if spec["kind"] == "container" else Storage(spec)


def version():
    from importlib.metadata import version as installed
    return installed("amulet-core")


serve({"implementation": "amulet", "version": version(), "minecraft": "26.3",
       "ops": {"container": ["set", "get", "pack", "unpack"], "storage": ["load", "values", "longs"]},
       "notes": f"amulet-core {version()}: the Anvil chunk interface for data version {DATA_VERSION} "
                "(Anvil5013Interface.decode / encode of a one-section chunk; ids as names "
                "paletted:sN / paletted:bN) and decode_long_array / encode_long_array (not dense) "
                "for storage subjects. Positions are coordinates inside the section (others "
                "unsupported). pack's bits is the width Amulet's decoder reads those longs at; "
                "unpack cannot pass a declared width. A long-array length error of unpack is its "
                "DataResult error; other exceptions keep their Python class. Run with "
                f"PYTHONHASHSEED={os.environ['PYTHONHASHSEED']} (Amulet's block palette order "
                "follows the hash seed)."},
      subject)
