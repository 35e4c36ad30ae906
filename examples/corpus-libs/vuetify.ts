// Glue only: a trip booking form of Vuetify components (v-select with its menu teleported to the body,
// v-switch, v-date-picker, v-dialog), with Vuetify's own styles and its SVG icon set.
import 'vuetify/styles';
import { createApp, defineComponent, h, ref, resolveComponent } from 'vue';
import { createVuetify } from 'vuetify';
import * as components from 'vuetify/components';
import { aliases, mdi } from 'vuetify/iconsets/mdi-svg';
import { countries, expose } from './shared';

const Booking = defineComponent({
  setup() {
    // Registered by createVuetify, as an app's templates use them (their typings clash with h()'s for some).
    const VApp = resolveComponent('VApp');
    const VMain = resolveComponent('VMain');
    const VSelect = resolveComponent('VSelect');
    const VSwitch = resolveComponent('VSwitch');
    const VDatePicker = resolveComponent('VDatePicker');
    const VBtn = resolveComponent('VBtn');
    const VDialog = resolveComponent('VDialog');
    const VCard = resolveComponent('VCard');
    const VCardTitle = resolveComponent('VCardTitle');
    const VCardActions = resolveComponent('VCardActions');
    const country = ref<string | null>(null);
    const insured = ref(false);
    const departure = ref<Date | null>(null);
    const confirming = ref(false);
    const cancelled = ref(false);
    const cancel = () => {
      confirming.value = false;
      cancelled.value = true;
      expose('cancelled', true);
    };
    return () =>
      h(VApp, null, () =>
        h(VMain, null, () =>
          h('div', { style: 'max-width: 420px; margin: 2em' }, [
            h('h1', 'Book a trip'),
            h(VSelect, {
              label: 'Country',
              items: countries,
              modelValue: country.value,
              'onUpdate:modelValue': (value: string) => {
                country.value = value;
                expose('country', value);
              },
            }),
            h(VSwitch, {
              label: 'Travel insurance',
              color: 'primary',
              modelValue: insured.value,
              'onUpdate:modelValue': (value: boolean | null) => {
                insured.value = value === true;
                expose('insured', insured.value);
              },
            }),
            h('h2', 'Departure date'),
            // Opens on June 2026 whatever today is, so the task's days stay where it expects them.
            h(VDatePicker, {
              title: 'Departure date',
              month: 5,
              year: 2026,
              modelValue: departure.value,
              'onUpdate:modelValue': (value: Date) => {
                departure.value = value;
                expose('departure', `${value.getFullYear()}-${value.getMonth() + 1}-${value.getDate()}`);
              },
            }),
            h(VBtn, { class: 'mt-4', disabled: cancelled.value, onClick: () => (confirming.value = true) }, () =>
              cancelled.value ? 'Booking cancelled' : 'Cancel booking',
            ),
            h(
              VDialog,
              {
                modelValue: confirming.value,
                'onUpdate:modelValue': (open: boolean) => (confirming.value = open),
                maxWidth: 360,
              },
              () =>
                h(VCard, null, () => [
                  h(VCardTitle, null, () => 'Cancel this booking?'),
                  h(VCardActions, null, () => [
                    h(VBtn, { onClick: () => (confirming.value = false) }, () => 'Keep it'),
                    h(VBtn, { color: 'error', onClick: cancel }, () => 'Yes, cancel'),
                  ]),
                ]),
            ),
          ]),
        ),
      );
  },
});

createApp(Booking)
  .use(createVuetify({ components, icons: { defaultSet: 'mdi', aliases, sets: { mdi } } }))
  .mount('#app');
