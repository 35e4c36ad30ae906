/// <reference types="jqueryui" />
import './jquery-global';
import 'jquery-ui/dist/jquery-ui.js';
import jQuery from 'jquery';

// Glue only: jQuery UI's sortable over two connected lists (a chores board) and its autocomplete
// over a list of countries, as their demos set them up. The state is what the widgets report:
// sortable('toArray') per column, and the value autocomplete wrote when an entry was chosen.
const columns = jQuery('.column');
columns.sortable({ connectWith: '.column', attribute: 'data-id' });
let chosen = '';
jQuery('#destination').autocomplete({
  source: ['Australia', 'Austria', 'Brazil', 'Cameroon', 'Canada', 'Chile', 'Denmark', 'France'],
  select: (_event, ui) => {
    chosen = String(ui.item.value);
  },
});
Object.assign(window, {
  chores: () => ({
    todo: jQuery('#todo').sortable('toArray', { attribute: 'data-id' }),
    done: jQuery('#done').sortable('toArray', { attribute: 'data-id' }),
  }),
  destination: () => chosen,
});
