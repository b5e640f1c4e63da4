#!/usr/bin/env python3
"""Dev tool: run an adapter (ADAPTER-PROTOCOL.md) over cases/ops and compare
its results with snapshots/, the way the rig will. Not the rig: no shrinking,
no report file; it exists so adapters can be tested before `rig check
--executor` lands.

    adapters/run-cases.py 'node adapters/prismarine-chunk/adapter.js' [PATHS] [--kinds N] [--json FILE]

Prints per family: passed, failed, unsupported; then one example of each kind
of first divergence. Exit 0 unless the adapter itself misbehaved (bad
handshake, a dying or hanging adapter, malformed lines).
"""

import argparse
import collections
import json
import os
import select
import subprocess
import sys

# Messages these classes carry are built by third-party libraries (netty,
# commons-lang3, the JDK): compare the class only (PROTOCOL.md, Comparison).
THIRD_PARTY = {"IllegalArgumentException", "IndexOutOfBoundsException",
               "ArrayIndexOutOfBoundsException"}
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def same(want, got):
    if "throws" in want and "throws" in got:
        if want["throws"] != got["throws"]:
            return False
        return want["throws"] in THIRD_PARTY or want.get("message") == got.get("message")
    return want == got


def kind_of(outcome):
    keys = ("ok", "error", "throws", "unsupported", "adapter_error")
    return next((k for k in keys if isinstance(outcome, dict) and k in outcome), repr(outcome))


class Adapter:
    def __init__(self, cmd, timeout):
        self.cmd, self.timeout, self.proc, self.buf = cmd, timeout, None, b""
        self.handshake = None

    def start(self):
        self.proc = subprocess.Popen(["sh", "-c", self.cmd], stdin=subprocess.PIPE,
                                     stdout=subprocess.PIPE, bufsize=0)
        self.buf = b""
        line = self.readline()
        hs = json.loads(line)
        if hs.get("protocol") != 1 or "ops" not in hs:
            raise RuntimeError(f"bad handshake: {line!r}")
        self.handshake = hs

    def readline(self):
        while b"\n" not in self.buf:
            ready, _, _ = select.select([self.proc.stdout], [], [], self.timeout)
            if not ready:
                raise TimeoutError(f"no answer within {self.timeout}s")
            chunk = os.read(self.proc.stdout.fileno(), 1 << 20)
            if not chunk:
                raise EOFError(f"adapter exited ({self.proc.wait()})")
            self.buf += chunk
        line, self.buf = self.buf.split(b"\n", 1)
        return line.decode()

    def run(self, case):
        self.proc.stdin.write((json.dumps({"case": case}) + "\n").encode())
        self.proc.stdin.flush()
        return json.loads(self.readline())

    def stop(self):
        if self.proc and self.proc.poll() is None:
            self.proc.kill()
            self.proc.wait()


def cases(paths):
    for p in paths:
        if os.path.isfile(p):
            yield p
            continue
        for d, _, files in sorted(os.walk(p)):
            for f in sorted(files):
                if f.endswith(".json"):
                    yield os.path.join(d, f)


def snapshot(name):
    path = os.path.join(ROOT, "snapshots", name + ".snap")
    if not os.path.exists(path):
        return None
    body = open(path).read().split("\n---\n", 1)[1]
    return [json.loads(line) for line in body.splitlines() if line.strip()]


def verdict(case, want, got, supported):
    """('pass'|'fail'|'unsupported', op index or None, got outcome)."""
    kind = case["subject"]["kind"]
    if "unsupported" in got and "results" not in got:
        return "unsupported", None, got
    results = got.get("results")
    if not isinstance(results, list) or len(results) != len(case["ops"]):
        return "fail", None, {"adapter_error": f"wrong number of results: {got!r}"[:300]}
    for i, (op, w, g) in enumerate(zip(case["ops"], want, results)):
        if op["op"] not in supported.get(kind, []) or "unsupported" in g:
            return "unsupported", i, g
        if not same(w, g):
            return "fail", i, g
    return "pass", None, None


