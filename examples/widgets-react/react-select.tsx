import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import Select from 'react-select';
import { countries, useExposed } from './shared';

// Glue only: a react-select type-ahead labelled by a <label>, as a checkout form sets it up.
const options = countries.map((entry) => ({ value: entry.code, label: entry.name }));

function Shipping() {
  const [country, setCountry] = useState<(typeof options)[number] | null>(null);
  useExposed('countryPicked', country?.value ?? '');
  return (
    <main>
      <h1>Shipping address</h1>
      <label htmlFor="country">Country</label>
      <Select inputId="country" options={options} value={country} onChange={setCountry} placeholder="Type a country" />
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Shipping />);
