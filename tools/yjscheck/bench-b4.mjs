// The B4 benchmark of dmonad/crdt-benchmarks ("apply real-world editing
// dataset") on stock yjs, for svc-content/internal/yjs/bench, which runs
// the same on the Go engine and prints both side by side.
//
// Usage: node --expose-gc bench-b4.mjs <trace.json.gz> <runs>
// Output: one JSON object with the median times (ms) of the runs and the
// sizes and memory of the last run.
import { readFileSync } from 'node:fs'
import { gunzipSync } from 'node:zlib'
import * as Y from 'yjs'

const [tracePath, runsArg] = process.argv.slice(2)
const { edits, finalText } = JSON.parse(gunzipSync(readFileSync(tracePath)))
const runs = Number(runsArg ?? 1)

const heap = () => { global.gc(); global.gc(); return process.memoryUsage().heapUsed }
const median = xs => xs.slice().sort((a, b) => a - b)[Math.floor(xs.length / 2)]

const run = () => {
  const r = {}
  let base = heap()
  let doc = new Y.Doc()
  doc.clientID = 1 // as the Go run: ids take the same bytes
  const text = doc.getText('text')
  let updateBytes = 0
  // every transaction's update, as a server would send them, kept in one
  // flat buffer so that they hardly add to the measured heap
  const flat = new Uint8Array(16 << 20)
  const ends = new Int32Array(2 * edits.length)
  let nUpdates = 0
  doc.on('update', u => { flat.set(u, updateBytes); updateBytes += u.length; ends[nUpdates++] = updateBytes })
  let t0 = performance.now()
  for (const [pos, del, ins] of edits) {
    if (del > 0) text.delete(pos, del)
    if (ins) text.insert(pos, ins)
  }
  r.editMs = performance.now() - t0
  if (text.toString() !== finalText) throw new Error('final text differs')
  r.editedMem = heap() - base // the flat buffers live outside the V8 heap
  r.updateBytes = updateBytes
  t0 = performance.now()
  const state = Y.encodeStateAsUpdate(doc)
  r.encodeMs = performance.now() - t0
  r.docSize = state.length
  doc = null
  base = heap()
  t0 = performance.now()
  let loaded = new Y.Doc()
  loaded.clientID = 2
  Y.applyUpdate(loaded, state)
  r.parseMs = performance.now() - t0
  if (loaded.getText('text').toString() !== finalText) throw new Error('loaded text differs')
  r.loadedMem = heap() - base
  loaded = null
  // a peer (a sync server) receiving every update
  t0 = performance.now()
  const peer = new Y.Doc()
  peer.clientID = 3
  for (let i = 0, start = 0; i < nUpdates; start = ends[i++]) Y.applyUpdate(peer, flat.subarray(start, ends[i]))
  r.remoteMs = performance.now() - t0
  if (peer.getText('text').toString() !== finalText) throw new Error('peer text differs')
  return r
}

const results = []
for (let i = 0; i < runs; i++) results.push(run())
const last = results[results.length - 1]
console.log(JSON.stringify({
  edits: edits.length,
  editMs: median(results.map(r => r.editMs)),
  encodeMs: median(results.map(r => r.encodeMs)),
  parseMs: median(results.map(r => r.parseMs)),
  remoteMs: median(results.map(r => r.remoteMs)),
  updateBytes: last.updateBytes,
  docSize: last.docSize,
  editedMem: last.editedMem,
  loadedMem: last.loadedMem,
  version: JSON.parse(readFileSync(new URL('./node_modules/yjs/package.json', import.meta.url))).version,
  node: process.version
}))
