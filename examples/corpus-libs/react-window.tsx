// Glue only: react-window's List of 10,000 invoices (rows absolutely positioned, only those in view rendered).
import { createRoot } from 'react-dom/client';
import { List, type RowComponentProps } from 'react-window';
import { expose } from './shared';

function Invoice({ index, style, ariaAttributes }: RowComponentProps) {
  return (
    <div
      style={{ ...style, display: 'flex', justifyContent: 'space-between', alignItems: 'center' }}
      {...ariaAttributes}
    >
      <span>Invoice #{index + 1}</span>
      <button type="button" onClick={() => expose('opened', index + 1)}>
        Open invoice #{index + 1}
      </button>
    </div>
  );
}

function Invoices() {
  return (
    <main style={{ maxWidth: 480, margin: '2em' }}>
      <h1>Invoices</h1>
      <List rowComponent={Invoice} rowCount={10_000} rowHeight={36} rowProps={{}} style={{ height: 400 }} />
    </main>
  );
}

createRoot(document.getElementById('app') as HTMLElement).render(<Invoices />);
