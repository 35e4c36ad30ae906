import type { WidgetTask } from '../task';
import { pickCanadaByTyping } from './type-ahead';

export const muiTasks: WidgetTask[] = [
  pickCanadaByTyping('mui/autocomplete-pick-canada', '@mui/material', '/widgets-react/mui-autocomplete.html'),
  {
    id: 'mui/select-business-plan',
    library: '@mui/material',
    path: '/widgets-react/mui-select.html',
    ask: 'switch the plan to Business',
    steps: [
      // MUI names the select by its label and then the value it shows ("Plan Free").
      { act: 'click', target: { role: 'combobox', name: 'Plan', starts: true } },
      { act: 'click', target: { role: 'option', name: 'Business' } },
    ],
    done: "window.plan() === 'business'",
    state: 'window.plan()',
  },
  {
    id: 'mui/dialog-confirm-delete',
    library: '@mui/material',
    path: '/widgets-react/mui-dialog.html',
    ask: 'delete the project (open the dialog and confirm)',
    steps: [
      { act: 'click', target: { role: 'button', name: 'Delete project' } },
      { act: 'click', target: { role: 'button', name: 'Delete' } },
    ],
    done: 'window.projectDeleted() === true',
    state: 'window.projectDeleted()',
  },
  {
    id: 'mui/tabs-billing',
    library: '@mui/material',
    path: '/widgets-react/mui-tabs.html',
    ask: 'switch to the Billing tab',
    steps: [{ act: 'click', target: { role: 'tab', name: 'Billing' } }],
    done: "window.accountTab() === 'billing'",
    state: 'window.accountTab()',
  },
];
