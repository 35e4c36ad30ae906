import { join } from 'node:path';
import { type LaunchedChromium, launchChromium } from '../../test-support/chromium';
import { repoRoot } from '../../test-support/paths';

/** What a rig starts, closed in reverse order however far the start got. */
export class Parts {
  readonly #closers: Array<() => Promise<void>> = [];

  add<T extends { close(): Promise<void> }>(part: T): T {
    this.#closers.push(() => part.close());
    return part;
  }

  readonly close = async (): Promise<void> => {
    for (const closer of this.#closers.splice(0).reverse()) await closer().catch(() => {});
  };
}

/** Starts a rig with `start`; if that throws, what it had started is closed before the error goes on. */
export async function assemble<T>(start: (parts: Parts) => Promise<T>): Promise<T> {
  const parts = new Parts();
  try {
    return await start(parts);
  } catch (error) {
    await parts.close();
    throw error;
  }
}

/**
 * One Chromium with tabmcp's built extension (dialling `link`) and the floor extension (dialling
 * `floorPort`): the same browser, tab and page serve the product path and its floor.
 */
export function launchWithFloor(link: { port: number; token: string }, floorPort: number): Promise<LaunchedChromium> {
  return launchChromium([
    { dir: join(repoRoot, 'packages', 'extension', 'dist'), config: link },
    { dir: join(repoRoot, 'bench', 'floor-extension'), config: { port: floorPort } },
  ]);
}
