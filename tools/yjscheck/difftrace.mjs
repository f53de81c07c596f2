// Generates seeded random editing traces with stock yjs for the Go engine's
// differential tests (svc-content/internal/yjs).
//
// Usage: node difftrace.mjs <seed block> <traces>
//        node difftrace.mjs seeds <seed>,<seed>,...
//
// Output: one JSON line per trace. Several clients (Y.Doc, fixed client
// ids) make random local edits in transactions and exchange updates now and
// then, so edits are concurrent. Every step is recorded with what yjs
// produced, for Go to replay and compare byte for byte:
//   gc: whether the documents collect deleted content (Y.Doc option gc)
//   steps: {k:'e', c, acts, u}          client c ran acts in one transaction,
//                                        u is its 'update' event (or null)
//          {k:'s', from, to, u, emitted} u = encodeStateAsUpdate(from, sv(to)),
//                                        applied to to; emitted: to's 'update'
//                                        events during the apply
//   final:  per client {sv, state, content} after a full sync
//   shuffles: the local updates delivered in another order to a fresh doc
//   merged, diff, svFromUpdate: the stateless update functions on them
// Binary values travel as {"$bytes": [..]}; content is canonical JSON (see
// canon in yjshelpers.mjs).
import * as Y from 'yjs'
import { apply, b64, content } from './yjshelpers.mjs'

const mulberry32 = seed => () => {
  seed |= 0; seed = seed + 0x6D2B79F5 | 0
  let t = Math.imul(seed ^ seed >>> 15, 1 | seed)
  t = t + Math.imul(t ^ t >>> 7, 61 | t) ^ t
  return ((t ^ t >>> 14) >>> 0) / 4294967296
}

