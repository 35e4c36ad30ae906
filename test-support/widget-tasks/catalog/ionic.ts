import type { WidgetTask } from '../task';

export const ionicTasks: WidgetTask[] = [
  {
    id: 'ionic/show-favorites',
    library: '@ionic/core',
    path: '/widgets/ionic.html',
    ask: 'show the favorites',
    steps: [{ act: 'click', target: { name: 'Favorites' } }],
    done: "window.settings().view === 'favorites'",
    state: 'window.settings()',
  },
  {
    id: 'ionic/turn-on-notifications',
    library: '@ionic/core',
    path: '/widgets/ionic.html',
    ask: 'turn on notifications',
    steps: [{ act: 'click', target: { role: 'switch', name: 'Notifications' } }],
    done: 'window.settings().notifications === true',
    state: 'window.settings()',
  },
];
