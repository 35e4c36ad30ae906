import type { WidgetTask } from '../task';

export const tiptapTasks: WidgetTask[] = [
  {
    id: 'tiptap/bold-second-paragraph',
    library: '@tiptap/core',
    path: '/widgets/tiptap.html',
    ask: 'make the second paragraph bold',
    steps: [
      {
        act: 'selectText',
        target: { role: 'textbox', name: 'Meeting notes' },
        text: 'Budget review is moved to Friday.',
      },
      { act: 'click', target: { role: 'button', name: 'Bold' } },
    ],
    done: 'window.notes().map((paragraph) => paragraph.bold).join() === "false,true,false"',
    state: 'window.notes()',
  },
];
