#!/usr/bin/env python3
"""A minimal adapter: Minecraft's SimpleBitStorage in Python, on the Python
kit (paletted_adapter.py beside it: the protocol loop). Storage subjects only;
containers are left out of the handshake, so the rig counts them unsupported."""
from paletted_adapter import Thrown, Unsupported, serve


def check(v, lo, hi):  # commons-lang3's Validate.inclusiveBetween, as Minecraft's
    if not lo <= v <= hi:
        raise Thrown("IllegalArgumentException",
                     f"The value {v} is not in the specified inclusive range of {lo} to {hi}")


def java_int(v):  # storages hand values out as Java ints
    return v - (1 << 32) if v >= 1 << 31 else v


class Storage:
    def __init__(self, subject, longs=None):
        self.bits, self.size = subject["bits"], subject["size"]
        self.per_long = 64 // self.bits if self.bits else 0
        need = -(-self.size // self.per_long) if self.bits else 0
        self.longs = list(longs) if longs is not None else [0] * need
        if self.bits and len(self.longs) != need:
            raise Thrown("InitializationException", "Invalid length given for storage, "
                         f"got: {len(self.longs)} but expected: {need}")

    def mask(self):
        return (1 << self.bits) - 1

    def at(self, i):
        word, shift = divmod(i, self.per_long)
        return word, shift * self.bits, self.longs[word] & (1 << 64) - 1

    def get(self, i):
        if not self.bits:
            return 0
        _, shift, u = self.at(i)
        return java_int((u >> shift) & self.mask())

    def put(self, i, v):
        if self.bits:
            word, shift, u = self.at(i)
            u = u & ~(self.mask() << shift) | v << shift
            self.longs[word] = u - (1 << 64) if u >= 1 << 63 else u  # a signed long again

    def run(self, op):
        kind = op["op"]
        if "index" in op:
            check(op["index"], 0, self.size - 1)
        if "value" in op:
            check(op["value"], 0, self.mask())
        if kind == "load":
            check(op["bits"], 1, 32) if op["bits"] else None
            self.__dict__ = Storage(op, op["longs"] if op["bits"] else None).__dict__
        elif kind == "get":
            return self.get(op["index"])
        elif kind == "set":
            self.put(op["index"], op["value"])
        elif kind == "get_and_set":
            old = self.get(op["index"])
            self.put(op["index"], op["value"])
            return old
        elif kind == "fill":  # one long by doubling the value, into every long
            pattern, shift = op["value"], self.bits
            while self.bits and shift < 64:
                pattern, shift = (pattern | pattern << shift) & (1 << 64) - 1, shift * 2
            self.longs = [pattern - (1 << 64) if pattern >= 1 << 63 else pattern] * len(self.longs)
        elif kind == "values":
            return [self.get(i) for i in range(self.size)]
        elif kind == "longs":
            return list(self.longs)
        elif kind in ("bits", "size"):
            return getattr(self, kind)
        else:
            raise Unsupported(f"no {kind}")
        return None


serve({"implementation": "minimal-storage", "version": "1.0", "minecraft": "26.3",
       "ops": {"storage": ["load", "get", "set", "get_and_set", "fill", "values", "longs",
                           "bits", "size"]}},
      Storage)
