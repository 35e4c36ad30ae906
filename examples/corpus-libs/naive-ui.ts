// Glue only: naive-ui's NSelect (a Vue 3 library: its own virtual option list, teleported to the body).
import { NConfigProvider, NFormItem, NSelect } from 'naive-ui';
import { createApp, defineComponent, h, ref } from 'vue';
import { countries, expose } from './shared';

const Shipping = defineComponent({
  setup() {
    const country = ref<string | null>(null);
    const pick = (value: string) => {
      country.value = value;
      expose('country', value);
    };
    return () =>
      h(NConfigProvider, null, () =>
        h('main', { style: 'max-width: 360px; margin: 2em' }, [
          h('h1', 'Shipping address'),
          h(NFormItem, { label: 'Country', labelPlacement: 'top' }, () =>
            h(NSelect, {
              value: country.value,
              'onUpdate:value': pick,
              placeholder: 'Choose a country',
              options: countries.map((name) => ({ label: name, value: name })),
            }),
          ),
        ]),
      );
  },
});

createApp(Shipping).mount('#app');
