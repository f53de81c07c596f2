// Live state broadcast (/v2/livestate/broadcast) as stock clients see it:
// Hocuspocus providers get it as a stateless message; y-websocket
// providers as message type 100, which an application reads by
// registering provider.messageHandlers[100]; a stock provider without that
// handler must stay connected and in sync.
import * as decoding from 'lib0/decoding'
import { ywsProvider, hpSocket, hpProvider, synced, waitFor, sleep } from './lib.mjs'

const YWS_LIVE_STATE = 100

export const scenarios = {
  async liveState (cfg, step) {
    const problems = []
    const got = { yws: [], hp: [] }
    const listener = ywsProvider(cfg.wsBase, cfg.room, cfg.token)
    listener.messageHandlers[YWS_LIVE_STATE] = (encoder, decoder) => {
      got.yws.push(JSON.parse(decoding.readVarString(decoder)))
    }
    const plain = ywsProvider(cfg.wsBase, cfg.otherEditorRoom, cfg.token)
    const s = hpSocket(cfg.wsBase)
    const hp = hpProvider(s, cfg.room, cfg.token)
    hp.on('stateless', ({ payload }) => got.hp.push(JSON.parse(payload)))
    if (!(await synced(listener)) || !(await synced(plain)) || !(await waitFor(() => hp.synced))) problems.push('a client did not sync')
    step('ready')
    if (!(await waitFor(() => got.yws.length > 0 && got.hp.length > 0))) problems.push(`not received: ${JSON.stringify(got)}`)
    // The plain provider ignored the unknown type and still works.
    await sleep(200)
    plain.doc.getText('content').insert(0, 'still here')
    const other = ywsProvider(cfg.wsBase, cfg.otherEditorRoom, cfg.token)
    if (!(await synced(other)) || !(await waitFor(() => other.doc.getText('content').toString() === 'still here'))) {
      problems.push('the provider without a handler stopped syncing after the broadcast')
    }
    if (plain.closes.length > 0) problems.push(`plain provider closed: ${JSON.stringify(plain.closes)}`)
    listener.destroy(); plain.destroy(); other.destroy(); hp.destroy(); s.destroy()
    return { problems, yws: got.yws[0], hp: got.hp[0] }
  }
}
