import flatpickr from 'flatpickr';

// Glue only: a flatpickr date field as its docs set one up (a read-only input that opens the
// calendar). The date is what flatpickr itself holds in selectedDates.
const picker = flatpickr(document.getElementById('departure') as HTMLInputElement, { dateFormat: 'Y-m-d' });
Object.assign(window, {
  departure: () => picker.selectedDates.map((date) => picker.formatDate(date, 'Y-m-d')),
});
