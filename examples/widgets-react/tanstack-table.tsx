import {
  type ColumnDef,
  createSortedRowModel,
  rowSortingFeature,
  type SortingState,
  sortFns,
  tableFeatures,
  useTable,
} from '@tanstack/react-table';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useExposed } from './shared';

// Glue only: TanStack Table's sorting example: headers toggle sorting on click (a clickable box in
// the <th>, titled with what the next click does), rows come from the sorted row model.
interface Person {
  name: string;
  age: number;
  role: string;
}
const people: Person[] = [
  { name: 'Ada', age: 36, role: 'Engineer' },
  { name: 'Grace', age: 85, role: 'Admiral' },
  { name: 'Linus', age: 28, role: 'Maintainer' },
  { name: 'Margaret', age: 52, role: 'Director' },
  { name: 'Alan', age: 41, role: 'Researcher' },
];
const features = tableFeatures({ rowSortingFeature, sortedRowModel: createSortedRowModel(), sortFns });
const columns: ColumnDef<typeof features, Person>[] = [
  { accessorKey: 'name', header: 'Name' },
  { accessorKey: 'age', header: 'Age' },
  { accessorKey: 'role', header: 'Role' },
];
const nextTitle = { asc: 'Sort ascending', desc: 'Sort descending' } as const;
const sortMark = { asc: ' 🔼', desc: ' 🔽', none: '' } as const;

function Team() {
  const [sorting, setSorting] = useState<SortingState>([]);
  const table = useTable({ features, columns, data: people, state: { sorting }, onSortingChange: setSorting });
  useExposed(
    'teamOrder',
    table.getRowModel().rows.map((row) => row.original.name),
  );
  return (
    <main>
      <h1>Team</h1>
      <table>
        <thead>
          {table.getHeaderGroups().map((group) => (
            <tr key={group.id}>
              {group.headers.map((header) => {
                const next = header.column.getNextSortingOrder();
                return (
                  <th key={header.id}>
                    {/* biome-ignore lint/a11y/noStaticElementInteractions lint/a11y/useKeyWithClickEvents: TanStack's own example sorts by mouse only; the gauntlet reads such headers as sites ship them */}
                    <div
                      style={{ cursor: 'pointer', userSelect: 'none' }}
                      onClick={header.column.getToggleSortingHandler()}
                      title={next ? nextTitle[next] : 'Clear sort'}
                    >
                      <table.FlexRender header={header} />
                      {sortMark[header.column.getIsSorted() || 'none']}
                    </div>
                  </th>
                );
              })}
            </tr>
          ))}
        </thead>
        <tbody>
          {table.getRowModel().rows.map((row) => (
            <tr key={row.id}>
              {row.getAllCells().map((cell) => (
                <td key={cell.id}>
                  <table.FlexRender cell={cell} />
                </td>
              ))}
            </tr>
          ))}
        </tbody>
      </table>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Team />);
