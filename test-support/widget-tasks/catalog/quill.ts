import type { WidgetTask } from '../task';

export const quillTasks: WidgetTask[] = [
  {
    id: 'quill/bold-second-paragraph',
    library: 'quill',
    path: '/widgets/quill.html',
    ask: 'make the second paragraph bold',
    steps: [
      {
        act: 'selectText',
        target: { role: 'textbox', name: 'Cover letter' },
        text: 'I would love to join your team as a baker.',
      },
      { act: 'click', target: { role: 'button', name: 'bold' } },
    ],
    done: 'window.letter().map((paragraph) => paragraph.bold).join() === "false,true,false"',
    state: 'window.letter()',
  },
];
