'use strict'
// The JS kit's loop, on a toy subject: `node --test` here.
const test = require('node:test')
const assert = require('node:assert')
const { PassThrough, Writable } = require('node:stream')
const { serve, Thrown, Unsupported, error } = require('./paletted-adapter')

const handshake = { implementation: 'toy', version: '0', minecraft: '26.3', ops: { storage: ['get', 'size'] } }

function subject (spec) {
  if (spec.kind === 'container') throw new Unsupported('no containers')
  if (spec.size < 0) throw new RangeError('negative size')
  return {
    run (op) {
      switch (op.op) {
        case 'size': return spec.size
        case 'get':
          if (op.index >= spec.size) throw new Thrown('IllegalArgumentException', `index ${op.index}`)
          return op.index % 2 ? undefined : 1
        case 'set': throw new TypeError(`bad ${op.index}`)
        case 'longs': return [-9223372036854775808n, 1n]
        case 'unpack': return error('Missing values')
        case 'boom': throw new SyntaxError('boom')
      }
      throw new Unsupported(`no ${op.op}`)
    }
  }
}
const errors = e => e instanceof TypeError ? { throws: 'IndexOutOfBoundsException', message: e.message } : null

async function exchange (...cases) {
  const input = new PassThrough()
  let text = ''
  const output = new Writable({ write (chunk, _, done) { text += chunk; done() } })
  const rl = serve({ handshake, subject, errors }, input, output)
  const closed = new Promise(resolve => rl.on('close', resolve))
  input.end(['', ...cases.map(c => JSON.stringify({ case: c })), 'not json', ''].join('\n'))
  await closed
  return text.trim().split('\n').map(line => JSON.parse(line))
}

const storage = (size, ...ops) => ({
  format: 1, name: 't', subject: { kind: 'storage', bits: 1, size }, ops: ops.map(([op, f]) => ({ op, ...f }))
})

test('the handshake comes first, with the protocol', async () => {
  assert.deepStrictEqual((await exchange())[0], { protocol: 1, ...handshake })
})

test('each op gives its value, error or exception; longs stay exact', async () => {
  const [, answer, bad] = await exchange(storage(4, ['size'], ['get', { index: 1 }], ['get', { index: 9 }],
    ['set', { index: 2 }], ['boom'], ['unpack'], ['longs']))
  assert.deepStrictEqual(answer.results.slice(0, 6), [
    { ok: 4 }, { ok: null },
    { throws: 'IllegalArgumentException', message: 'index 9' },
    { throws: 'IndexOutOfBoundsException', message: 'bad 2' },
    { throws: 'SyntaxError', message: 'SyntaxError: boom' },
    { error: 'Missing values' }])
  assert.ok('unsupported' in bad)
})

test('longs are written as exact JSON integers and read back exact', async () => {
  const { parse, stringify } = require('./paletted-adapter')
  assert.strictEqual(stringify({ ok: [-9223372036854775808n, 1n] }), '{"ok":[-9223372036854775808,1]}')
  assert.deepStrictEqual(parse('{"l":[-9223372036854775807,"12345678901234567890",3]}'),
    { l: [-9223372036854775807n, '12345678901234567890', 3] })
})

test('only an unsupported state change stops the case', async () => {
  const [, answer] = await exchange(storage(4, ['counts'], ['size'], ['fill', { value: 0 }], ['size']))
  assert.deepStrictEqual(answer.results, [
    { unsupported: 'no counts' }, { ok: 4 }, { unsupported: 'no fill' },
    { unsupported: 'after an unsupported op (no fill)' }])
})

test('a subject it cannot make is a result', async () => {
  const container = { format: 1, name: 'c', subject: { kind: 'container' }, ops: [{ op: 'get' }] }
  const [, whole, failed] = await exchange(container, storage(-1, ['size'], ['size']))
  assert.deepStrictEqual(whole, { unsupported: 'no containers' })
  assert.deepStrictEqual(failed.results, [
    { throws: 'RangeError', message: 'RangeError: negative size' },
    { unsupported: 'the subject could not be made' }])
})
