import { sortableTasks } from './catalog/sortablejs';
import { tomSelectTasks } from './catalog/tom-select';
import type { WidgetTask } from './task';

/** Every widget task, one module per library (add a library's module here). */
export const widgetTasks: WidgetTask[] = [...tomSelectTasks, ...sortableTasks];
