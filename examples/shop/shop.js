// The demo shop: a small catalogue, a cart in page state, and three tools published on window.mcp.
const catalogue = [
  { id: 'p1', name: 'Blue Mug', price: 12.5 },
  { id: 'p2', name: 'Red Mug', price: 11 },
  { id: 'p3', name: 'Teapot', price: 34 },
  { id: 'p4', name: 'Tea Towel', price: 7.25 },
  { id: 'p5', name: 'Green Tea (100 g)', price: 9.9 },
];
const cart = new Map();

function money(value) {
  return `$${value.toFixed(2)}`;
}

function cartSummary() {
  const items = [...cart.entries()].map(([id, quantity]) => {
    const product = catalogue.find((p) => p.id === id);
    return { id, name: product.name, quantity, price: product.price, subtotal: product.price * quantity };
  });
  const total = items.reduce((sum, item) => sum + item.subtotal, 0);
  return { items, total: Math.round(total * 100) / 100 };
}

function render(results) {
  const list = document.getElementById('results');
  list.replaceChildren(
    ...results.map((product) => {
      const li = document.createElement('li');
      const button = document.createElement('button');
      button.textContent = 'Add to cart';
      button.addEventListener('click', () => addToCart(product.id, 1));
      li.append(`${product.name} (${money(product.price)}) `, button);
      return li;
    }),
  );
}

function renderCart() {
  const { items, total } = cartSummary();
  document.getElementById('cart-items').replaceChildren(
    ...items.map((item) => {
      const li = document.createElement('li');
      li.textContent = `${item.quantity} × ${item.name}: ${money(item.subtotal)}`;
      return li;
    }),
  );
  document.getElementById('cart-total').textContent = money(total);
}

function search(query) {
  const needle = query.trim().toLowerCase();
  const results = catalogue.filter((p) => p.name.toLowerCase().includes(needle));
  document.getElementById('query').value = query;
  render(results);
  return results;
}

function addToCart(productId, quantity) {
  if (!catalogue.some((p) => p.id === productId)) throw new Error(`No product with id ${productId}; search first`);
  cart.set(productId, (cart.get(productId) ?? 0) + quantity);
  renderCart();
  return cartSummary();
}

document.getElementById('query').addEventListener('input', (event) => search(event.target.value));
search('');

const shop = new TabMcp.McpWindowProvider({ name: 'tiny-shop', version: '1.0.0' });
shop.addTool(
  {
    name: 'search_products',
    title: 'Search products',
    description: 'Search the shop catalogue by name. Returns matching products with id, name and price.',
    inputSchema: {
      type: 'object',
      properties: { query: { type: 'string', description: 'Words to look for, e.g. "mug"' } },
      required: ['query'],
    },
    annotations: { readOnlyHint: true },
  },
  ({ query }) => ({ products: search(query) }),
);
shop.addTool(
  {
    name: 'add_to_cart',
    title: 'Add to cart',
    description: 'Put a product (by id from search_products) into the cart. Returns the whole cart.',
    inputSchema: {
      type: 'object',
      properties: {
        productId: { type: 'string', description: 'Product id such as "p1"' },
        quantity: { type: 'integer', minimum: 1, maximum: 99, default: 1 },
      },
      required: ['productId'],
    },
    outputSchema: {
      type: 'object',
      properties: { items: { type: 'array' }, total: { type: 'number' } },
      required: ['items', 'total'],
    },
  },
  ({ productId, quantity = 1 }) => addToCart(productId, quantity),
);
shop.addTool(
  {
    name: 'get_cart',
    title: 'Read the cart',
    description: 'The cart: items with quantities and subtotals, and the total in dollars.',
    inputSchema: { type: 'object', properties: {} },
    outputSchema: {
      type: 'object',
      properties: { items: { type: 'array' }, total: { type: 'number' } },
      required: ['items', 'total'],
    },
    annotations: { readOnlyHint: true },
  },
  () => cartSummary(),
);
shop.addResource({ uri: 'shop://cart', name: 'Cart', mimeType: 'application/json' }, async (uri) => ({
  contents: [{ uri, mimeType: 'application/json', text: JSON.stringify(cartSummary()) }],
}));
shop.exposeOnWindow();
TabMcp.serveTab(shop);
