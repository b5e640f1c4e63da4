"""The Python kit's loop, on a toy subject: `python3 -m unittest` here."""
import io
import json
import unittest

from paletted_adapter import Thrown, Unsupported, error, serve

HANDSHAKE = {"implementation": "toy", "version": "0", "minecraft": "26.3",
             "ops": {"storage": ["get", "set", "size"]}}


class Toy:
    def __init__(self, subject):
        if subject["kind"] == "container":
            raise Unsupported("no containers")
        if subject["size"] < 0:
            raise ValueError("negative size")
        self.size = subject["size"]

    def run(self, op):
        kind = op["op"]
        if kind == "size":
            return self.size
        if kind == "get":
            if op["index"] >= self.size:
                raise Thrown("IllegalArgumentException", f"index {op['index']}")
            return [1, None][op["index"] % 2]
        if kind == "set":
            raise KeyError(op["index"])
        if kind == "unpack":
            return error("Missing values")
        if kind == "boom":
            raise ZeroDivisionError("division by zero")
        raise Unsupported(f"no {kind}")


def named(e):  # the errors hook: KeyError is this toy's range check
    return {"throws": "IndexOutOfBoundsException", "message": repr(e)} if isinstance(e, KeyError) else None


def exchange(*cases):
    lines = [json.dumps({"case": c}) for c in cases]
    out = io.StringIO()
    serve(HANDSHAKE, Toy, named, io.StringIO("\n".join(["", *lines, "not json", ""])), out)
    return [json.loads(line) for line in out.getvalue().splitlines()]


def storage(size, *ops):
    return {"format": 1, "name": "t", "subject": {"kind": "storage", "bits": 1, "size": size},
            "ops": [dict(op=o[0], **o[1]) for o in ops]}


class Loop(unittest.TestCase):
    def test_the_handshake_comes_first_with_the_protocol(self):
        self.assertEqual(exchange()[0], {"protocol": 1, **HANDSHAKE})

    def test_each_op_gives_its_value_error_or_exception(self):
        [_, answer, bad] = exchange(storage(
            4, ("size", {}), ("get", {"index": 1}), ("get", {"index": 9}), ("set", {"index": 2}),
            ("boom", {}), ("unpack", {})))
        self.assertEqual(answer["results"], [
            {"ok": 4}, {"ok": None},
            {"throws": "IllegalArgumentException", "message": "index 9"},
            {"throws": "IndexOutOfBoundsException", "message": "KeyError(2)"},
            {"throws": "ZeroDivisionError", "message": "ZeroDivisionError: division by zero"},
            {"error": "Missing values"}])
        self.assertIn("unsupported", bad)

    def test_only_an_unsupported_state_change_stops_the_case(self):
        [_, answer, _] = exchange(storage(
            4, ("counts", {}), ("size", {}), ("fill", {"value": 0}), ("size", {})))
        self.assertEqual(answer["results"], [
            {"unsupported": "no counts"}, {"ok": 4}, {"unsupported": "no fill"},
            {"unsupported": "after an unsupported op (no fill)"}])

    def test_a_subject_it_cannot_make_is_a_result(self):
        container = {"format": 1, "name": "c", "subject": {"kind": "container"}, "ops": [{"op": "get"}]}
        [_, whole, failed, _] = exchange(container, storage(-1, ("size", {}), ("size", {})))
        self.assertEqual(whole, {"unsupported": "no containers"})
        self.assertEqual(failed["results"], [
            {"throws": "ValueError", "message": "ValueError: negative size"},
            {"unsupported": "the subject could not be made"}])


if __name__ == "__main__":
    unittest.main()
