// Hocuspocus scenarios: stock @hocuspocus/provider 4.8.
import { hpSocket, hpProvider, ywsProvider, waitFor, sleep, nextLine } from './lib.mjs'

const text = p => (p.document ?? p.doc).getText('content').toString()

export const scenarios = {
  // Two sockets; the first carries two documents. Concurrent edits on the
  // shared document converge, the second document stays apart, and every
  // edit is acknowledged (no unsynced changes left).
  async hpConverge (cfg) {
    const problems = []
    const s1 = hpSocket(cfg.wsBase)
    const s2 = hpSocket(cfg.wsBase)
    const a = hpProvider(s1, cfg.room, cfg.tokens[0])
    const other = hpProvider(s1, cfg.otherRoom, cfg.tokens[0])
    const b = hpProvider(s2, cfg.room, cfg.tokens[1])
    if (!(await waitFor(() => a.synced && b.synced && other.synced))) problems.push('a provider did not sync')
    for (const p of [a, b, other]) if (!p.events.some(e => e.authenticated === 'read-write')) problems.push(`scope events ${JSON.stringify(p.events)}`)
    other.document.getText('content').insert(0, 'other')
    for (let i = 0; i < 20; i++) {
      a.document.getText('content').insert(0, 'a')
      b.document.getText('content').insert(text(b).length, 'b')
      await sleep(5)
    }
    const count = (s, c) => (s.match(new RegExp(c, 'g')) || []).length
    if (!(await waitFor(() => text(a) === text(b) && count(text(a), 'a') === 20 && count(text(a), 'b') === 20))) problems.push(`not converged: ${text(a)} vs ${text(b)}`)
    if (text(a).includes('other')) problems.push('the other document leaked into this one')
    if (!(await waitFor(() => !a.hasUnsyncedChanges && !b.hasUnsyncedChanges && !other.hasUnsyncedChanges))) problems.push(`unacknowledged changes: ${a.unsyncedChanges} ${b.unsyncedChanges} ${other.unsyncedChanges}`)
    const out = { problems, text: text(a) }
    for (const p of [a, b, other]) p.destroy()
    s1.destroy(); s2.destroy()
    return out
  },

  // A bad token gets authenticationFailed with a reason and no content,
  // while another document on the same socket works.
  async hpRefused (cfg) {
    const problems = []
    const s = hpSocket(cfg.wsBase)
    const bad = hpProvider(s, cfg.room, cfg.badToken)
    const good = hpProvider(s, cfg.otherRoom, cfg.goodToken)
    await waitFor(() => bad.events.length > 0 && good.synced)
    const failed = bad.events.find(e => e.failed)
    if (!failed) problems.push(`no authenticationFailed: ${JSON.stringify(bad.events)}`)
    if (bad.synced || text(bad) !== '') problems.push('the refused provider received the document')
    if (!good.synced) problems.push('the good provider on the same socket did not sync')
    const out = { problems, reason: failed && failed.failed }
    bad.destroy(); good.destroy(); s.destroy()
    return out
  },

  // A viewer is told readonly and its edits go nowhere.
  async hpViewer (cfg) {
    const problems = []
    const s = hpSocket(cfg.wsBase)
    const ed = hpProvider(s, cfg.room, cfg.editorToken)
    const vw = hpProvider(hpSocket(cfg.wsBase), cfg.room, cfg.viewerToken)
    if (!(await waitFor(() => ed.synced && vw.synced))) problems.push('a provider did not sync')
    if (!vw.events.some(e => e.authenticated === 'readonly')) problems.push(`viewer scope events ${JSON.stringify(vw.events)}`)
    vw.document.getText('content').insert(0, 'VIEWER')
    ed.document.getText('content').insert(0, 'EDITOR')
    if (!(await waitFor(() => text(vw).includes('EDITOR')))) problems.push('the viewer did not receive the edit')
    await sleep(300)
    if (text(ed).includes('VIEWER')) problems.push('the editor received the viewer\'s edit')
    ed.destroy(); vw.destroy(); s.destroy()
    return { problems }
  },

  // A Hocuspocus client and a y-websocket client on one document converge.
  async mixed (cfg) {
    const problems = []
    const s = hpSocket(cfg.wsBase)
    const hp = hpProvider(s, cfg.room, cfg.tokens[0])
    const yws = ywsProvider(cfg.wsBase, cfg.room, cfg.tokens[1])
    if (!(await waitFor(() => hp.synced && yws.synced))) problems.push('a client did not sync')
    hp.document.getText('content').insert(0, 'hocus ')
    yws.doc.getText('content').insert(0, 'yws ')
    const ok = () => text(hp) === text(yws) && text(hp).includes('hocus') && text(hp).includes('yws')
    if (!(await waitFor(ok))) problems.push(`not converged: ${text(hp)} vs ${text(yws)}`)
    hp.awareness.setLocalStateField('user', { name: 'Hocus' })
    const seen = () => [...yws.awareness.getStates().values()].some(st => st.user && st.user.name === 'Hocus')
    if (!(await waitFor(seen))) problems.push('the y-websocket client did not see the Hocuspocus client\'s awareness')
    const out = { problems, text: text(hp) }
    hp.destroy(); yws.destroy(); s.destroy()
    return out
  },

  // Writes cfg.count entries one by one, waits until the server
  // acknowledged every one as stored (no unsynced changes), reports
  // "acked" and stays connected until told to end (the Go test kills the
  // server meanwhile).
  async hpWriteAcked (cfg, step) {
    const problems = []
    const p = hpProvider(hpSocket(cfg.wsBase), cfg.room, cfg.token)
    if (!(await waitFor(() => p.synced))) problems.push('did not sync')
    for (let i = 0; i < cfg.count; i++) {
      p.document.getText('content').insert(text(p).length, `k${i};`)
      await sleep(2)
    }
    if (!(await waitFor(() => !p.hasUnsyncedChanges))) problems.push(`${p.unsyncedChanges} changes never acknowledged`)
    step('acked')
    await nextLine()
    return { problems, text: text(p) }
  },

  // Stateless messages reach the document's other sessions.
  async stateless (cfg) {
    const problems = []
    const a = hpProvider(hpSocket(cfg.wsBase), cfg.room, cfg.tokens[0])
    const b = hpProvider(hpSocket(cfg.wsBase), cfg.room, cfg.tokens[1])
    const got = []
    b.on('stateless', ({ payload }) => got.push(payload))
    if (!(await waitFor(() => a.synced && b.synced))) problems.push('a provider did not sync')
    a.sendStateless('{"ping":1}')
    if (!(await waitFor(() => got.includes('{"ping":1}')))) problems.push('the stateless message did not arrive')
    a.destroy(); b.destroy()
    return { problems }
  }
}
