#!/usr/bin/env python3
"""Conformance adapter for anvil-parser2 (PyPI), on the Python kit: a saved section read
through anvil-parser2's chunk reader (`anvil.Chunk`, `get_block`, `get_biome`).

anvil-parser2 reads saved chunks; it has no container to change. A subject is a one-section
chunk as Minecraft saves it (DataVersion, `sections` with `Y`, `block_states` and `biomes`:
a palette and a `data` long array, absent for a one-entry palette), written to NBT bytes and
read back as a region's chunk is (`nbt.NBTFile` over the bytes, then `anvil.Chunk`). `unpack`
is that reading of the case's palette and longs; `get` is `get_block(x, y, z)` or, for
biomes, `get_biome(4x, 4y, 4z)` (it takes block coordinates in the chunk and divides them by
4). Positions outside the section are unsupported: the reader addresses the whole chunk
column, where they are other sections.

Ids are names: id N is the block `paletted:sN` (a biome, `paletted:bN`), so they go in and
come out unchanged; a name that is none of the case's (the `minecraft:air` the reader gives
for a section it finds no data in) is reported as `NoRegistryId`.
"""
import os
import sys
from io import BytesIO

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), "..", "kits", "python"))

from paletted_adapter import Thrown, Unsupported, serve  # noqa: E402

import anvil  # noqa: E402
from nbt import nbt  # noqa: E402

# 26.3's DataVersion. anvil-parser2 takes one path for every DataVersion from 2844 (21w43a,
# where chunks lost their `Level` tag) on, so a section of any recorded version (1.18.2 on)
# reads alike.
DATA_VERSION = 5023
# `--in-memory`: hand anvil.Chunk the tag tree as built, without the trip through bytes, as a
# program that builds or converts a chunk in memory does (FINDINGS.md: the negative-long
# crash is reached only this way). The grid runs the default: bytes, as a region gives them.
IN_MEMORY = "--in-memory" in sys.argv[1:]
PREFIX = {"block_states": "paletted:s", "biomes": "paletted:b"}
AXIS = {"block_states": 16, "biomes": 4}


def name(strategy, value):
    return f"{PREFIX[strategy]}{value}"


def id_of(strategy, text):
    if not text.startswith(PREFIX[strategy]):
        raise Thrown("NoRegistryId", f"anvil-parser2 gave {text}, which no id of the case names")
    return int(text[len(PREFIX[strategy]):])


def container(strategy, palette, data):
    """A saved container: `palette` ids as names, `data` longs (or absent)."""
    tag = nbt.TAG_Compound()
    if strategy == "block_states":
        entries = nbt.TAG_List(type=nbt.TAG_Compound)
        for v in palette:
            entry = nbt.TAG_Compound()
            entry["Name"] = nbt.TAG_String(name(strategy, v))
            entries.append(entry)
    else:
        entries = nbt.TAG_List(type=nbt.TAG_String)
        for v in palette:
            entries.append(nbt.TAG_String(name(strategy, v)))
    tag["palette"] = entries
    if data is not None:
        longs = nbt.TAG_Long_Array()
        # `import anvil` makes nbt write and read long arrays as unsigned (it replaces
        # TAG_Long_Array.update_fmt), so the same 64 bits go in as an unsigned value;
        # IN_MEMORY keeps Minecraft's signed longs, as a tag built in memory holds them.
        longs.value = [v if IN_MEMORY else v & (1 << 64) - 1 for v in data]
        tag["data"] = longs
    return tag


def read(strategy, palette, data):
    """anvil-parser2's chunk over the saved bytes of a one-section chunk holding the
    container (the other one single-valued, of id 0)."""
    other = "biomes" if strategy == "block_states" else "block_states"
    section = nbt.TAG_Compound()
    section["Y"] = nbt.TAG_Byte(0)
    section[strategy] = container(strategy, palette, data)
    section[other] = container(other, [0], None)
    sections = nbt.TAG_List(type=nbt.TAG_Compound)
    sections.append(section)
    root = nbt.NBTFile()
    root.name = ""
    root["DataVersion"] = nbt.TAG_Int(DATA_VERSION)
    root["xPos"] = nbt.TAG_Int(0)
    root["zPos"] = nbt.TAG_Int(0)
    root["yPos"] = nbt.TAG_Int(0)
    root["Status"] = nbt.TAG_String("minecraft:full")
    root["sections"] = sections
    root["block_entities"] = nbt.TAG_List(type=nbt.TAG_Compound)
    if IN_MEMORY:
        return anvil.Chunk(root)
    out = BytesIO()
    root.write_file(buffer=out)
    return anvil.Chunk(nbt.NBTFile(buffer=BytesIO(out.getvalue())))


class Container:
    def __init__(self, subject):
        self.strategy = subject["strategy"]
        # A new container as Minecraft saves it: one palette entry, no data.
        self.chunk = read(self.strategy, [subject["initial"]], None)

    def run(self, op):
        kind, s = op["op"], self.strategy
        if kind == "get":
            x, y, z = op["x"], op["y"], op["z"]
            n = AXIS[s]
            if not all(0 <= c < n for c in (x, y, z)):
                raise Unsupported(f"anvil-parser2 addresses a chunk column: a position outside "
                                  f"the section's 0..{n - 1} is another section's")
            if s == "block_states":
                return id_of(s, self.chunk.get_block(x, y, z).name())
            return id_of(s, self.chunk.get_biome(4 * x, 4 * y, 4 * z).name())
        if kind == "unpack":
            # A saved section has no declared width: `bits` cannot be passed.
            self.chunk = read(s, op["palette"], op["data"])
            return None
        raise Unsupported(f"anvil-parser2 reads saved chunks: it has no `{kind}`")


def subject(spec):
    if spec["kind"] != "container":
        raise Unsupported("anvil-parser2 has no bit storage in its API")
    return Container(spec)


def version():
    from importlib.metadata import version as installed
    return installed("anvil-parser2")


serve({"implementation": "anvil-parser2", "version": version(), "minecraft": "26.3",
       "ops": {"container": ["get", "unpack"]},
       "notes": f"anvil-parser2 {version()}: a one-section chunk of DataVersion {DATA_VERSION} "
                "(ids as names paletted:sN / paletted:bN), " + (
                    "handed to anvil.Chunk as built in memory (--in-memory: signed longs)"
                    if IN_MEMORY else "saved to NBT bytes and read back as anvil.Chunk") + "; unpack is that reading (it takes no declared width), get is "
                "get_block(x, y, z) or get_biome(4x, 4y, 4z). A subject is the saved form of a "
                "single-value container of its initial value (a one-entry palette, no data). "
                "It reads every section from 21w43a (1.18) on alike; it is measured at 26.3, "
                "the newest saved form. Positions outside the section are unsupported; "
                "exceptions keep their Python class."},
      subject)
