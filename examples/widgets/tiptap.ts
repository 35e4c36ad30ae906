import { Editor } from '@tiptap/core';
import StarterKit from '@tiptap/starter-kit';

// Glue only: a Tiptap editor with its starter kit and the two toolbar buttons an app adds (Tiptap
// is headless: the app draws its toolbar and calls the editor's commands). The notes are Tiptap's
// own document (getJSON), one entry per paragraph with its marks.
const editor = new Editor({
  element: document.getElementById('notes') as HTMLElement,
  extensions: [StarterKit],
  content: '<p>Agenda for Monday</p><p>Budget review is moved to Friday.</p><p>Lunch is at noon.</p>',
  editorProps: { attributes: { 'aria-label': 'Meeting notes', role: 'textbox', 'aria-multiline': 'true' } },
});
for (const mark of ['bold', 'italic'] as const) {
  const button = document.getElementById(mark) as HTMLButtonElement;
  button.addEventListener('click', () => {
    editor.chain().focus().toggleMark(mark).run();
  });
  editor.on('transaction', () => button.setAttribute('aria-pressed', String(editor.isActive(mark))));
}
type Node = { type: string; text?: string; content?: Node[]; marks?: { type: string }[] };
Object.assign(window, {
  notes: () =>
    ((editor.getJSON() as Node).content ?? []).map((paragraph) => ({
      text: (paragraph.content ?? []).map((part) => part.text ?? '').join(''),
      bold:
        (paragraph.content ?? []).length > 0 &&
        (paragraph.content ?? []).every((part) => (part.marks ?? []).some((mark) => mark.type === 'bold')),
    })),
});
