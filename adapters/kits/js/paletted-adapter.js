'use strict'
// The JavaScript adapter kit: the protocol loop of PROTOCOL.md, "Adapters",
// once. An adapter gives `serve` its handshake and a function that makes a
// subject; a subject's `run(op)` maps one op to the library's call and
// returns its value (the `ok` result). Everything else is here: the
// handshake line, one answer per request line, errors as results,
// exceptions caught, and no op run on a state the implementation could not
// reach.
//
//   const { serve, Unsupported } = require('.../kits/js/paletted-adapter')
//   serve({
//     handshake: { implementation: 'mine', version: '1.0', minecraft: '26.3',
//                  ops: { storage: ['bits'] } },
//     subject: spec => ({ run: op => { if (op.op === 'bits') return spec.bits
//                                      throw new Unsupported(`no ${op.op}`) } })
//   })
//
// `run` may also return an outcome made by `ok`, `throws`, `error` or
// `unsupported`, or throw `Thrown` (a Java class for the condition) or
// `Unsupported`. Any other exception is the implementation's own: `errors`
// names its Java class (return an outcome, or null), else it is reported
// under its JS class name, so it never passes for Minecraft's. BigInt values
// are written as JSON integers (longs).

const readline = require('readline')

// Library logging must not reach the protocol channel: from the moment the
// kit is required (require it before the library).
console.log = console.error

// Ops that leave Minecraft's subject as it was: after one of these is
// unsupported the state is still known, so later ops still run. After an
// unsupported op that changes state, every later op is unsupported.
const READ_ONLY = new Set(['get', 'bits', 'palette', 'counts', 'get_all', 'maybe_has', 'write',
  'serialized_size', 'pack', 'values', 'longs', 'size'])

class Outcome {
  constructor (fields) { Object.assign(this, fields) }
}

const ok = value => new Outcome({ ok: value === undefined ? null : value })
// `cls` is the Java exception Minecraft throws for the same condition,
// `message` the implementation's own text.
const throws = (cls, message) => new Outcome({ throws: cls, message: message == null ? null : String(message) })
const error = message => new Outcome({ error: String(message) }) // a DataResult error (unpack)
const unsupported = why => new Outcome({ unsupported: String(why) })

class Thrown extends Error {
  constructor (cls, message) {
    super(message)
    this.outcome = throws(cls, message)
  }
}

class Unsupported extends Error {
  constructor (why) {
    super(why)
    this.outcome = unsupported(why)
  }
}

// An exception's JS class and text, as an implementation's own error reads.
function describe (e) {
  return e && e.message !== undefined ? `${e.constructor.name}: ${e.message}` : String(e)
}

function caught (e, errors) {
  if (e instanceof Thrown || e instanceof Unsupported) return e.outcome
  const mapped = errors ? errors(e) : null
  if (mapped) return mapped instanceof Outcome ? mapped : new Outcome(mapped)
  return throws((e && e.constructor && e.constructor.name) || 'Error', describe(e))
}

function result (value) {
  return value instanceof Outcome ? value : ok(value)
}

// The answer to one case: {results: [...]}, or a whole-case {unsupported}
// when making the subject throws Unsupported.
function runCase (c, adapter) {
  let subject
  try {
    subject = adapter.subject(c.subject)
  } catch (e) {
    if (e instanceof Unsupported) return e.outcome
    const rest = unsupported('the subject could not be made')
    return { results: c.ops.map((_, i) => i === 0 ? caught(e, adapter.errors) : rest) }
  }
  const results = []
  let after = null
  for (const op of c.ops) {
    if (after) {
      results.push(unsupported(after))
      continue
    }
    let r
    try {
      r = result(subject.run(op))
    } catch (e) {
      r = caught(e, adapter.errors)
    }
    if (r.unsupported !== undefined && !READ_ONLY.has(op.op)) {
      after = `after an unsupported op (${r.unsupported})`
    }
    results.push(r)
  }
  return { results }
}

// JSON with BigInt longs written as plain integers.
function stringify (value) {
  return JSON.stringify(value, (k, v) => typeof v === 'bigint' ? `__long__${v}__` : v)
    .replace(/"__long__(-?\d+)__"/g, '$1')
}

// JSON.parse, but integers past 2^53 (longs) come back exact, as BigInt.
function parse (text) {
  const marked = text.replace(/"(?:[^"\\]|\\.)*"|-?\d{16,}/g, t =>
    t[0] === '"' || Number.isSafeInteger(Number(t)) ? t : `"~long~${t}"`)
  return JSON.parse(marked, (k, v) =>
    typeof v === 'string' && v.startsWith('~long~') ? BigInt(v.slice(6)) : v)
}

// The line loop: the handshake (`protocol` added), then one answer per
// {"case": ...} line until stdin closes.
function serve (adapter, input = process.stdin, output = process.stdout) {
  output.write(stringify({ protocol: 1, ...adapter.handshake }) + '\n')
  const rl = readline.createInterface({ input, terminal: false })
  rl.on('line', line => {
    if (!line.trim()) return
    let out
    try {
      out = runCase(parse(line).case, adapter)
    } catch (e) {
      out = unsupported(`adapter could not run the case: ${e.message}`)
    }
    output.write(stringify(out) + '\n')
  })
  return rl
}

module.exports = { serve, runCase, parse, stringify, ok, throws, error, unsupported, Thrown, Unsupported, describe, READ_ONLY }
