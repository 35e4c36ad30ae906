// Glue only: a Lexical plain-text editor (its own DOM per line, input through beforeinput), as
// Lexical's vanilla-JS example sets one up on a contenteditable the page provides.
import { registerPlainText } from '@lexical/plain-text';
import { $createLineBreakNode, $createParagraphNode, $createTextNode, $getRoot, createEditor } from 'lexical';
import { expose } from './shared';

const root = document.getElementById('editor') as HTMLElement;
// What Lexical's own ContentEditable component renders: a multi-line text box (named by the page's heading).
root.setAttribute('role', 'textbox');
root.setAttribute('aria-multiline', 'true');
root.setAttribute('aria-labelledby', 'notes-heading');

const editor = createEditor({ namespace: 'Notes', onError: (error) => console.error(error) });
editor.setRootElement(root);
registerPlainText(editor);

// Two starting lines, as an app opening a saved note: plain text keeps lines as breaks in one paragraph.
editor.update(() => {
  const paragraph = $createParagraphNode();
  paragraph.append($createTextNode('Buy milk'), $createLineBreakNode(), $createTextNode('Call the bank'));
  $getRoot().clear().append(paragraph);
});

editor.registerUpdateListener(({ editorState }) => editorState.read(() => expose('text', $getRoot().getTextContent())));
