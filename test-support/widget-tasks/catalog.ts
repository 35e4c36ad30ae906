import { agGridTasks } from './catalog/ag-grid';
import { dialogTasks } from './catalog/dialogs';
import { downshiftTasks } from './catalog/downshift';
import { flatpickrTasks } from './catalog/flatpickr';
import { headlessUiTasks } from './catalog/headlessui';
import { ionicTasks } from './catalog/ionic';
import { jqueryUiTasks } from './catalog/jquery-ui';
import { muiTasks } from './catalog/mui';
import { plainHtmlTasks } from './catalog/plain-html';
import { quillTasks } from './catalog/quill';
import { radixSelectTasks } from './catalog/radix-select';
import { reactDatepickerTasks } from './catalog/react-datepicker';
import { reactSelectTasks } from './catalog/react-select';
import { sortableTasks } from './catalog/sortablejs';
import { tanstackTableTasks } from './catalog/tanstack-table';
import { tiptapTasks } from './catalog/tiptap';
import { tomSelectTasks } from './catalog/tom-select';
import { webComponentTasks } from './catalog/web-components';
import type { WidgetTask } from './task';

/** Every widget task, one module per library (add a library's module here). */
export const widgetTasks: WidgetTask[] = [
  ...tomSelectTasks,
  ...sortableTasks,
  ...radixSelectTasks,
  ...reactSelectTasks,
  ...downshiftTasks,
  ...headlessUiTasks,
  ...muiTasks,
  ...tanstackTableTasks,
  ...reactDatepickerTasks,
  ...plainHtmlTasks,
  ...webComponentTasks,
  ...dialogTasks,
  ...flatpickrTasks,
  ...quillTasks,
  ...tiptapTasks,
  ...jqueryUiTasks,
  ...agGridTasks,
  ...ionicTasks,
];
