// Checks svc-content's TipTap documents with TipTap itself. Reads one case
// per line on stdin, writes one result per line on stdout:
//
// in:  {name, seed: {html} | {json}, go: {json, html}, update?: base64,
//       next?: {update: base64, json}}
// out: {name, ok, problems: [...], tiptap: {json, html}, ...}
//
// For every case: TipTap builds the seed (an Editor with content: seed,
// the way an app would load it) and its getJSON()/getHTML() must equal
// what Go parsed and rendered; TipTap renders Go's JSON to Go's HTML.
// With an update (the Yjs update Go wrote for the seed): a real editor
// (StarterKit + Collaboration) mounts a Y.Doc holding it; its getHTML()
// must equal that of an editor mounted on what stock y-prosemirror writes
// for TipTap's document, the Y.XmlFragment must equal stock's, the mount
// must delete nothing; then the editor edits (insert text, toggle marks)
// and the Yjs update of the edits is returned (editUpdate) with the
// resulting HTML (editedHTML) and the HTML a second editor shows after
// receiving both updates (secondHTML).
// With next ({update, json}: Go's update from the seed to another
// document): an editor mounted on the seed receives it; the fragment must
// then equal what y-prosemirror's updateYFragment makes of its own seed
// for that document (nothing duplicated, nothing left over) and the editor
// must show what an editor mounted on that fragment shows (nextHTML).
// With missing ({stateVector, update, full}: what the server answered a
// client at stateVector, and its whole state): the update must hold no
// struct the client has, applying it to the seed must give the whole
// state, and it must be what yjs itself encodes for that state vector.
import './dom.mjs'
// stdout carries the results; ProseMirror's and TipTap's warnings go to stderr.
console.log = console.info = console.warn = console.error
import { createInterface } from 'node:readline'
import { Editor, getSchema } from '@tiptap/core'
import { StarterKit } from '@tiptap/starter-kit'
import { Collaboration } from '@tiptap/extension-collaboration'
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap'
import * as Y from 'yjs'

const schema = getSchema([StarterKit])

const plainEditor = content => new Editor({ element: document.createElement('div'), extensions: [StarterKit], content })

const collabEditor = ydoc => new Editor({
  element: document.createElement('div'),
  extensions: [StarterKit.configure({ undoRedo: false }), Collaboration.configure({ document: ydoc, field: 'default' })],
})

// The Y.XmlFragment as plain data: element names, attributes with their JS
// types, text as deltas; keys sorted, so the order of writes does not count.
const dumpY = type => type.toArray().map(child => {
  if (child instanceof Y.XmlText) return { text: child.toDelta().map(d => ({ insert: d.insert, attributes: sorted(d.attributes) })) }
  const attrs = child.getAttributes()
  return { element: child.nodeName, attrs: sorted(attrs), types: sorted(Object.fromEntries(Object.entries(attrs).map(([k, v]) => [k, typeof v]))), children: dumpY(child) }
})
const sorted = o => o === undefined ? undefined : Object.fromEntries(Object.keys(o).sort().map(k => [k, o[k] && typeof o[k] === 'object' ? sorted(o[k]) : o[k]]))
const same = (a, b) => JSON.stringify(a) === JSON.stringify(b)
const b64 = u => Buffer.from(u).toString('base64')

// One process serves every test of a Go test package, and several tests
// load the same seeds: a plain editor's reading of a seed depends on the
// seed alone, so each distinct seed is loaded once per process.
const plainReadings = new Map()

function readPlain (content) {
  const key = JSON.stringify(content)
  let reading = plainReadings.get(key)
  if (!reading) {
    const ed = plainEditor(content)
    reading = { json: ed.getJSON(), html: ed.getHTML() }
    ed.destroy()
    plainReadings.set(key, reading)
  }
  // A copy: callers keep it in their results and may hand it on.
  return structuredClone(reading)
}

function checkSeed (c, out) {
  out.tiptap = readPlain(c.seed.html ?? c.seed.json)
  if (c.go) {
    if (!same(c.go.json, out.tiptap.json)) out.problems.push('Go JSON differs from TipTap getJSON()')
    if (c.go.html !== out.tiptap.html) out.problems.push('Go RenderHTML differs from TipTap getHTML()')
    const fromGo = readPlain(c.go.json).html
    if (fromGo !== c.go.html) out.problems.push(`TipTap renders Go's JSON as ${JSON.stringify(fromGo)}, Go as ${JSON.stringify(c.go.html)}`)
  }
}

function checkUpdate (c, out) {
  const field = 'default'
  const stock = new Y.Doc()
  prosemirrorJSONToYXmlFragment(schema, out.tiptap.json, stock.getXmlFragment(field))
  const stockEditor = collabEditor(stock)
  out.stockHTML = stockEditor.getHTML()
  stockEditor.destroy()

  const ydoc = new Y.Doc()
  Y.applyUpdate(ydoc, Buffer.from(c.update, 'base64'))
  const frag = ydoc.getXmlFragment(field)
  const seeded = dumpY(frag)
  if (!same(seeded, dumpY(stock.getXmlFragment(field)))) {
    out.problems.push('Y.XmlFragment differs from what y-prosemirror writes')
    out.yGo = seeded
    out.yStock = dumpY(stock.getXmlFragment(field))
  }
  const seedSV = Y.encodeStateVector(ydoc)
  const mountUpdates = []
  const onUpdate = u => mountUpdates.push(u)
  ydoc.on('update', onUpdate)
  const ed = collabEditor(ydoc)
  ydoc.off('update', onUpdate)
  out.collabHTML = ed.getHTML()
  if (out.collabHTML !== out.stockHTML) out.problems.push('the editor shows Go\'s update differently from stock y-prosemirror\'s')
  checkMount(mountUpdates, seeded, dumpY(frag), out)

  ed.chain().focus('end').insertContent('Edited ✓').run()
  ed.chain().selectAll().toggleBold().toggleItalic().run()
  out.editedHTML = ed.getHTML()
  out.editUpdate = b64(Y.encodeStateAsUpdate(ydoc, seedSV))
  ed.destroy()

  const second = new Y.Doc()
  Y.applyUpdate(second, Buffer.from(c.update, 'base64'))
  Y.applyUpdate(second, Buffer.from(out.editUpdate, 'base64'))
  const ed2 = collabEditor(second)
  out.secondHTML = ed2.getHTML()
  // y-prosemirror stores no marks of non-text nodes: a hard break inside
  // a mark shows unmarked to every editor but the one that marked it.
  if (out.secondHTML !== out.editedHTML && !out.editedHTML.includes('<br>')) out.problems.push('a second editor does not converge')
  ed2.destroy()
}

