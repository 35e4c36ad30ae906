import type { WidgetTask } from '../task';

/** Native dialogs (alert, confirm, prompt) opened by a click, answered as the user asks. */
export const dialogTasks: WidgetTask[] = [
  {
    id: 'dialogs/wizard-ends-in-alert',
    library: '(plain HTML)',
    path: '/gauntlet/wizard.html',
    ask: 'order for Ada with express delivery',
    steps: [
      { act: 'fill', target: { role: 'textbox', name: 'Your name' }, value: 'Ada', submit: true },
      { act: 'select', target: { role: 'combobox', name: 'Speed' }, value: 'express' },
      { act: 'click', target: { role: 'button', name: 'Next' } },
      { act: 'click', target: { role: 'button', name: 'Place order' } },
      { act: 'dialog', accept: true },
    ],
    done: 'JSON.stringify(window.wizard) === \'{"name":"Ada","speed":"express","placed":true}\'',
    state: 'window.wizard',
  },
  {
    id: 'dialogs/confirm-delete',
    library: '(plain HTML)',
    path: '/gauntlet/dialogs.html',
    ask: "delete the bill 'Pay rent' (say OK when asked)",
    steps: [
      { act: 'click', target: { role: 'button', name: 'Delete' } },
      { act: 'dialog', accept: true },
    ],
    done: "window.billState.deleted === true && document.getElementById('log').textContent === 'Deleted'",
    state: 'window.billState',
  },
  {
    id: 'dialogs/confirm-keep',
    library: '(plain HTML)',
    path: '/gauntlet/dialogs.html',
    ask: "start deleting 'Pay rent', then cancel",
    steps: [
      { act: 'click', target: { role: 'button', name: 'Delete' } },
      { act: 'dialog', accept: false },
    ],
    done: "document.getElementById('log').textContent === 'Kept' && !!document.querySelector('[data-bill=rent]')",
    state: 'window.billState',
  },
  {
    id: 'dialogs/alert-hello',
    library: '(plain HTML)',
    path: '/gauntlet/dialogs.html',
    ask: 'say hello, and close the message',
    steps: [
      { act: 'click', target: { role: 'button', name: 'Say hello' } },
      { act: 'dialog', accept: true },
    ],
    done: 'window.billState.greeted === true',
    state: 'window.billState',
  },
  {
    id: 'dialogs/prompt-rename',
    library: '(plain HTML)',
    path: '/gauntlet/dialogs.html',
    ask: "rename the phone bill to 'Mobile phone'",
    steps: [
      { act: 'click', target: { role: 'button', name: 'Rename the phone bill' } },
      { act: 'dialog', accept: true, text: 'Mobile phone' },
    ],
    done: "window.billState.renamed === 'Mobile phone'",
    state: 'window.billState',
  },
];
