import { initialize } from '@ionic/core/components';
import { defineCustomElement as defineApp } from '@ionic/core/components/ion-app.js';
import { defineCustomElement as defineContent } from '@ionic/core/components/ion-content.js';
import { defineCustomElement as defineItem } from '@ionic/core/components/ion-item.js';
import { defineCustomElement as defineLabel } from '@ionic/core/components/ion-label.js';
import { defineCustomElement as defineList } from '@ionic/core/components/ion-list.js';
import { defineCustomElement as defineSegment } from '@ionic/core/components/ion-segment.js';
import { defineCustomElement as defineSegmentButton } from '@ionic/core/components/ion-segment-button.js';
import { defineCustomElement as defineSelect } from '@ionic/core/components/ion-select.js';
import { defineCustomElement as defineSelectOption } from '@ionic/core/components/ion-select-option.js';
import { defineCustomElement as defineToggle } from '@ionic/core/components/ion-toggle.js';

// Glue only: Ionic's web components (a segment, a toggle, a select with its popover), registered
// as Ionic's docs show for apps without a framework. The state is each component's own property.
initialize();
for (const define of [
  defineApp,
  defineContent,
  defineItem,
  defineLabel,
  defineList,
  defineSegment,
  defineSegmentButton,
  defineSelect,
  defineSelectOption,
  defineToggle,
])
  define();
const read = <T>(id: string) => document.getElementById(id) as unknown as T;
Object.assign(window, {
  settings: () => ({
    view: read<{ value?: string }>('view').value,
    notifications: read<{ checked: boolean }>('notifications').checked,
    language: read<{ value?: string }>('language').value,
  }),
});
