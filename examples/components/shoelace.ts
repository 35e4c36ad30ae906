// Glue around Shoelace's own components: a sign-up form and a welcome dialog.
import '@shoelace-style/shoelace/dist/components/input/input.js';
import '@shoelace-style/shoelace/dist/components/select/select.js';
import '@shoelace-style/shoelace/dist/components/option/option.js';
import '@shoelace-style/shoelace/dist/components/checkbox/checkbox.js';
import '@shoelace-style/shoelace/dist/components/button/button.js';
import '@shoelace-style/shoelace/dist/components/dialog/dialog.js';

const form = document.querySelector('form') as HTMLFormElement;
const dialog = document.querySelector('sl-dialog') as HTMLElement & { show(): void; hide(): void };
form.addEventListener('submit', (event) => {
  event.preventDefault();
  document.body.dataset.signup = JSON.stringify(Object.fromEntries(new FormData(form)));
  dialog.show();
});
document.querySelector('#done')?.addEventListener('click', () => dialog.hide());
