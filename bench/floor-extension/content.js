// The floor's content script: Port from the worker, postMessage to the page, and back. A `ping` is
// answered by the page's bare listener; an `mcp` ping is a tools/call to the page SDK's own tab server.
const port = chrome.runtime.connect({ name: 'floor' });
const CHANNEL = 'mcp-default';

port.onMessage.addListener((message) => {
  if (message.type === 'mcp') {
    const payload = {
      jsonrpc: '2.0',
      id: `floor-${message.n}`,
      method: 'tools/call',
      params: { name: 'echo', arguments: { text: 'x' } },
    };
    window.postMessage({ channel: CHANNEL, type: 'mcp', direction: 'client-to-server', payload }, location.origin);
  } else {
    window.postMessage({ floor: 'ping', n: message.n }, location.origin);
  }
});

window.addEventListener('message', (event) => {
  if (event.source !== window) return;
  const data = event.data;
  if (data?.floor === 'pong') port.postMessage({ n: data.n });
  else if (
    data?.channel === CHANNEL &&
    data.direction === 'server-to-client' &&
    typeof data.payload?.id === 'string' &&
    data.payload.id.startsWith('floor-')
  ) {
    port.postMessage({ n: Number(data.payload.id.slice(6)) });
  }
});
