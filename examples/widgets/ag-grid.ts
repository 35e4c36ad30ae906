import { AllCommunityModule, createGrid, type GridApi, ModuleRegistry } from 'ag-grid-community';

// Glue only: an AG Grid (community) of athletes with sortable columns and a floating text filter on
// the country, as its quickstart sets it up. The order and filter are what the grid's API reports.
ModuleRegistry.registerModules([AllCommunityModule]);
interface Athlete {
  name: string;
  country: string;
  age: number;
}
const rowData: Athlete[] = [
  { name: 'Ana Souza', country: 'Brazil', age: 24 },
  { name: 'Liam Tremblay', country: 'Canada', age: 31 },
  { name: 'Mia Schmidt', country: 'Germany', age: 27 },
  { name: 'Noah Roy', country: 'Canada', age: 22 },
  { name: 'Olivia Smith', country: 'Australia', age: 35 },
  { name: 'Kenji Sato', country: 'Japan', age: 29 },
];
const grid: GridApi<Athlete> = createGrid(document.getElementById('athletes') as HTMLElement, {
  rowData,
  columnDefs: [
    { field: 'name', headerName: 'Name' },
    { field: 'country', headerName: 'Country', filter: 'agTextColumnFilter', floatingFilter: true },
    { field: 'age', headerName: 'Age' },
  ],
});
Object.assign(window, {
  athletes: () => {
    const shown: Athlete[] = [];
    grid.forEachNodeAfterFilterAndSort((node) => {
      if (node.data) shown.push(node.data);
    });
    return {
      sort: grid.getColumnState().flatMap((column) => (column.sort ? [`${column.colId} ${column.sort}`] : [])),
      rows: shown.map((row) => `${row.name} (${row.country}, ${row.age})`),
    };
  },
});
