import { randomBytes } from 'node:crypto';
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { homedir } from 'node:os';
import { join } from 'node:path';

/** Where tabmcp keeps its pairing token, kept browser logs and installed extension: $TABMCP_HOME or ~/.tabmcp. */
export function tabmcpHome(env: NodeJS.ProcessEnv = process.env): string {
  return env.TABMCP_HOME ?? join(homedir(), '.tabmcp');
}

/**
 * The pairing token the extension must present. It is created once and kept, so a person pairs
 * their own Chrome once; `--launch` hands it to the browser it starts.
 */
export function loadOrCreateToken(home: string = tabmcpHome()): string {
  const file = join(home, 'pairing-token');
  if (existsSync(file)) {
    const token = readFileSync(file, 'utf8').trim();
    if (token.length >= 16) return token;
  }
  mkdirSync(home, { recursive: true, mode: 0o700 });
  const token = randomBytes(24).toString('base64url');
  writeFileSync(file, `${token}\n`, { mode: 0o600 });
  chmodSync(file, 0o600);
  return token;
}
