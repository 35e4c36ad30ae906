export interface ListedExtension {
  id: string;
  name: string;
  connected: boolean;
}

/**
 * Which browser to connect to: the one with the given id, else the one with the given name
 * (the newest if several: a browser that reconnected gets a new id), else the only or first one.
 * Returns why not when none fits, in words an agent can act on.
 */
export function chooseExtension(
  extensions: readonly ListedExtension[],
  wanted: { extensionId?: string; browserName?: string },
): { extension: ListedExtension } | { problem: string } {
  const live = extensions.filter((extension) => extension.connected);
  const names = live.map((extension) => `"${extension.name}"`).join(', ') || 'none';
  if (wanted.extensionId !== undefined) {
    const found = live.find((extension) => extension.id === wanted.extensionId);
    return found
      ? { extension: found }
      : { problem: `No browser with id ${wanted.extensionId} is connected to the proxy (connected: ${names}).` };
  }
  if (wanted.browserName !== undefined) {
    const found = live.filter((extension) => extension.name === wanted.browserName).at(-1);
    return found
      ? { extension: found }
      : { problem: `No browser named "${wanted.browserName}" is connected to the proxy (connected: ${names}).` };
  }
  const [first] = live;
  return first
    ? { extension: first }
    : {
        problem:
          "No browser is connected to the proxy for this token's user: open the tabmcp extension's options in the browser and set the proxy URL and a token of the same user (docs/remote.md).",
      };
}
