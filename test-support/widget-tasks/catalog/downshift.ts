import type { WidgetTask } from '../task';
import { pickCanadaByTyping } from './type-ahead';

export const downshiftTasks: WidgetTask[] = [
  pickCanadaByTyping('downshift/pick-canada', 'downshift', '/widgets-react/downshift.html'),
];
