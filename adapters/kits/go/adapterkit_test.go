package adapterkit

import (
	"errors"
	"fmt"
	"strings"
	"testing"
)

type toy struct{}

func (toy) Handshake() map[string]any { return map[string]any{"implementation": "toy"} }

func (toy) Subject(spec Op) (Subject, error) {
	if spec["kind"] == "container" {
		return nil, NoCallf("no containers")
	}
	size, err := Int(spec, "size")
	if err != nil {
		return nil, err
	}
	if size < 0 {
		panic("negative size")
	}
	return toySubject(size), nil
}

var errRange = errors.New("out of range")

// Errors names the toy's own error, wrapped or not.
func (toy) Errors(err error) Outcome {
	if errors.Is(err, errRange) {
		return Throws("IndexOutOfBoundsException", err.Error())
	}
	return nil
}

type toySubject int64

func (s toySubject) Run(op Op) (any, error) {
	switch op["op"] {
	case "size":
		return int64(s), nil
	case "get":
		i, _ := Int(op, "index")
		if i >= int64(s) {
			return nil, &Thrown{"IllegalArgumentException", fmt.Sprint("index ", i)}
		}
		return nil, nil
	case "set":
		return nil, fmt.Errorf("set: %w", errRange)
	case "other":
		return nil, errors.New("plain")
	case "boom":
		var m map[string]int
		m["x"] = 1
	case "longs":
		return []int64{-9223372036854775808, 1}, nil
	case "unpack":
		return DataError("Missing values"), nil
	}
	return nil, NoCallf("no %v", op["op"])
}

func exchange(t *testing.T, cases ...string) []string {
	in := "\n"
	for _, c := range cases {
		in += `{"case":` + c + "}\n"
	}
	in += "not json"
	var out strings.Builder
	if err := ServeOn(toy{}, strings.NewReader(in), &out); err != nil {
		t.Fatal(err)
	}
	return strings.Split(strings.TrimSpace(out.String()), "\n")
}

func storage(size int, ops string) string {
	return fmt.Sprintf(`{"format":1,"name":"t","subject":{"kind":"storage","bits":1,"size":%d},"ops":[%s]}`, size, ops)
}

func same(t *testing.T, what, want, got string) {
	t.Helper()
	if want != got {
		t.Errorf("%s:\n want %s\n got  %s", what, want, got)
	}
}

func TestTheLoop(t *testing.T) {
	out := exchange(t,
		storage(4, `{"op":"size"},{"op":"get","index":1},{"op":"get","index":9},{"op":"set","index":2},`+
			`{"op":"other"},{"op":"boom"},{"op":"unpack"},{"op":"longs"}`),
		storage(4, `{"op":"counts"},{"op":"size"},{"op":"fill","value":0},{"op":"size"}`),
		`{"format":1,"name":"c","subject":{"kind":"container"},"ops":[]}`,
		storage(-1, `{"op":"size"},{"op":"size"}`))
	if len(out) != 6 {
		t.Fatalf("%d lines: %q", len(out), out)
	}
	same(t, "handshake", `{"implementation":"toy","protocol":1}`, out[0])
	same(t, "values, errors, panics", `{"results":[{"ok":4},{"ok":null},`+
		`{"message":"index 9","throws":"IllegalArgumentException"},`+
		`{"message":"set: out of range","throws":"IndexOutOfBoundsException"},`+
		`{"message":"plain","throws":"*errors.errorString"},`+
		`{"message":"assignment to entry in nil map","throws":"panic"},`+
		`{"error":"Missing values"},{"ok":[-9223372036854775808,1]}]}`, out[1])
	same(t, "an unsupported state change stops the case", `{"results":[{"unsupported":"no counts"},`+
		`{"ok":4},{"unsupported":"no fill"},{"unsupported":"after an unsupported op (no fill)"}]}`, out[2])
	same(t, "whole-case unsupported", `{"unsupported":"no containers"}`, out[3])
	same(t, "a subject it cannot make", `{"results":[{"message":"negative size","throws":"panic"},`+
		`{"unsupported":"the subject could not be made"}]}`, out[4])
	if !strings.HasPrefix(out[5], `{"unsupported":"not a JSON request`) {
		t.Errorf("not json: %s", out[5])
	}
}
