import { agGridTasks } from './catalog/ag-grid';
import { flatpickrTasks } from './catalog/flatpickr';
import { ionicTasks } from './catalog/ionic';
import { jqueryUiTasks } from './catalog/jquery-ui';
import { quillTasks } from './catalog/quill';
import { sortableTasks } from './catalog/sortablejs';
import { tiptapTasks } from './catalog/tiptap';
import { tomSelectTasks } from './catalog/tom-select';
import type { WidgetTask } from './task';

/** Every widget task, one module per library (add a library's module here). */
export const widgetTasks: WidgetTask[] = [
  ...tomSelectTasks,
  ...sortableTasks,
  ...flatpickrTasks,
  ...quillTasks,
  ...tiptapTasks,
  ...jqueryUiTasks,
  ...agGridTasks,
  ...ionicTasks,
];
