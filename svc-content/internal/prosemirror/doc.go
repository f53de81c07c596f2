// Package prosemirror maps TipTap documents between the forms the backend
// meets them in, for TipTap 3's StarterKit schema with default options:
//
//   - ParseHTML: HTML to the document TipTap builds from it (generateJSON,
//     an editor's content option), ProseMirror's DOMParser rules and
//     whitespace handling included;
//   - ParseJSON: ProseMirror JSON (editor.getJSON()) checked against the
//     schema;
//   - RenderHTML: the HTML editor.getHTML() renders;
//   - WriteFragment / ReadFragment: a document into and out of a
//     Y.XmlFragment exactly as y-prosemirror (@tiptap/y-tiptap), the
//     binding of TipTap's Collaboration extension, writes and reads it.
//
// Node is the document in ProseMirror's JSON shape. Inputs that cannot
// become a StarterKit document are refused with errors wrapping
// ErrInvalid. Every behaviour here is checked against TipTap itself in the
// tests (tools/tiptapcheck).
package prosemirror
