// Glue around Material Web's own components: a trip form with a select, a text field, a switch and tabs.
import '@material/web/textfield/outlined-text-field.js';
import '@material/web/select/outlined-select.js';
import '@material/web/select/select-option.js';
import '@material/web/switch/switch.js';
import '@material/web/tabs/tabs.js';
import '@material/web/tabs/primary-tab.js';
import '@material/web/button/filled-button.js';

const form = document.querySelector('form') as HTMLFormElement;
form.addEventListener('submit', (event) => {
  event.preventDefault();
  document.body.dataset.trip = JSON.stringify(Object.fromEntries(new FormData(form)));
});
