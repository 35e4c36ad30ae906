import type { WidgetTask } from '../task';
import { pickCanadaByTyping } from './type-ahead';

export const reactSelectTasks: WidgetTask[] = [
  pickCanadaByTyping('react-select/pick-canada', 'react-select', '/widgets-react/react-select.html'),
];
