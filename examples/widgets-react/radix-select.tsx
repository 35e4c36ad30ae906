import * as Select from '@radix-ui/react-select';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { countries, useExposed } from './shared';

// Glue only: Radix's Select as its docs compose it (trigger, portalled content, items).
function Shipping() {
  const [country, setCountry] = useState('');
  useExposed('countryPicked', country);
  return (
    <main>
      <h1>Shipping address</h1>
      <Select.Root value={country} onValueChange={setCountry}>
        <Select.Trigger aria-label="Country" style={{ minWidth: 200 }}>
          <Select.Value placeholder="Choose a country" />
          <Select.Icon> ▾</Select.Icon>
        </Select.Trigger>
        <Select.Portal>
          <Select.Content position="popper" style={{ background: 'white', border: '1px solid #888' }}>
            <Select.Viewport>
              {countries.map((entry) => (
                <Select.Item key={entry.code} value={entry.code} style={{ padding: 4 }}>
                  <Select.ItemText>{entry.name}</Select.ItemText>
                </Select.Item>
              ))}
            </Select.Viewport>
          </Select.Content>
        </Select.Portal>
      </Select.Root>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Shipping />);
