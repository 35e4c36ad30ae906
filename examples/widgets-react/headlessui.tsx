import { Field, Label, Listbox, ListboxButton, ListboxOption, ListboxOptions } from '@headlessui/react';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { useExposed } from './shared';

// Glue only: Headless UI's Listbox in a labelled Field, its options anchored below the button.
const people = ['Unassigned', 'Wade Cooper', 'Arlene Mccoy', 'Devon Webb', 'Tom Cook'];

function Issue() {
  const [assignee, setAssignee] = useState(people[0]);
  useExposed('assignee', assignee);
  return (
    <main>
      <h1>Fix the login page</h1>
      <Field>
        <Label>Assignee</Label>
        <Listbox value={assignee} onChange={setAssignee}>
          <ListboxButton style={{ minWidth: 180, marginLeft: 8 }}>{assignee}</ListboxButton>
          <ListboxOptions anchor="bottom start" style={{ background: 'white', border: '1px solid #888' }}>
            {people.map((person) => (
              <ListboxOption key={person} value={person} style={{ padding: 4 }}>
                {person}
              </ListboxOption>
            ))}
          </ListboxOptions>
        </Listbox>
      </Field>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Issue />);