const makeGen = rnd => {
  const int = n => Math.floor(rnd() * n)
  const pick = xs => xs[int(xs.length)]
  const words = ['a', 'bc', 'hello', ' ', 'x y', 'é', '👍', 'Ωmega', '\n', 'zz top', 'ab👍cd']
  const str = () => { let s = ''; const n = 1 + int(3); for (let i = 0; i < n; i++) s += pick(words); return s }
  const value = depth => {
    switch (int(depth > 1 ? 6 : 9)) {
      case 0: return int(1000) - 500
      case 1: return rnd() * 10
      case 2: return str()
      case 3: return rnd() < 0.5
      case 4: return null
      case 5: return 2147483648 + int(1000)
      case 6: return [value(depth + 1), value(depth + 1)]
      case 7: { const o = {}; for (const k of ['k', 'a', '1', 'z'].slice(0, 1 + int(4))) o[k] = value(depth + 1); return o }
      default: return { $bytes: [int(256), int(256)] }
    }
  }
  // attrs are written with sorted keys, the order Go writes map keys in.
  const attrs = () => {
    const keys = ['bold', 'italic', 'link', 'size'].filter(() => rnd() < 0.4)
    const o = {}
    for (const k of keys.sort()) {
      o[k] = k === 'bold' || k === 'italic' ? pick([true, null]) : k === 'link' ? pick([{ href: 'u' + int(3) }, null]) : pick([int(3) + 10, null])
    }
    return o
  }
  const maybeAttrs = () => rnd() < 0.5 ? null : attrs()
  const embed = () => pick([{ image: 'i' + int(5) }, { formula: 'e=mc' + int(3) }, { $bytes: [1, 2] }])
  const newTypeArgs = () => {
    const kind = pick(['text', 'map', 'array'])
    const init = kind === 'text' ? pick(['', str()]) : kind === 'array' ? [value(1)] : (rnd() < 0.5 ? {} : { a: value(1), b: value(1) })
    return [kind, init]
  }
  const textAct = (t, path) => {
    const len = t.length
    const r = rnd()
    if (len === 0 || r < 0.45) return ['ti', path, int(len + 1), str(), maybeAttrs()]
    if (r < 0.55) return ['te', path, int(len + 1), embed(), maybeAttrs()]
    const i = int(len)
    const n = 1 + int(Math.min(len - i, 5))
    if (r < 0.8) return ['td', path, i, n]
    return ['tf', path, i, n, attrs()]
  }
  const keys = ['a', 'b', 'c', 'd', '1']
  const mapAct = (m, path) => {
    const r = rnd()
    if (r < 0.5) return ['ms', path, pick(keys), value(0)]
    if (r < 0.75) return ['mt', path, pick(keys), ...newTypeArgs()]
    return ['md', path, pick(keys)]
  }
  const arrayAct = (a, path) => {
    const len = a.length
    const r = rnd()
    if (len === 0 || r < 0.35) return ['ai', path, int(len + 1), [value(0), value(0)].slice(0, 1 + int(2))]
    if (r < 0.45) return ['ap', path, [value(0)]]
    if (r < 0.6) return ['at', path, int(len + 1), ...newTypeArgs()]
    const i = int(len)
    return ['ad', path, i, 1 + int(Math.min(len - i, 3))]
  }
  const xmlAct = (x, path) => {
    const len = x.length
    const r = rnd()
    if (len === 0 || r < 0.35) return ['xe', path, int(len + 1), pick(['paragraph', 'heading', 'P', 'listItem'])]
    if (r < 0.6) return ['xt', path, int(len + 1), pick(['', str()])]
    if (r < 0.75 && x instanceof Y.XmlElement) return ['xa', path, pick(['level', 'class', 'id']), pick([2, 'x', true, { a: 1 }])]
    if (r < 0.8 && x instanceof Y.XmlElement) return ['xr', path, pick(['level', 'class', 'id'])]
    const i = int(len)
    return ['xd', path, i, 1 + int(Math.min(len - i, 2))]
  }
  // targets lists every type reachable from the roots with its path.
  const targets = doc => {
    const out = []
    const walk = (t, path, depth) => {
      out.push([t, path])
      if (depth > 3) return
      if (t instanceof Y.Map) t.forEach((v, k) => { if (v instanceof Y.AbstractType) walk(v, [...path, k], depth + 1) })
      if (t instanceof Y.Array || t instanceof Y.XmlFragment) {
        t.toArray().forEach((v, i) => { if (v instanceof Y.AbstractType && !(v instanceof Y.XmlHook)) walk(v, [...path, i], depth + 1) })
      }
    }
    walk(doc.getText('text'), ['text'], 0)
    walk(doc.getMap('map'), ['map'], 0)
    walk(doc.getArray('array'), ['array'], 0)
    walk(doc.getXmlFragment('xml'), ['xml'], 0)
    return out
  }
  const action = doc => {
    const [t, path] = pick(targets(doc))
    if (t instanceof Y.Text) return textAct(t, path) // also Y.XmlText
    if (t instanceof Y.Map) return mapAct(t, path)
    if (t instanceof Y.Array) return arrayAct(t, path)
    return xmlAct(t, path)
  }
  return { int, pick, action }
}

const shuffle = (rnd, xs) => {
  const a = xs.slice()
  for (let i = a.length - 1; i > 0; i--) {
    const j = Math.floor(rnd() * (i + 1));
    [a[i], a[j]] = [a[j], a[i]]
  }
  return a
}

