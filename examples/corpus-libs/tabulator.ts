// Glue only: a Tabulator table with tree data (rows that open by their toggle), sortable headers,
// selectable rows and an editable number column, set up as its docs show.
import { type RowComponent, TabulatorFull as Tabulator } from 'tabulator-tables';
import { expose } from './shared';

interface Person {
  name: string;
  age?: number;
  role?: string;
  _children?: Person[];
}

const staff: Person[] = [
  {
    name: 'Engineering',
    _children: [
      { name: 'Ada Lovelace', age: 36, role: 'Analyst' },
      { name: 'Grace Hopper', age: 85, role: 'Admiral' },
      { name: 'Alan Turing', age: 41, role: 'Researcher' },
    ],
  },
  {
    name: 'Sales',
    _children: [
      { name: 'Bob Smith', age: 29, role: 'Account manager' },
      { name: 'Carol White', age: 52, role: 'Director' },
    ],
  },
  { name: 'Dana Reed', age: 33, role: 'Office manager' },
];

const table = new Tabulator('#staff', {
  data: staff,
  dataTree: true,
  // Sales opens at load, as a table remembering the last group its user opened.
  dataTreeStartExpanded: (row: RowComponent) => row.getData().name === 'Sales',
  selectableRows: true,
  layout: 'fitColumns',
  columns: [
    { title: 'Name', field: 'name', sorter: 'string' },
    { title: 'Age', field: 'age', sorter: 'number', editor: 'number', hozAlign: 'right' },
    { title: 'Role', field: 'role', sorter: 'string' },
  ],
});

const everyone = (rows: Person[]): Person[] => rows.flatMap((row) => [row, ...everyone(row._children ?? [])]);
table.on('tableBuilt', () => {
  expose('ages', Object.fromEntries(everyone(staff).map((person) => [person.name, person.age])));
  expose('selected', []);
  expose('sortedBy', []);
  expose('expanded', ['Sales']);
});
table.on('rowSelectionChanged', (rows) =>
  expose(
    'selected',
    rows.map((row) => row.name),
  ),
);
table.on('dataSorted', (sorters) =>
  expose(
    'sortedBy',
    sorters.map((sorter) => `${sorter.field} ${sorter.dir}`),
  ),
);
table.on('cellEdited', () =>
  expose('ages', Object.fromEntries(everyone(table.getData<Person>()).map((person) => [person.name, person.age]))),
);
const expanded = () =>
  table
    .getRows()
    .filter((row) => row.isTreeExpanded())
    .map((row) => row.getData().name);
table.on('dataTreeRowExpanded', () => expose('expanded', expanded()));
table.on('dataTreeRowCollapsed', () => expose('expanded', expanded()));
