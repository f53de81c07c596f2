// y-websocket scenarios: stock y-websocket 3.1 WebsocketProvider.
import { ywsProvider, synced, waitFor, sleep, nextLine, Y } from './lib.mjs'

const text = p => p.doc.getText('content').toString()

export const scenarios = {
  // Two editors type at once; both must end with both edits. With
  // expectInitial, each must first receive that seeded text.
  async converge (cfg) {
    const problems = []
    const [a, b] = cfg.tokens.map(t => ywsProvider(cfg.wsBase, cfg.room, t))
    if (!(await synced(a)) || !(await synced(b))) problems.push('a client did not sync')
    if (cfg.expectInitial !== undefined) {
      await waitFor(() => text(a) === cfg.expectInitial && text(b) === cfg.expectInitial, 3000)
      for (const p of [a, b]) if (text(p) !== cfg.expectInitial) problems.push(`seeded text ${JSON.stringify(text(p))}, want ${JSON.stringify(cfg.expectInitial)}`)
    }
    for (let i = 0; i < 20; i++) {
      a.doc.getText('content').insert(0, 'a')
      b.doc.getText('content').insert(text(b).length, 'b')
      await sleep(5)
    }
    const done = await waitFor(() => text(a) === text(b) && (text(a).match(/a/g) || []).length >= 20 && (text(a).match(/b/g) || []).length >= 20)
    if (!done) problems.push(`not converged: ${JSON.stringify(text(a))} vs ${JSON.stringify(text(b))}`)
    const out = { problems, text: text(a) }
    a.destroy(); b.destroy()
    return out
  },

  // A viewer's edits go nowhere: not to the editor, not to the store.
  async viewer (cfg) {
    const problems = []
    const ed = ywsProvider(cfg.wsBase, cfg.room, cfg.editorToken)
    const vw = ywsProvider(cfg.wsBase, cfg.room, cfg.viewerToken)
    if (!(await synced(ed)) || !(await synced(vw))) problems.push('a client did not sync')
    vw.doc.getText('content').insert(0, 'VIEWER')
    ed.doc.getText('content').insert(0, 'EDITOR')
    if (!(await waitFor(() => text(vw).includes('EDITOR')))) problems.push('the viewer did not receive the editor\'s edit')
    await sleep(300)
    if (text(ed).includes('VIEWER')) problems.push('the editor received the viewer\'s edit')
    ed.destroy(); vw.destroy()
    const fresh = ywsProvider(cfg.wsBase, cfg.room, cfg.editorToken)
    if (!(await synced(fresh))) problems.push('the fresh client did not sync')
    await waitFor(() => text(fresh).includes('EDITOR'), 3000)
    if (!text(fresh).includes('EDITOR')) problems.push('the editor\'s edit was not stored')
    if (text(fresh).includes('VIEWER')) problems.push('the viewer\'s edit was stored')
    fresh.destroy()
    return { problems }
  },

  // A refused token: a close with the expected code before any content.
  async refused (cfg) {
    const problems = []
    const p = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    await waitFor(() => p.closes.length > 0, 5000)
    const close = p.closes[0]
    if (!close) problems.push('no close received')
    else if (close.code !== cfg.expectCode) problems.push(`close code ${close.code} (${close.reason}), want ${cfg.expectCode}`)
    if (p.synced) problems.push('the refused client was sent the document')
    if (text(p) !== '') problems.push('the refused client received content')
    p.destroy()
    return { problems, close }
  },

  // Presence: B sees A's awareness state, and its removal when A leaves.
  async awareness (cfg) {
    const problems = []
    const [a, b] = cfg.tokens.map(t => ywsProvider(cfg.wsBase, cfg.room, t))
    if (!(await synced(a)) || !(await synced(b))) problems.push('a client did not sync')
    a.awareness.setLocalStateField('user', { name: 'Ada', color: '#f00' })
    const seen = () => [...b.awareness.getStates().values()].some(s => s.user && s.user.name === 'Ada')
    if (!(await waitFor(seen))) problems.push('B did not see A\'s awareness')
    const id = a.awareness.clientID
    a.destroy()
    if (!(await waitFor(() => !b.awareness.getStates().has(id)))) problems.push('A\'s awareness was not removed when A left')
    b.destroy()
    return { problems }
  },

  // Connects, reports "synced", then waits until the text includes
  // cfg.expect (a REST update made meanwhile must arrive live).
  async watch (cfg, step) {
    const problems = []
    const p = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    if (!(await synced(p))) problems.push('did not sync')
    step('synced')
    if (!(await waitFor(() => text(p).includes(cfg.expect), cfg.waitMs ?? 10000))) problems.push(`text ${JSON.stringify(text(p))} never included ${JSON.stringify(cfg.expect)}`)
    const out = { problems, text: text(p), closes: p.closes }
    p.destroy()
    return out
  },

  // Connects, syncs, reports the text and closes. With write, inserts it
  // first and waits until the server stored it (a second client reads it).
  async write (cfg) {
    const problems = []
    const p = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    if (!(await synced(p))) problems.push('did not sync')
    p.doc.getText('content').insert(text(p).length, cfg.write)
    const check = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    if (!(await waitFor(() => text(check).includes(cfg.write)))) problems.push('the write did not reach a second client')
    const out = { problems, text: text(check) }
    p.destroy(); check.destroy()
    return out
  },

  // Two clients on two servers (replicas) sync; after the Go test says
  // "go" (it may have cut the replicas' Redis connections meanwhile), each
  // writes and must see the other's write.
  async sites (cfg, step) {
    const problems = []
    const [a, b] = cfg.tokens.map((t, i) => ywsProvider(cfg.wsBases[i], cfg.room, t))
    if (!(await synced(a)) || !(await synced(b))) problems.push('a client did not sync')
    a.doc.getText('content').insert(0, 'first ')
    if (!(await waitFor(() => text(b).includes('first')))) problems.push('B did not get A\'s first write through the other replica')
    step('synced')
    await nextLine()
    a.doc.getText('content').insert(0, 'fromA ')
    b.doc.getText('content').insert(0, 'fromB ')
    const ok = () => text(a) === text(b) && text(a).includes('fromA') && text(a).includes('fromB')
    if (!(await waitFor(ok, cfg.waitMs ?? 10000))) problems.push(`not converged: ${JSON.stringify(text(a))} vs ${JSON.stringify(text(b))}`)
    const out = { problems, text: text(a) }
    a.destroy(); b.destroy()
    return out
  },

  // Connects, reports "synced", then waits for the server to close the
  // connection (access removed) and reports the close.
  async closed (cfg, step) {
    const problems = []
    const p = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    if (!(await synced(p))) problems.push('did not sync')
    step('synced')
    if (!(await waitFor(() => p.closes.length > 0, cfg.waitMs ?? 15000))) problems.push('the session was not closed')
    const close = p.closes[0]
    if (close && close.code !== cfg.expectCode) problems.push(`close code ${close.code} (${close.reason}), want ${cfg.expectCode}`)
    p.destroy()
    return { problems, close }
  },

  // Reads the document once synced.
  async read (cfg) {
    const problems = []
    const p = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    if (!(await synced(p))) problems.push('did not sync')
    if (cfg.expect !== undefined) await waitFor(() => text(p) === cfg.expect, 3000)
    const out = { problems, text: text(p), update: Buffer.from(Y.encodeStateAsUpdate(p.doc)).toString('base64') }
    p.destroy()
    return out
  }
}
