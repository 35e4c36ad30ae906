// Glue only: react-virtuoso's list of 10,000 orders, only the rows in view rendered.
import { createRoot } from 'react-dom/client';
import { Virtuoso } from 'react-virtuoso';
import { expose } from './shared';

function Orders() {
  return (
    <main style={{ maxWidth: 480, margin: '2em' }}>
      <h1>Orders</h1>
      <Virtuoso
        style={{ height: 400 }}
        totalCount={10_000}
        itemContent={(index) => (
          <div style={{ display: 'flex', justifyContent: 'space-between', padding: '6px 0' }}>
            <span>Order #{index + 1}</span>
            <button type="button" onClick={() => expose('opened', index + 1)}>
              Open order #{index + 1}
            </button>
          </div>
        )}
      />
    </main>
  );
}

createRoot(document.getElementById('app') as HTMLElement).render(<Orders />);
