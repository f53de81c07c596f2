// TipTap scenarios: two real TipTap 3 editors (StarterKit + Collaboration,
// jsdom) edit one document, one through y-websocket, one through
// Hocuspocus.
import './dom.mjs'
import { Editor, getSchema } from '@tiptap/core'
import { StarterKit } from '@tiptap/starter-kit'
import { Collaboration } from '@tiptap/extension-collaboration'
import { prosemirrorJSONToYXmlFragment } from '@tiptap/y-tiptap'
import { ywsProvider, hpSocket, hpProvider, synced, waitFor, sleep, Y } from './lib.mjs'

const field = 'default'
const seedJSON = { type: 'doc', content: [{ type: 'heading', attrs: { level: 2 }, content: [{ type: 'text', text: 'Title' }] }, { type: 'paragraph', content: [{ type: 'text', text: 'Hello ' }, { type: 'text', marks: [{ type: 'bold' }], text: 'world' }] }] }

const editorOn = ydoc => new Editor({
  element: document.createElement('div'),
  extensions: [StarterKit.configure({ undoRedo: false }), Collaboration.configure({ document: ydoc, field })]
})

export const scenarios = {
  // Seeds the document the way y-prosemirror writes TipTap content (unless
  // cfg.seeded says it already is), then two editors type at once.
  async tiptap (cfg) {
    const problems = []
    if (!cfg.seeded) {
      const seedDoc = new Y.Doc()
      prosemirrorJSONToYXmlFragment(getSchema([StarterKit]), seedJSON, seedDoc.getXmlFragment(field))
      const seeder = ywsProvider(cfg.wsBase, cfg.room, cfg.tokens[0], seedDoc)
      if (!(await synced(seeder))) problems.push('the seeding client did not sync')
      await sleep(200)
      seeder.destroy()
    }
    const docA = new Y.Doc()
    const docB = new Y.Doc()
    const a = ywsProvider(cfg.wsBase, cfg.room, cfg.tokens[0], docA)
    const socket = hpSocket(cfg.wsBase)
    const b = hpProvider(socket, cfg.room, cfg.tokens[1], docB)
    if (!(await waitFor(() => a.synced && b.synced))) problems.push('an editor did not sync')
    const edA = editorOn(docA)
    const edB = editorOn(docB)
    const seededHTML = '<h2>Title</h2><p>Hello <strong>world</strong></p>'
    if (!(await waitFor(() => edA.getHTML() === seededHTML && edB.getHTML() === seededHTML, 5000))) problems.push(`seeded document shows ${edA.getHTML()} / ${edB.getHTML()}`)
    for (let i = 0; i < 10; i++) {
      edA.commands.insertContentAt(1, 'a')
      edB.commands.insertContentAt(edB.state.doc.content.size - 1, 'b')
      await sleep(10)
    }
    const count = (s, c) => (s.match(new RegExp(c, 'g')) || []).length
    const done = () => edA.getHTML() === edB.getHTML() && count(edA.getHTML(), 'a') >= 10 && count(edA.getHTML(), 'b') >= 10
    if (!(await waitFor(done))) problems.push(`not converged: ${edA.getHTML()} vs ${edB.getHTML()}`)
    if (!edA.getHTML().includes('Hello') || !edA.getHTML().includes('Title')) problems.push(`seeded text lost: ${edA.getHTML()}`)
    const out = { problems, html: edA.getHTML() }
    edA.destroy(); edB.destroy(); a.destroy(); b.destroy(); socket.destroy()
    return out
  }
}
