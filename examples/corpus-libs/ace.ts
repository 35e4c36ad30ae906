// Glue only: an Ace editor (its own hidden textarea for input, the text drawn in layers of divs).
import 'ace-builds/src-noconflict/ace';
import { expose } from './shared';

declare const ace: {
  edit(
    element: HTMLElement,
    options: Record<string, unknown>,
  ): { on(event: string, listener: () => void): void; getValue(): string; navigateFileEnd(): void };
};

const editor = ace.edit(document.getElementById('editor') as HTMLElement, {
  value: '// notes\n',
  fontSize: 14,
  // Ace names its hidden textarea with this (then the cursor's row), as a site labels its editor.
  textInputAriaLabel: 'Notes',
});
// Ace writes its textarea's label when the cursor moves: put the cursor after the text, as an app opening a note does.
editor.navigateFileEnd();
const report = () => expose('text', editor.getValue());
editor.on('change', report);
report();
