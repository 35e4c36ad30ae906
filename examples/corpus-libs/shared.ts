/**
 * Puts what the app holds on `window.corpusState`, so the corpus judges a task by the app's own
 * state (issue 37), never by what a tool answered.
 */
export function expose(name: string, value: unknown): void {
  const page = window as unknown as { corpusState?: Record<string, unknown> };
  page.corpusState = { ...page.corpusState, [name]: value };
}

/** The countries the pickers on these pages offer, as a checkout form lists them. */
export const countries = ['Australia', 'Austria', 'Brazil', 'Cameroon', 'Canada', 'Chile', 'Denmark', 'France'];
