// tabulator-tables ships no types: the part of its API the corpus page uses.
declare module 'tabulator-tables' {
  export interface RowComponent {
    getData(): Record<string, unknown> & { name?: string };
    isTreeExpanded(): boolean;
  }
  interface Sorter {
    field: string;
    dir: 'asc' | 'desc';
  }
  interface Events {
    tableBuilt: () => void;
    rowSelectionChanged: (data: Array<{ name: string }>) => void;
    dataSorted: (sorters: Sorter[]) => void;
    cellEdited: () => void;
    dataTreeRowExpanded: () => void;
    dataTreeRowCollapsed: () => void;
  }
  export class TabulatorFull {
    constructor(element: string | HTMLElement, options: Record<string, unknown>);
    on<Event extends keyof Events>(event: Event, listener: Events[Event]): void;
    getRows(): RowComponent[];
    getData<Row>(): Row[];
  }
}
