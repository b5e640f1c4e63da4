#!/usr/bin/env node
'use strict'
// Conformance adapter for prismarine-chunk (ADAPTER-PROTOCOL.md): reads
// {"case": ...} lines on stdin, runs each through prismarine-chunk's own
// palette containers (SingleValueContainer, IndirectPaletteContainer,
// DirectPaletteContainer) and BitArray, answers {"results": [...]} lines.
//
// Subjects are made the way prismarine-chunk's 1.18+ ChunkColumn makes them
// for the Minecraft version given as `--minecraft VERSION` (26.1 by default:
// noSizePrefix, the 1.21.5+ wire form; 1.20.1: the long count on the wire and
// one short before a section's containers), through the sections'
// constructors and `read`; every later op is the container's own
// set/get/write. Nothing writes a field of prismarine-chunk's objects.

// The kit first: it sends console.log to stderr before the libraries load.
const { serve, ok, throws, unsupported, Unsupported, describe } = require('../kits/js/paletted-adapter')
const { SmartBuffer } = require('smart-buffer')

// The versions this adapter can stand for, and their wire forms.
const VERSIONS = {
  '26.1': { noSizePrefix: true, hasFluidCount: true }, // no VarInt long count; two shorts
  '1.20.1': { noSizePrefix: false, hasFluidCount: false } // a long count; one short
}
const flag = process.argv.indexOf('--minecraft')
const MINECRAFT = flag >= 0 ? process.argv[flag + 1] : '26.1'
if (!VERSIONS[MINECRAFT]) {
  console.error(`adapter: --minecraft ${MINECRAFT}: not one of ${Object.keys(VERSIONS).join(', ')}`)
  process.exit(2)
}
const registry = require('prismarine-registry')(MINECRAFT)
const ChunkSection = require('prismarine-chunk/src/pc/common/PaletteChunkSection')(
  require('prismarine-block')(registry))
const BiomeSection = require('prismarine-chunk/src/pc/common/PaletteBiome')
const { SingleValueContainer, IndirectPaletteContainer, DirectPaletteContainer } =
  require('prismarine-chunk/src/pc/common/PaletteContainer')
const BitArray = require('prismarine-chunk/src/pc/common/BitArrayNoSpan')
const neededBits = require('prismarine-chunk/src/pc/common/neededBits')

const NO_SIZE_PREFIX = VERSIONS[MINECRAFT].noSizePrefix // no VarInt long count before the longs
const HAS_FLUID_COUNT = VERSIONS[MINECRAFT].hasFluidCount // a section's two shorts (solid, fluid)

const OPS = {
  container: ['set', 'get', 'bits', 'palette', 'write', 'read'],
  storage: ['load', 'get', 'set', 'values', 'longs', 'bits', 'size']
}
const WHY = {
  get_and_set: 'prismarine-chunk has no getAndSet',
  counts: 'prismarine-chunk has no count of values',
  get_all: 'prismarine-chunk has no listing of distinct values',
  maybe_has: 'prismarine-chunk has no maybeHas',
  serialized_size: 'prismarine-chunk has no serialized size',
  pack: 'prismarine-chunk has no disk (NBT) form of a container',
  unpack: 'prismarine-chunk has no disk (NBT) form of a container',
  fill: 'BitArray has no fill',
  get_and_set_storage: 'BitArray has no getAndSet'
}

// Global widths as prismarine-chunk's ChunkColumn derives them from a
// registry: neededBits(highest state id) for blocks, neededBits(number of
// biomes) for biomes; applied here to the case's registry size.
function globalBits (subject) {
  return subject.strategy === 'block_states'
    ? neededBits(subject.registry - 1)
    : neededBits(subject.registry)
}

function newContainer (subject) {
  if (subject.strategy === 'block_states') {
    // hasFluidCount only changes the section's header, not its container; off
    // here so the constructor does not look the value up as a block.
    return new ChunkSection({
      noSizePrefix: NO_SIZE_PREFIX,
      hasFluidCount: false,
      maxBitsPerBlock: globalBits(subject),
      singleValue: subject.initial
    }).data
  }
  return new BiomeSection({ noSizePrefix: NO_SIZE_PREFIX, singleValue: subject.initial }).data
}

function index (subject, op) {
  const b = subject.strategy === 'block_states' ? 4 : 2
  return (((op.y << b) | op.z) << b) | op.x // Java int arithmetic, as Minecraft's getIndex
}

function hex (buffer) {
  return buffer.toString('hex')
}

function fromHex (text) {
  return Buffer.from(text, 'hex')
}

// Errors, by the condition they report, named as the Java exception
// Minecraft throws for the same condition (compared by class only for
// third-party classes); the JS class and message are kept in the message.
function thrown (e) {
  const text = describe(e)
  let cls = (e && e.constructor && e.constructor.name) || 'Error'
  if (/beyond the bounds|out of range|outside the bounds/i.test(e.message)) {
    cls = 'IndexOutOfBoundsException' // reading past the end of the buffer (netty's)
  } else if (/varint is too big/i.test(text)) {
    cls = 'RuntimeException'
  }
  return throws(cls, text)
}

