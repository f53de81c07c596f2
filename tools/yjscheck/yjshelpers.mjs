// Helpers shared by the scripts that check the Go Yjs engine
// (svc-content/internal/yjs) against stock yjs.
import * as Y from 'yjs'

export const b64 = u => u === null ? null : Buffer.from(u).toString('base64')

// canon is the content as JSON for comparison: shared types as their
// toJSON, bytes as {$bytes}.
export const canon = v => {
  if (v instanceof Y.AbstractType) return canon(v.toJSON())
  if (v instanceof Uint8Array) return { $bytes: Array.from(v) }
  if (Array.isArray(v)) return v.map(canon)
  if (v !== null && typeof v === 'object') {
    const o = {}
    for (const k of Object.keys(v)) if (v[k] !== undefined) o[k] = canon(v[k])
    return o
  }
  return v
}

export const content = doc => ({
  text: { str: doc.getText('text').toString(), delta: canon(doc.getText('text').toDelta()) },
  map: canon(doc.getMap('map').toJSON()),
  array: canon(doc.getArray('array').toJSON()),
  xml: doc.getXmlFragment('xml').toString()
})

export const fromWire = v => {
  if (Array.isArray(v)) return v.map(fromWire)
  if (v !== null && typeof v === 'object') {
    if (v.$bytes) return new Uint8Array(v.$bytes)
    const o = {}
    for (const k of Object.keys(v)) o[k] = fromWire(v[k])
    return o
  }
  return v
}

// resolve follows a path from a root to a nested type.
export const resolve = (doc, path) => {
  const [root, ...steps] = path
  let t = root === 'text' ? doc.getText('text') : root === 'map' ? doc.getMap('map') : root === 'array' ? doc.getArray('array') : doc.getXmlFragment('xml')
  for (const s of steps) t = t.get(s)
  return t
}

const newType = (kind, init) => {
  switch (kind) {
    case 'text': return new Y.Text(init)
    case 'array': return Y.Array.from(fromWire(init))
    case 'map': return new Y.Map(Object.entries(fromWire(init)))
  }
}

// apply runs one action; Go's replay (difftest) implements the same list.
export const apply = (doc, act) => {
  const [op, path, ...a] = act
  const t = resolve(doc, path)
  switch (op) {
    case 'ti': return a[2] === null ? t.insert(a[0], a[1]) : t.insert(a[0], a[1], a[2])
    case 'te': return a[2] === null ? t.insertEmbed(a[0], fromWire(a[1])) : t.insertEmbed(a[0], fromWire(a[1]), a[2])
    case 'td': return t.delete(a[0], a[1])
    case 'tf': return t.format(a[0], a[1], a[2])
    case 'ms': return t.set(a[0], fromWire(a[1]))
    case 'mt': return t.set(a[0], newType(a[1], a[2]))
    case 'md': return t.delete(a[0])
    case 'ai': return t.insert(a[0], fromWire(a[1]))
    case 'ap': return t.push(fromWire(a[0]))
    case 'at': return t.insert(a[0], [newType(a[1], a[2])])
    case 'ad': return t.delete(a[0], a[1])
    case 'xe': return t.insert(a[0], [new Y.XmlElement(a[1])])
    case 'xt': return t.insert(a[0], [a[1] === '' ? new Y.XmlText() : new Y.XmlText(a[1])])
    case 'xd': return t.delete(a[0], a[1])
    case 'xa': return t.setAttribute(a[0], fromWire(a[1]))
    case 'xr': return t.removeAttribute(a[0])
  }
  throw new Error('unknown action ' + op)
}
