#!/usr/bin/env python3
"""A deliberately bad adapter for the rig's tests.

It serves cases by passing them to a real adapter (`RIG adapter paletted`,
which answers right), except the one case named by $TOY_CASE, on which it
misbehaves as MODE says:

  wrong        answers a wrong first result
  crash        exits (code 7) without answering
  hang         never answers
  malformed    answers a line that is not JSON
  count        answers one result too few
  unsupported  answers {"unsupported": ...} for the whole case
  no-write     (any case) lists no container `write` in its handshake, and
               crashes if ever asked for one
  bad-write    (any case) answers every container `write` with its last
               byte flipped, and every storage `size` one too big
  decline-palette  (any case) answers every container `palette` unsupported,
               the ops after it as paletted does; on the named case its last
               result wrong
  twice        answers twice
  decline-set  (any case) answers the first container `set` and every op
               after it unsupported, as an adapter that cannot set does

usage: toy.py MODE RIG
"""
import json
import os
import subprocess
import sys
import time

mode, rig = sys.argv[1], sys.argv[2]
target = os.environ.get("TOY_CASE", "")
inner = subprocess.Popen([rig, "adapter", "paletted"], stdin=subprocess.PIPE,
                         stdout=subprocess.PIPE, text=True)
hello = json.loads(inner.stdout.readline())
hello["implementation"] = "toy-" + mode
# The version it claims to target (TOY_MINECRAFT), for the truth it is measured against.
hello["minecraft"] = os.environ.get("TOY_MINECRAFT", hello["minecraft"])
if mode == "no-write":
    hello["ops"]["container"].remove("write")
print(json.dumps(hello), flush=True)

for line in sys.stdin:
    case = json.loads(line)["case"]
    if mode == "no-write" and any(op["op"] == "write" for op in case["ops"]):
        sys.exit("toy: asked for a write, which the handshake does not list")
    inner.stdin.write(line)
    inner.stdin.flush()
    answer = json.loads(inner.stdout.readline())
    if mode == "decline-palette":
        for i, op in enumerate(case["ops"]):
            if case["subject"]["kind"] == "container" and op["op"] == "palette":
                answer["results"][i] = {"unsupported": "toy declines palette"}
        if case["name"] == target:
            answer["results"][-1] = {"ok": "toy"}
    if mode == "decline-set":
        sets = [i for i, op in enumerate(case["ops"])
                if case["subject"]["kind"] == "container" and op["op"] == "set"]
        for i in range(sets[0] if sets else len(case["ops"]), len(case["ops"])):
            answer["results"][i] = {"unsupported": "toy cannot set"}
    if mode == "bad-write":
        for op, result in zip(case["ops"], answer["results"]):
            if case["subject"]["kind"] == "container" and op["op"] == "write" and "ok" in result:
                result["ok"] = result["ok"][:-2] + "%02x" % (int(result["ok"][-2:], 16) ^ 0xff)
            if case["subject"]["kind"] == "storage" and op["op"] == "size":
                result["ok"] += 1
    if case["name"] == target:
        if mode == "wrong":
            answer["results"][0] = {"ok": "toy"}
        elif mode == "crash":
            sys.stderr.write("toy: crashing on " + target + "\n")
            sys.stderr.flush()
            os._exit(7)
        elif mode == "hang":
            while True:
                time.sleep(3600)
        elif mode == "malformed":
            print('{"results": [oops', flush=True)
            continue
        elif mode == "twice":
            print(json.dumps(answer), flush=True)
        elif mode == "count":
            answer["results"].pop()
        elif mode == "unsupported":
            answer = {"unsupported": "toy cannot take this case"}
    print(json.dumps(answer), flush=True)
