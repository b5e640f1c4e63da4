#!/usr/bin/env python3
"""A minimal adapter: Minecraft's SimpleBitStorage in Python, speaking the
rig's adapter protocol (PROTOCOL.md, "Adapters"). Storage subjects only;
containers are left out of the handshake, so the rig counts them unsupported."""
import json
import sys

def out_of_range(v, lo, hi):
    return {"throws": "IllegalArgumentException",
            "message": f"The value {v} is not in the specified inclusive range of {lo} to {hi}"}

def java_int(v):  # storages hand values out as Java ints
    return v - (1 << 32) if v >= 1 << 31 else v

class Storage:
    def __init__(self, bits, size, longs=None):
        self.bits, self.size = bits, size
        self.per_long = 64 // bits if bits else 0
        need = -(-size // self.per_long) if bits else 0
        self.longs = list(longs) if longs is not None else [0] * need
        if bits and len(self.longs) != need:
            raise ValueError(f"Invalid length given for storage, got: {len(self.longs)} but expected: {need}")

    def mask(self):
        return (1 << self.bits) - 1

    def get(self, i):
        if not self.bits:
            return 0
        word, shift = divmod(i, self.per_long)
        return ((self.longs[word] & (1 << 64) - 1) >> (shift * self.bits)) & self.mask()

    def set(self, i, v):
        if not self.bits:
            return
        word, shift = divmod(i, self.per_long)
        u = self.longs[word] & (1 << 64) - 1
        u = u & ~(self.mask() << shift * self.bits) | v << shift * self.bits
        self.longs[word] = u - (1 << 64) if u >= 1 << 63 else u  # back to a signed long

def run(case):
    s = Storage(case["subject"]["bits"], case["subject"]["size"])
    results = []
    for op in case["ops"]:
        kind = op["op"]
        index_bad = "index" in op and not 0 <= op["index"] < s.size
        value_bad = "value" in op and not 0 <= op["value"] <= s.mask()
        if index_bad:
            r = out_of_range(op["index"], 0, s.size - 1)
        elif value_bad:
            r = out_of_range(op["value"], 0, s.mask())
        elif kind == "load":
            if not 0 <= op["bits"] <= 32:
                r = out_of_range(op["bits"], 1, 32)
            else:
                try:
                    s = Storage(op["bits"], op["size"], op["longs"] if op["bits"] else None)
                    r = {"ok": None}
                except ValueError as e:
                    r = {"throws": "InitializationException", "message": str(e)}
        elif kind == "get":
            r = {"ok": java_int(s.get(op["index"]))}
        elif kind == "set":
            s.set(op["index"], op["value"])
            r = {"ok": None}
        elif kind == "get_and_set":
            r = {"ok": java_int(s.get(op["index"]))}
            s.set(op["index"], op["value"])
        elif kind == "fill":  # one long by doubling the value, into every long
            pattern, shift = op["value"], s.bits
            while s.bits and shift < 64:
                pattern, shift = (pattern | pattern << shift) & (1 << 64) - 1, shift * 2
            signed = pattern - (1 << 64) if pattern >= 1 << 63 else pattern
            s.longs = [signed] * len(s.longs)
            r = {"ok": None}
        elif kind == "values":
            r = {"ok": [java_int(s.get(i)) for i in range(s.size)]}
        elif kind == "longs":
            r = {"ok": list(s.longs)}
        elif kind == "bits":
            r = {"ok": s.bits}
        elif kind == "size":
            r = {"ok": s.size}
        results.append(r)
    return results

print(json.dumps({"protocol": 1, "implementation": "minimal-storage", "version": "1.0",
                  "minecraft": "26.3",
                  "ops": {"storage": ["load", "get", "set", "get_and_set", "fill",
                                      "values", "longs", "bits", "size"]}}), flush=True)
for line in sys.stdin:
    print(json.dumps({"results": run(json.loads(line)["case"])}), flush=True)
