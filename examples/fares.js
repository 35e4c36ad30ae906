// Fares shared by the two demo flight sites. Every route costs the same on a site, and the sites
// differ by a fixed margin, so the comparison workflow of docs/requirements.md#local-server has one answer.
// biome-ignore lint/correctness/noUnusedVariables: a classic script that defines a global for the sites
function findFares(from, to, date, margin) {
  const base = 400 + margin;
  return [
    { flight: 'TM 101', departs: '07:10', price: base },
    { flight: 'TM 207', departs: '12:45', price: base + 35 },
    { flight: 'TM 311', departs: '18:30', price: base + 80 },
  ].map((fare) => ({ ...fare, from: from.toUpperCase(), to: to.toUpperCase(), date }));
}