function containerOp (state, op) {
  const c = state.c
  switch (op.op) {
    case 'set':
      state.c = c.set(index(state.subject, op), op.value)
      return ok(null)
    case 'get':
      return ok(c.get(index(state.subject, op)))
    case 'bits':
      return ok(c instanceof SingleValueContainer ? 0 : c.data.getBitsPerValue())
    case 'palette':
      if (c instanceof SingleValueContainer) return ok([c.value])
      if (c instanceof IndirectPaletteContainer) return ok(c.palette.slice())
      return unsupported('a DirectPaletteContainer has no palette to list')
    case 'write': {
      const buf = new SmartBuffer()
      c.write(buf)
      return ok(hex(buf.toBuffer()))
    }
    case 'read': {
      const bytes = fromHex(op.bytes)
      if (state.subject.strategy === 'block_states') {
        // ChunkSection.read takes a whole section: the solid count (and in
        // 26.1 the fluid count) before the container. Give it zeros and count
        // them off.
        const header = HAS_FLUID_COUNT ? 4 : 2
        const buf = SmartBuffer.fromBuffer(Buffer.concat([Buffer.alloc(header), bytes]))
        const section = ChunkSection.read(buf, globalBits(state.subject), NO_SIZE_PREFIX, HAS_FLUID_COUNT)
        state.c = section.data
        return ok(buf.readOffset - header)
      }
      const buf = SmartBuffer.fromBuffer(bytes)
      state.c = BiomeSection.read(buf, globalBits(state.subject), NO_SIZE_PREFIX).data
      return ok(buf.readOffset)
    }
  }
  return unsupported(WHY[op.op] || `no such op ${op.op}`)
}

function toLong (pair) {
  // BitArray.toLongArray gives [high, low] 32-bit halves.
  return BigInt.asIntN(64, (BigInt(pair[0]) << 32n) | BigInt(pair[1] >>> 0))
}

function longsBuffer (longs) {
  const buf = Buffer.alloc(longs.length * 8)
  longs.forEach((l, i) => buf.writeBigInt64BE(BigInt(l), i * 8))
  return buf
}

function storageOp (state, op) {
  const s = state.s
  switch (op.op) {
    case 'load': {
      // BitArray's own loader: readBuffer of the longs, big-endian, as on the wire.
      const fresh = new BitArray({ bitsPerValue: op.bits, capacity: op.size })
      fresh.readBuffer(SmartBuffer.fromBuffer(longsBuffer(op.longs)), op.longs.length * 2)
      state.s = fresh
      return ok(null)
    }
    case 'get':
      return ok(s.get(op.index))
    case 'set':
      s.set(op.index, op.value)
      return ok(null)
    case 'values':
      return ok(s.toArray())
    case 'longs':
      return ok(s.toLongArray().map(toLong))
    case 'bits':
      return ok(s.getBitsPerValue())
    case 'size':
      return ok(s.capacity)
    case 'get_and_set':
      return unsupported(WHY.get_and_set_storage)
  }
  return unsupported(WHY[op.op] || `no such op ${op.op}`)
}

// A subject as prismarine makes it. A constructor that throws gives its
// error as every op's result, until a `load` makes a new BitArray.
function subject (spec) {
  const state = { subject: spec }
  let ctorError = null
  try {
    if (spec.kind === 'container') state.c = newContainer(spec)
    else if (spec.kind === 'storage') state.s = new BitArray({ bitsPerValue: spec.bits, capacity: spec.size })
    else throw new Unsupported(`subject kind ${spec.kind}`)
  } catch (e) {
    if (e instanceof Unsupported) throw e
    ctorError = thrown(e)
  }
  const run = spec.kind === 'container' ? containerOp : storageOp
  return {
    run (op) {
      if (ctorError && !(spec.kind === 'storage' && op.op === 'load')) return ctorError
      const r = run(state, op)
      if (op.op === 'load') ctorError = null
      return r
    }
  }
}

const version = require('prismarine-chunk/package.json').version
serve({
  handshake: {
    implementation: 'prismarine-chunk',
    version,
    minecraft: MINECRAFT,
    ops: OPS,
    notes: `prismarine-chunk ${version}'s pc 1.18+ containers in the ${MINECRAFT} wire form (` +
      (NO_SIZE_PREFIX ? 'no long-array size prefix' : 'a long-array size prefix') + '). Global widths are derived from the case\'s registry size the way its ' +
      'ChunkColumn derives them from a registry (neededBits(highest state id) for blocks; ' +
      'neededBits(biome count) for reads of biomes; a biome container that grows past 3 bits ' +
      'goes direct at its default 8 bits). Block reads go through ChunkSection.read with a ' +
      'zero count header (solid' + (HAS_FLUID_COUNT ? ' and fluid' : '') + ') that is not counted in the bytes consumed. Error classes ' +
      'are the Java class for the same condition; the JS class and text are in the message.'
  },
  subject,
  errors: thrown
})
