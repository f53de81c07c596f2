// A browser-like global scope for TipTap and ProseMirror under node: one
// jsdom window whose globals (document, Node, DOMParser, ...) TipTap's
// Editor, generateJSON and getHTML use.
import { JSDOM } from 'jsdom'

const { window } = new JSDOM('<!doctype html><html><body></body></html>', { pretendToBeVisual: true })

globalThis.window = window
for (const name of Object.getOwnPropertyNames(window)) {
  if (!(name in globalThis) && /^[A-Z]|^(document|navigator|getComputedStyle|getSelection|requestAnimationFrame|cancelAnimationFrame)$/.test(name)) {
    globalThis[name] = window[name]
  }
}
// jsdom has no layout: ProseMirror asks for rectangles when it scrolls.
window.HTMLElement.prototype.getBoundingClientRect ??= () => ({ top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0 })
window.HTMLElement.prototype.getClientRects = () => []
window.Range.prototype.getClientRects = () => []
window.Range.prototype.getBoundingClientRect = () => ({ top: 0, left: 0, right: 0, bottom: 0, width: 0, height: 0 })
document.elementFromPoint = () => null
