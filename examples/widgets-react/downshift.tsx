import { useCombobox } from 'downshift';
import { useState } from 'react';
import { createRoot } from 'react-dom/client';
import { type Country, countries, useExposed } from './shared';

// Glue only: Downshift's useCombobox hook over a filtered list, as its docs' first example builds it.
function Shipping() {
  const [items, setItems] = useState(countries);
  const [country, setCountry] = useState<Country | null>(null);
  useExposed('countryPicked', country?.code ?? '');
  const { isOpen, highlightedIndex, getLabelProps, getInputProps, getMenuProps, getItemProps } = useCombobox({
    items,
    selectedItem: country,
    itemToString: (item) => item?.name ?? '',
    onSelectedItemChange: ({ selectedItem }) => setCountry(selectedItem ?? null),
    onInputValueChange: ({ inputValue }) =>
      setItems(countries.filter((entry) => entry.name.toLowerCase().startsWith(inputValue.toLowerCase()))),
  });
  return (
    <main>
      <h1>Shipping address</h1>
      {/* biome-ignore lint/a11y/noLabelWithoutControl: getLabelProps() gives it its htmlFor */}
      <label {...getLabelProps()}>Country</label>
      <input {...getInputProps()} placeholder="Type a country" />
      <ul {...getMenuProps()} style={{ listStyle: 'none', padding: 0 }}>
        {isOpen &&
          items.map((item, index) => (
            <li
              key={item.code}
              {...getItemProps({ item, index })}
              style={{ background: highlightedIndex === index ? '#bde4ff' : 'white', padding: 4 }}
            >
              {item.name}
            </li>
          ))}
      </ul>
    </main>
  );
}

createRoot(document.getElementById('root') as HTMLElement).render(<Shipping />);
