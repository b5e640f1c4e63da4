"""The Python adapter kit: the protocol loop of PROTOCOL.md, "Adapters", once.

An adapter gives `serve` its handshake and a function that makes a subject;
a subject's `run(op)` maps one op to the library's call and returns its value
(the `ok` result). Everything else is here: the handshake line, one answer
per request line, errors as results, exceptions caught, and no op run on a
state the implementation could not reach.

    from paletted_adapter import serve, throws, Unsupported

    class Storage:
        def __init__(self, subject): ...
        def run(self, op):            # return the value, or raise
            if op["op"] == "bits":
                return self.bits
            raise Unsupported(f"no {op['op']}")

    serve({"implementation": "mine", "version": "1.0", "minecraft": "26.3",
           "ops": {"storage": ["bits"]}}, Storage)

A subject's `run` may also return an outcome made by `ok`, `throws`, `error`
or `unsupported`, or raise `Thrown` (a Java class for the condition) or
`Unsupported`. Any other exception is the implementation's own. `errors`
(given to `serve`) is called with it and returns its outcome, used as it is:
`throws(CLASS, message)` with CLASS the Java exception Minecraft throws for
the same condition (or `error(message)` for an `unpack` that Minecraft
refuses with a DataResult error), or None to report it under its Python
class name, so it never passes for Minecraft's. It returns an outcome, not a
class name:

    def errors(e):
        if isinstance(e, IndexError):  # reading past the end
            return throws("IndexOutOfBoundsException", f"IndexError: {e}")
        return None
"""
import json
import sys

__all__ = ["serve", "ok", "throws", "error", "unsupported", "Thrown", "Unsupported",
           "run_case", "READ_ONLY"]

# Ops that leave Minecraft's subject as it was: after one of these is
# unsupported, the state is still known and later ops still run. After an
# unsupported op that changes state, every later op is unsupported.
READ_ONLY = frozenset(["get", "bits", "palette", "counts", "get_all", "maybe_has", "write",
                       "serialized_size", "pack", "values", "longs", "size"])


class Outcome(dict):
    """One op's result in PROTOCOL.md's encoding (returned as it is)."""


def ok(value=None):
    return Outcome(ok=value)


def throws(cls, message):
    """An error the implementation reported: `cls` is the Java exception
    Minecraft throws for the same condition, `message` the implementation's
    own text."""
    return Outcome(throws=cls, message=None if message is None else str(message))


def error(message):
    """A `DataResult` error (`unpack`)."""
    return Outcome(error=str(message))


def unsupported(why):
    return Outcome(unsupported=str(why))


class Thrown(Exception):
    """Raise to report `throws(cls, message)` from deep inside an op."""

    def __init__(self, cls, message):
        super().__init__(message)
        self.outcome = throws(cls, message)


class Unsupported(Exception):
    """Raise when the implementation has no call for an op (or a value)."""

    def __init__(self, why):
        super().__init__(why)
        self.outcome = unsupported(why)


def _caught(e, errors):
    if isinstance(e, (Thrown, Unsupported)):
        return e.outcome
    mapped = errors(e) if errors else None
    if mapped is not None:
        return mapped
    return throws(type(e).__name__, f"{type(e).__name__}: {e}")


def _result(value):
    return value if isinstance(value, Outcome) else ok(value)


def run_case(case, make, errors=None):
    """The answer to one case: `{"results": [...]}`, or a whole-case
    `{"unsupported": why}` when `make` raises `Unsupported`."""
    try:
        subject = make(case["subject"])
    except Unsupported as e:
        return dict(e.outcome)
    except Exception as e:  # noqa: BLE001: the implementation's own failure is a result
        first = _caught(e, errors)
        rest = unsupported("the subject could not be made")
        return {"results": [first] + [rest] * (len(case["ops"]) - 1)}
    results, after = [], None
    for op in case["ops"]:
        if after is not None:
            results.append(unsupported(after))
            continue
        try:
            outcome = _result(subject.run(op))
        except Exception as e:  # noqa: BLE001
            outcome = _caught(e, errors)
        if "unsupported" in outcome and op.get("op") not in READ_ONLY:
            after = f"after an unsupported op ({outcome['unsupported']})"
        results.append(outcome)
    return {"results": results}


def serve(handshake, make, errors=None, stdin=None, stdout=None):
    """The line loop: the handshake (`protocol` added), then one answer per
    `{"case": ...}` line until stdin closes. `errors(e)` returns the outcome
    for an implementation's own exception (`throws(...)`), or None."""
    stdin = stdin or sys.stdin
    stdout = stdout or sys.stdout
    # Library output must not reach the protocol channel.
    real, sys.stdout = stdout, sys.stderr
    try:
        print(json.dumps({"protocol": 1, **handshake}), file=real, flush=True)
        for line in stdin:
            if not line.strip():
                continue
            try:
                case = json.loads(line)["case"]
            except (ValueError, KeyError, TypeError) as e:
                answer = unsupported(f"not a JSON request: {e}")
            else:
                answer = run_case(case, make, errors)
            print(json.dumps(answer), file=real, flush=True)
    finally:
        sys.stdout = real
