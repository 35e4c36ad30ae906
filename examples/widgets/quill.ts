import Quill from 'quill';

// Glue only: a Quill editor with the snow theme and a bold/italic toolbar, as its docs configure one.
// The letter is Quill's own document (a Delta), one entry per paragraph with its formats.
const quill = new Quill('#letter', { theme: 'snow', modules: { toolbar: [['bold', 'italic']] } });
quill.root.setAttribute('aria-label', 'Cover letter');
Object.assign(window, {
  letter: () => {
    const paragraphs: { text: string; bold: boolean }[] = [];
    quill.getLines().forEach((line) => {
      const index = quill.getIndex(line);
      const text = quill.getText(index, line.length() - 1);
      const format = quill.getFormat(index, Math.max(1, line.length() - 1));
      paragraphs.push({ text, bold: format.bold === true });
    });
    return paragraphs;
  },
});
