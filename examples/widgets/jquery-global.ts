import jQuery from 'jquery';

// jQuery UI's widgets find jQuery on the page as a global, as a site's <script> tags leave it.
Object.assign(window, { jQuery, $: jQuery });
