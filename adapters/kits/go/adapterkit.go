// Package adapterkit is the Go adapter kit: the protocol loop of
// PROTOCOL.md, "Adapters", once. An adapter gives Serve its handshake and a
// way to make a subject; a subject's Run(op) maps one op to the library's
// call and returns its value (the "ok" result). Everything else is here: the
// handshake line, one answer per request line, errors as results, panics
// recovered, and no op run on a state the implementation could not reach.
//
// Run may also return an Outcome (Ok, Throws, DataError, Unsupported) as its
// value, or one of the errors Thrown and NoCall. Any other error is the
// implementation's own: an adapter that implements ErrorMapper names the
// Java class Minecraft throws for the same condition, else it is reported
// under its Go type. A panic is reported as "panic", whatever it says: a
// divergence, never a crash of the adapter.
package adapterkit

import (
	"bufio"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"
)

// Op is one op (or a subject) as the case holds it; numbers are json.Number.
type Op = map[string]any

// Outcome is one op's result in PROTOCOL.md's encoding.
type Outcome map[string]any

func Ok(v any) Outcome { return Outcome{"ok": v} }

// Throws: cls is the Java exception Minecraft throws for the same condition,
// message the implementation's own text.
func Throws(cls, message string) Outcome { return Outcome{"throws": cls, "message": message} }

// DataError is a DataResult error (unpack).
func DataError(message string) Outcome { return Outcome{"error": message} }

func Unsupported(why string) Outcome { return Outcome{"unsupported": why} }

// Thrown reports Throws(Class, Message) as an error.
type Thrown struct{ Class, Message string }

func (t *Thrown) Error() string { return t.Class + ": " + t.Message }

// NoCall reports an op (or a value) the implementation has no call for.
type NoCall struct{ Why string }

func (n *NoCall) Error() string { return n.Why }

func NoCallf(format string, args ...any) error { return &NoCall{fmt.Sprintf(format, args...)} }

// Subject is one case's container or storage.
type Subject interface {
	Run(op Op) (any, error)
}

type Adapter interface {
	// Handshake without "protocol": implementation, version, minecraft, ops.
	Handshake() map[string]any
	// Subject makes the subject; a *NoCall error answers the whole case unsupported.
	Subject(spec Op) (Subject, error)
}

// ErrorMapper names the outcome for an implementation's error (nil: its own type).
type ErrorMapper interface{ Errors(err error) Outcome }

// ReadOnly ops leave Minecraft's subject as it was: after one of these is
// unsupported the state is still known, so later ops still run. After an
// unsupported op that changes state, every later op is unsupported.
var ReadOnly = map[string]bool{"get": true, "bits": true, "palette": true, "counts": true,
	"get_all": true, "maybe_has": true, "write": true, "serialized_size": true, "pack": true,
	"values": true, "longs": true, "size": true}

// Int is an integer field of an op or subject.
func Int(op Op, field string) (int64, error) {
	if n, ok := op[field].(json.Number); ok {
		if v, err := n.Int64(); err == nil {
			return v, nil
		}
	}
	return 0, NoCallf("malformed case: no integer `%s`", field)
}

// Ints is a list of integers (nil for JSON null or a missing field).
func Ints(op Op, field string) ([]int64, error) {
	list, _ := op[field].([]any)
	if list == nil {
		return nil, nil
	}
	out := make([]int64, len(list))
	for i, v := range list {
		n, ok := v.(json.Number)
		x, err := n.Int64()
		if !ok || err != nil {
			return nil, NoCallf("malformed case: `%s` holds a non-integer", field)
		}
		out[i] = x
	}
	return out, nil
}

func caught(a Adapter, err error) Outcome {
	var thrown *Thrown
	var none *NoCall
	switch {
	case errors.As(err, &thrown):
		return Throws(thrown.Class, thrown.Message)
	case errors.As(err, &none):
		return Unsupported(none.Why)
	}
	if m, ok := a.(ErrorMapper); ok {
		if o := m.Errors(err); o != nil {
			return o
		}
	}
	return Throws(fmt.Sprintf("%T", err), err.Error())
}

func panicked(v any) Outcome { return Throws("panic", fmt.Sprint(v)) }

func guarded(a Adapter, s Subject, op Op) (out Outcome) {
	defer func() {
		if v := recover(); v != nil {
			out = panicked(v)
		}
	}()
	v, err := s.Run(op)
	if err != nil {
		return caught(a, err)
	}
	if o, ok := v.(Outcome); ok {
		return o
	}
	return Ok(v)
}

func makeSubject(a Adapter, spec Op) (s Subject, failed Outcome) {
	defer func() {
		if v := recover(); v != nil {
			s, failed = nil, panicked(v)
		}
	}()
	s, err := a.Subject(spec)
	if err != nil {
		return nil, caught(a, err)
	}
	return s, nil
}

// RunCase answers one case: {"results": [...]}, or a whole-case unsupported.
func RunCase(a Adapter, c Op) any {
	ops, _ := c["ops"].([]any)
	spec, _ := c["subject"].(Op)
	s, failed := makeSubject(a, spec)
	results := make([]Outcome, 0, len(ops))
	if failed != nil {
		if _, whole := failed["unsupported"]; whole {
			return failed
		}
		results = append(results, failed)
		for len(results) < len(ops) {
			results = append(results, Unsupported("the subject could not be made"))
		}
		return map[string]any{"results": results}
	}
	after := ""
	for _, o := range ops {
		if after != "" {
			results = append(results, Unsupported(after))
			continue
		}
		op, _ := o.(Op)
		r := guarded(a, s, op)
		if why, ok := r["unsupported"]; ok && !ReadOnly[fmt.Sprint(op["op"])] {
			after = fmt.Sprintf("after an unsupported op (%v)", why)
		}
		results = append(results, r)
	}
	return map[string]any{"results": results}
}

// Serve runs the line loop on stdin and stdout; library output on stdout
// goes to stderr.
func Serve(a Adapter) error {
	out := os.Stdout
	os.Stdout = os.Stderr
	return ServeOn(a, os.Stdin, out)
}

// ServeOn writes the handshake ("protocol" added), then one answer per
// {"case": ...} line until r ends.
func ServeOn(a Adapter, r io.Reader, w io.Writer) error {
	hs := map[string]any{"protocol": 1}
	for k, v := range a.Handshake() {
		hs[k] = v
	}
	enc := json.NewEncoder(w)
	enc.SetEscapeHTML(false)
	if err := enc.Encode(hs); err != nil {
		return err
	}
	in := bufio.NewReader(r)
	for {
		line, err := in.ReadString('\n')
		if strings.TrimSpace(line) != "" {
			var request struct{ Case Op }
			dec := json.NewDecoder(strings.NewReader(line))
			dec.UseNumber()
			var answer any
			if e := dec.Decode(&request); e != nil || request.Case == nil {
				answer = Unsupported(fmt.Sprintf("not a JSON request: %v", e))
			} else {
				answer = RunCase(a, request.Case)
			}
			if e := enc.Encode(answer); e != nil {
				return e
			}
		}
		if err == io.EOF {
			return nil
		}
		if err != nil {
			return err
		}
	}
}
