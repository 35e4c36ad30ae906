import { useEffect } from 'react';

/** The countries every picker on these pages offers, as a checkout form lists them. */
export const countries = [
  { code: 'AU', name: 'Australia' },
  { code: 'AT', name: 'Austria' },
  { code: 'BR', name: 'Brazil' },
  { code: 'CM', name: 'Cameroon' },
  { code: 'CA', name: 'Canada' },
  { code: 'CL', name: 'Chile' },
  { code: 'DK', name: 'Denmark' },
  { code: 'FR', name: 'France' },
];

export type Country = (typeof countries)[number];

/**
 * Puts a piece of the app's React state on `window` as a function (`window.<name>()`), so the gauntlet
 * judges a task by what the app holds, never by what a tool answered.
 */
export function useExposed(name: string, value: unknown): void {
  useEffect(() => {
    Object.assign(window, { [name]: () => value });
  }, [name, value]);
}