function checkNext (c, out) {
  const ydoc = new Y.Doc()
  Y.applyUpdate(ydoc, Buffer.from(c.update, 'base64'))
  const ed = collabEditor(ydoc)
  Y.applyUpdate(ydoc, Buffer.from(c.next.update, 'base64'))
  const got = dumpY(ydoc.getXmlFragment('default'))
  out.nextHTML = ed.getHTML()
  ed.destroy()
  // y-prosemirror writing the next document over its own seed, with no
  // mapping from an earlier render: what a server-side update does.
  const stock = new Y.Doc()
  prosemirrorJSONToYXmlFragment(schema, out.tiptap.json, stock.getXmlFragment('default'))
  const stockUpdates = []
  stock.on('update', u => stockUpdates.push(u))
  prosemirrorJSONToYXmlFragment(schema, c.next.json, stock.getXmlFragment('default'))
  const goSize = updateSize([Buffer.from(c.next.update, 'base64')])
  const stockSize = updateSize(stockUpdates)
  if (!same(goSize, stockSize)) out.problems.push(`Go's update inserts/deletes ${JSON.stringify(goSize)}, y-prosemirror's ${JSON.stringify(stockSize)}`)
  if (!same(got, dumpY(stock.getXmlFragment('default')))) {
    out.problems.push('after Go\'s update the fragment differs from what y-prosemirror writes over the seed')
    out.yGo = got
    out.yStock = dumpY(stock.getXmlFragment('default'))
  }
  const stockEditor = collabEditor(stock)
  if (stockEditor.getHTML() !== out.nextHTML) out.problems.push(`after Go's update the editor shows ${JSON.stringify(out.nextHTML)}, on y-prosemirror's ${JSON.stringify(stockEditor.getHTML())}`)
  stockEditor.destroy()
}

function checkMissing (c, out) {
  const sv = Y.decodeStateVector(Buffer.from(c.missing.stateVector, 'base64'))
  const missing = Buffer.from(c.missing.update, 'base64')
  for (const st of Y.decodeUpdate(missing).structs) {
    if (st.id.clock + st.length <= (sv.get(st.id.client) ?? 0)) out.problems.push(`the missing part repeats ${st.id.client}:${st.id.clock} the client has`)
  }
  const client = new Y.Doc()
  Y.applyUpdate(client, Buffer.from(c.update, 'base64'))
  Y.applyUpdate(client, missing)
  const full = new Y.Doc()
  Y.applyUpdate(full, Buffer.from(c.missing.full, 'base64'))
  if (!same(dumpY(client.getXmlFragment('default')), dumpY(full.getXmlFragment('default')))) out.problems.push('seed + missing part differs from the whole state')
  if (Buffer.compare(Buffer.from(Y.encodeStateAsUpdate(full, Buffer.from(c.missing.stateVector, 'base64'))), missing) !== 0) {
    out.problems.push('the missing part is not what yjs encodes for the state vector')
  }
  const ed = collabEditor(client)
  out.missingHTML = ed.getHTML()
  ed.destroy()
}

// updateSize counts what updates insert (item lengths) and delete.
function updateSize (updates) {
  let inserted = 0
  let deleted = 0
  for (const u of updates) {
    const { structs, ds } = Y.decodeUpdate(u)
    for (const st of structs) if (st instanceof Y.Item) inserted += st.length
    for (const items of ds.clients.values()) for (const it of items) deleted += it.len
  }
  return { inserted, deleted }
}

// checkMount: mounting may append what TipTap's TrailingNode adds (an empty
// paragraph after a last node that is not one), never delete.
function checkMount (updates, before, after, out) {
  const deletes = updates.reduce((n, u) => n + Y.decodeUpdate(u).ds.clients.size, 0)
  if (deletes > 0) out.problems.push(`mounting the editor deleted seeded content (${deletes} delete set entries)`)
  const trailing = after.length === before.length + 1 && same(after.slice(0, -1), before) &&
    same(after.at(-1), { element: 'paragraph', attrs: {}, types: {}, children: [] })
  out.mountAppendedParagraph = trailing
  if (!same(before, after) && !trailing) out.problems.push('mounting the editor changed the seeded content')
}

const rl = createInterface({ input: process.stdin })
let failed = 0
for await (const line of rl) {
  if (!line.trim()) continue
  const c = JSON.parse(line)
  const out = { name: c.name, problems: [] }
  try {
    checkSeed(c, out)
    if (c.update && !c.missing) checkUpdate(c, out)
    if (c.next) checkNext(c, out)
    if (c.missing) checkMissing(c, out)
  } catch (e) {
    out.problems.push(`exception: ${e.stack}`)
  }
  out.ok = out.problems.length === 0
  if (!out.ok) failed++
  process.stdout.write(JSON.stringify(out) + '\n')
}
process.exitCode = failed ? 1 : 0