const trace = seed => {
  const rnd = mulberry32(seed)
  const g = makeGen(rnd)
  const n = 2 + g.int(3)
  const ids = []
  while (ids.length < n) { const id = 1 + g.int(rnd() < 0.3 ? 5 : 4000000000); if (!ids.includes(id)) ids.push(id) }
  const gc = rnd() < 0.8 // some traces keep deleted content (Y.Doc gc: false)
  const docs = ids.map(id => { const d = new Y.Doc({ gc }); d.clientID = id; return d })
  const emitted = docs.map(() => [])
  docs.forEach((d, i) => d.on('update', u => emitted[i].push(b64(u))))
  const steps = []
  const local = []
  const sync = (from, to) => {
    const u = Y.encodeStateAsUpdate(docs[from], Y.encodeStateVector(docs[to]))
    emitted[to].length = 0
    Y.applyUpdate(docs[to], u)
    steps.push({ k: 's', from, to, u: b64(u), emitted: emitted[to].slice() })
  }
  const nsteps = rnd() < 0.1 ? 60 + g.int(100) : 5 + g.int(30)
  for (let s = 0; s < nsteps; s++) {
    if (rnd() < 0.75) {
      const c = g.int(n)
      const acts = []
      emitted[c].length = 0
      docs[c].transact(() => {
        const k = 1 + g.int(3)
        for (let i = 0; i < k; i++) {
          const act = g.action(docs[c])
          acts.push(JSON.parse(JSON.stringify(act))) // yjs adds keys to the attributes it is given
          apply(docs[c], act)
        }
      })
      const u = emitted[c].length > 0 ? emitted[c][0] : null
      if (u !== null) local.push(u)
      steps.push({ k: 'e', c, acts, u })
    } else {
      const from = g.int(n)
      const to = g.int(n)
      if (from !== to) sync(from, to)
    }
  }
  for (let i = 0; i < n; i++) for (let j = 0; j < n; j++) if (i !== j) sync(i, j)
  const final = docs.map(d => ({ sv: b64(Y.encodeStateVector(d)), state: b64(Y.encodeStateAsUpdate(d)), content: content(d) }))

  const shuffles = []
  for (let r = 0; r < 2; r++) {
    const order = shuffle(rnd, local.map((_, i) => i))
    const mid = g.int(order.length + 1)
    const d = new Y.Doc({ gc }); d.clientID = 0 // no trace client uses 0
    let midRec = null
    order.forEach((idx, i) => {
      if (i === mid) midRec = { sv: b64(Y.encodeStateVector(d)), state: b64(Y.encodeStateAsUpdate(d)), content: content(d) }
      Y.applyUpdate(d, Buffer.from(local[idx], 'base64'))
    })
    if (midRec === null) midRec = { sv: b64(Y.encodeStateVector(d)), state: b64(Y.encodeStateAsUpdate(d)), content: content(d) }
    shuffles.push({ order, mid, midRec, sv: b64(Y.encodeStateVector(d)), state: b64(Y.encodeStateAsUpdate(d)), content: content(d) })
  }

  const bufs = local.map(u => Buffer.from(u, 'base64'))
  const mergeOrder = shuffle(rnd, bufs.map((_, i) => i))
  const subset = mergeOrder.filter(() => rnd() < 0.6)
  const merged = bufs.length > 0 ? Y.mergeUpdates(mergeOrder.map(i => bufs[i])) : null
  const mergedSubset = subset.length > 0 ? Y.mergeUpdates(subset.map(i => bufs[i])) : null
  const diffSv = Y.encodeStateVector(docs[g.int(n)])
  const ops = {
    mergeOrder,
    merged: b64(merged),
    subset,
    mergedSubset: b64(mergedSubset),
    diffSv: b64(diffSv),
    diff: merged && b64(Y.diffUpdate(merged, diffSv)),
    diffSubset: mergedSubset && b64(Y.diffUpdate(mergedSubset, diffSv)),
    svFromUpdate: merged && b64(Y.encodeStateVectorFromUpdate(merged)),
    svFromSubset: mergedSubset && b64(Y.encodeStateVectorFromUpdate(mergedSubset))
  }
  return { seed, ids, gc, steps, local, final, shuffles, ops }
}

// With "seeds" the listed trace seeds (comma-separated) are generated,
// else <count> traces from seed block <seed>.
const [seedArg, countArg] = process.argv.slice(2)
const seeds = []
if (seedArg === 'seeds') {
  for (const s of (countArg ?? '').split(',')) if (s !== '') seeds.push(Number(s))
} else {
  const block = Number(seedArg ?? 1)
  const count = Number(countArg ?? 10)
  for (let i = 0; i < count; i++) seeds.push(block * 1000003 + i)
}
for (const seed of seeds) process.stdout.write(JSON.stringify(trace(seed)) + '\n')
