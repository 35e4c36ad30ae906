// FareFinder: plain JavaScript, no tabmcp SDK. The form renders results in place.
const form = document.getElementById('search');
form.addEventListener('submit', (event) => {
  event.preventDefault();
  const data = new FormData(form);
  const passengers = Number(data.get('passengers') || 1);
  const fares = findFares(String(data.get('from')), String(data.get('to')), String(data.get('departDate')), 120);
  document.getElementById('results').replaceChildren(
    ...fares.map((fare) => {
      const li = document.createElement('li');
      li.textContent = `${fare.flight} ${fare.from} → ${fare.to} ${fare.date} ${fare.departs} $${fare.price} `;
      const button = document.createElement('button');
      button.type = 'button';
      button.textContent = 'Select flight';
      button.addEventListener('click', () => {
        document.getElementById('selection').textContent =
          `Selected ${fare.flight} for ${passengers} passenger(s): $${fare.price * passengers}`;
      });
      li.append(button);
      return li;
    }),
  );
});
