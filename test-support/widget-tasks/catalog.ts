import { dialogTasks } from './catalog/dialogs';
import { plainHtmlTasks } from './catalog/plain-html';
import { sortableTasks } from './catalog/sortablejs';
import { tomSelectTasks } from './catalog/tom-select';
import { webComponentTasks } from './catalog/web-components';
import type { WidgetTask } from './task';

/** Every widget task, one module per library (add a library's module here). */
export const widgetTasks: WidgetTask[] = [
  ...tomSelectTasks,
  ...sortableTasks,
  ...plainHtmlTasks,
  ...webComponentTasks,
  ...dialogTasks,
];
