import Sortable from 'sortablejs';

// Glue only: two SortableJS lists sharing a group, as a kanban board sets them up. The board's
// state is what SortableJS reports through its own toArray().
const columns = ['todo', 'done'].map((id) =>
  Sortable.create(document.getElementById(id) as HTMLElement, { group: 'board', animation: 0, dataIdAttr: 'data-id' }),
);
(window as { board?: () => Record<string, string[]> }).board = () => ({
  todo: columns[0]?.toArray() ?? [],
  done: columns[1]?.toArray() ?? [],
});