def later(case, want, got, start):
    """The first divergence past an unsupported op, among the ops the adapter
    still ran (not counted: evidence for FINDINGS, not a verdict)."""
    results = got.get("results") or []
    for i in range(start + 1, len(results)):
        if "unsupported" in results[i]:
            continue
        if not same(want[i], results[i]):
            return i
    return None


def main():
    ap = argparse.ArgumentParser()
    ap.add_argument("cmd")
    ap.add_argument("paths", nargs="*")
    ap.add_argument("--timeout", type=float, default=30)
    ap.add_argument("--kinds", type=int, default=40, help="divergence kinds to print")
    ap.add_argument("--json", help="write every verdict here")
    args = ap.parse_args()
    paths = args.paths or [os.path.join(ROOT, "cases", "ops")]
    adapter = Adapter(args.cmd, args.timeout)
    adapter.start()
    hs = adapter.handshake
    print(f"{hs['implementation']} {hs['version']} (Minecraft {hs['minecraft']})")
    tally = collections.defaultdict(collections.Counter)
    kinds, unsupported_why, rows, broken, hidden = {}, collections.Counter(), [], 0, 0
    for path in cases(paths):
        case = json.load(open(path))
        name = case["name"]
        want = snapshot(name)
        if want is None:
            continue
        family = name.split("/")[0]
        try:
            got = adapter.run({k: case[k] for k in ("format", "name", "subject", "ops") if k in case})
            v, i, g = verdict(case, want, got, hs["ops"])
        except (TimeoutError, EOFError, json.JSONDecodeError, BrokenPipeError) as e:
            broken += 1
            print(f"{name}: adapter failed: {e}; restarting", file=sys.stderr)
            adapter.stop()
            adapter.start()
            v, i, g = "fail", None, {"adapter_error": str(e)}
        tally[family][v] += 1
        # Ops compared: every op of a pass, up to the divergence of a failure,
        # those before the first unsupported one.
        tally[family]["ops"] += len(case["ops"]) if v == "pass" else (i or 0) + (v == "fail" and i is not None)
        rows.append({"case": name, "verdict": v, "op": i, "got": g,
                     "want": want[i] if i is not None else None})
        if v == "unsupported":
            unsupported_why[json.dumps(g)[:160]] += 1
            j = later(case, want, got, i) if i is not None else None
            if j is not None:
                v, i, g = "later", j, got["results"][j]
                hidden += 1
                rows[-1].update(later_op=j, later_got=g, later_want=want[j])
        if v in ("fail", "later"):
            op = case["ops"][i]["op"] if i is not None else "-"
            w = want[i] if i is not None else None
            key = (v, op, kind_of(w), kind_of(g), (g or {}).get("throws") if isinstance(g, dict) else None)
            kinds.setdefault(key, []).append((name, i, case["ops"][i] if i is not None else None, w, g))
    adapter.stop()
    total = collections.Counter()
    print(f"{'family':16} {'pass':>5} {'fail':>5} {'unsup':>5} {'ops compared':>12}")
    for fam in sorted(tally):
        t = tally[fam]
        total.update(t)
        print(f"{fam:16} {t['pass']:5} {t['fail']:5} {t['unsupported']:5} {t['ops']:12}")
    print(f"{'total':16} {total['pass']:5} {total['fail']:5} {total['unsupported']:5} {total['ops']:12}")
    print("\nunsupported, by reason:")
    for why, n in unsupported_why.most_common(12):
        print(f"  {n:5}  {why}")
    print(f"\nfirst divergences, by kind (fail, or `later`: past an unsupported op in {hidden}"
          " unsupported cases, not counted; op, recorded, got):")
    for key, hits in sorted(kinds.items(), key=lambda kv: -len(kv[1]))[: args.kinds]:
        name, i, op, w, g = hits[0]
        print(f"  {len(hits):4} x {key}: e.g. {name} op {i} {json.dumps(op)[:120]}")
        print(f"         recorded {json.dumps(w)[:200]}")
        print(f"         got      {json.dumps(g)[:200]}")
    if args.json:
        with open(args.json, "w") as f:
            json.dump({"handshake": hs, "rows": rows}, f)
    print(f"\n{total['pass']} passed, {total['fail']} failed, {total['unsupported']} unsupported")
    sys.exit(1 if broken else 0)


if __name__ == "__main__":
    main()
