// DataTables' own sortable table (headers are <th tabindex=0> with click and key handlers).
import DataTable from 'datatables.net';

const people = [
  { name: 'Ada Lovelace', age: 36, city: 'London' },
  { name: 'Grace Hopper', age: 85, city: 'Arlington' },
  { name: 'Alan Turing', age: 41, city: 'Wilmslow' },
  { name: 'Katherine Johnson', age: 101, city: 'Newport News' },
  { name: 'Edsger Dijkstra', age: 72, city: 'Nuenen' },
];

const table = new DataTable('#people', {
  data: people,
  columns: [
    { title: 'Name', data: 'name' },
    { title: 'Age', data: 'age' },
    { title: 'City', data: 'city' },
  ],
  paging: false,
  info: false,
  order: [],
});
// The test reads the library's own sort state.
(window as unknown as { peopleTable: unknown }).peopleTable = table;
