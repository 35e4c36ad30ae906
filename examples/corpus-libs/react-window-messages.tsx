// Glue only: react-window's List of 5,000 messages of different lengths, each row's height measured as it
// renders (useDynamicRowHeight), so the list's length is an estimate until the rows near its end are seen.
import { createRoot } from 'react-dom/client';
import { List, type RowComponentProps, useDynamicRowHeight } from 'react-window';
import { expose } from './shared';

const WORDS = 'the parcel left the depot this morning and should reach you before the weekend'.split(' ');
/** One to five lines of text, varying from row to row as a chat's messages do. */
const textOf = (index: number) =>
  Array.from({ length: 6 + ((index * 37) % 50) }, (_, at) => WORDS[at % WORDS.length]).join(' ');

function Message({ index, style, ariaAttributes }: RowComponentProps) {
  return (
    <div style={{ ...style, padding: '8px 0', borderBottom: '1px solid #ddd' }} {...ariaAttributes}>
      <strong>Message #{index + 1}</strong> <span>{textOf(index)}</span>{' '}
      <button type="button" onClick={() => expose('replyTo', index + 1)}>
        Reply to message #{index + 1}
      </button>
    </div>
  );
}

function Messages() {
  const rowHeight = useDynamicRowHeight({ defaultRowHeight: 60 });
  return (
    <main style={{ maxWidth: 420, margin: '2em' }}>
      <h1>Messages</h1>
      <List rowComponent={Message} rowCount={5_000} rowHeight={rowHeight} rowProps={{}} style={{ height: 400 }} />
    </main>
  );
}

createRoot(document.getElementById('app') as HTMLElement).render(<Messages />);
