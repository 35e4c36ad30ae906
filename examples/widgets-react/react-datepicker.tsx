import { useState } from 'react';
import DatePicker from 'react-datepicker';
import { createRoot } from 'react-dom/client';
import { useExposed } from './shared';

// Glue only: react-datepicker on a labelled input, with a written-out date format, its calendar opened
// on the month of the trip.
const isoDay = (date: Date | null) =>
  date
    ? `${date.getFullYear()}-${String(date.getMonth() + 1).padStart(2, '0')}-${String(date.getDate()).padStart(2, '0')}`
    : '';

function Trip() {
  const [departure, setDeparture] = useState<Date | null>(null);
  useExposed('departure', isoDay(departure));
  return (
    <main>
      <h1>Plan a trip</h1>
      <label htmlFor="departure">Departure date</label>
      <DatePicker
        id="departure"
        selected={departure}
        onChange={(date: Date | null) => setDeparture(date)}
        dateFormat="d MMMM yyyy"
        openToDate={new Date(2027, 2, 1)}
        placeholderText="Pick a date"
      />
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Trip />);
