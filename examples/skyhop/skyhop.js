// SkyHop: a flight search site that publishes its tools with the tabmcp page SDK.
let results = [];
let booking = null;

function render() {
  document.getElementById('results').replaceChildren(
    ...results.map((fare) => {
      const li = document.createElement('li');
      li.textContent = `${fare.flight} ${fare.from} → ${fare.to} ${fare.date} ${fare.departs} $${fare.price}`;
      return li;
    }),
  );
  document.getElementById('booking').textContent = booking
    ? `Selected ${booking.flight} for ${booking.passengers} passenger(s): $${booking.price * booking.passengers}`
    : 'No flight selected.';
}

const site = new TabMcp.McpWindowProvider({ name: 'skyhop', version: '1.0.0' });
site.addTool(
  {
    name: 'search_flights',
    description: 'Search for flights. Returns the fares, cheapest first, with their index for select_flight.',
    inputSchema: {
      type: 'object',
      properties: {
        from: { type: 'string', description: 'Departure airport code' },
        to: { type: 'string', description: 'Arrival airport code' },
        departDate: { type: 'string', format: 'date' },
        returnDate: { type: 'string', format: 'date' },
        passengers: { type: 'number', default: 1 },
      },
      required: ['from', 'to', 'departDate'],
    },
    annotations: { readOnlyHint: true },
  },
  ({ from, to, departDate, passengers = 1 }) => {
    results = findFares(from, to, departDate, 50).map((fare) => ({ ...fare, passengers }));
    render();
    return { fares: results.map((fare, index) => ({ index, ...fare })), cheapest: results[0].price };
  },
);
site.addTool(
  {
    name: 'select_flight',
    description: 'Select a flight from the search results.',
    inputSchema: {
      type: 'object',
      properties: { index: { type: 'number', description: 'Flight result index' } },
      required: ['index'],
    },
  },
  ({ index }) => {
    const fare = results[index];
    if (!fare) throw new Error(`No result ${index}: search_flights first (results: ${results.length})`);
    booking = fare;
    render();
    return { selected: fare };
  },
);
site.addTool(
  {
    name: 'get_booking',
    description: 'The selected flight, if any.',
    inputSchema: { type: 'object', properties: {} },
    annotations: { readOnlyHint: true },
  },
  () => ({ booking }),
);
site.exposeOnWindow();
TabMcp.serveTab(site);
