// The floor's worker: one WebSocket to the bench's Node server, one Port per tab. It relays and adds nothing.
const ports = new Map();
let socket;

async function dial() {
  const config = await fetch(chrome.runtime.getURL('config.json')).then((response) => response.json());
  socket = new WebSocket(`ws://127.0.0.1:${config.port}/`);
  socket.onopen = () => {
    socket.send(JSON.stringify({ type: 'hello' }));
    for (const tabId of ports.keys()) socket.send(JSON.stringify({ type: 'ready', tabId }));
  };
  socket.onmessage = (event) => {
    const message = JSON.parse(event.data);
    if (message.type === 'echo') socket.send(event.data);
    // The floor of a cold start: open a tab; its content script reports `ready` once its Port is up.
    else if (message.type === 'open') chrome.tabs.create({ url: message.url, active: true });
    else if (message.type === 'ping' || message.type === 'mcp') ports.get(message.tabId)?.postMessage(message);
  };
  socket.onclose = () => setTimeout(dial, 200);
}

chrome.runtime.onConnect.addListener((port) => {
  if (port.name !== 'floor' || !port.sender?.tab) return;
  const tabId = port.sender.tab.id;
  ports.set(tabId, port);
  port.onMessage.addListener((message) => socket?.send(JSON.stringify({ ...message, type: 'pong', tabId })));
  port.onDisconnect.addListener(() => ports.delete(tabId));
  if (socket?.readyState === WebSocket.OPEN) socket.send(JSON.stringify({ type: 'ready', tabId }));
});

// An open WebSocket does not keep an MV3 worker alive; a message every 20 s does.
setInterval(() => socket?.readyState === WebSocket.OPEN && socket.send(JSON.stringify({ type: 'keepalive' })), 20_000);

dial();
