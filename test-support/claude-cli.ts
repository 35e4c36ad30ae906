import { execFileSync } from 'node:child_process';
import { existsSync, mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { toolInstallDir } from './npm-tools';

/** Pinned: the check reads what `claude mcp list` prints. */
const CLAUDE_CODE = '@anthropic-ai/claude-code@2.1.197';
const INSTALL_DIR = toolInstallDir('claude');

/**
 * Claude Code's CLI, installed once into .tmp/claude with npm (a large native binary: not a
 * project dependency). Returns the path of its `claude` bin.
 */
export function installClaudeCode(): string {
  const bin = join(INSTALL_DIR, 'node_modules', '.bin', 'claude');
  if (!existsSync(bin)) {
    mkdirSync(INSTALL_DIR, { recursive: true });
    writeFileSync(join(INSTALL_DIR, 'package.json'), '{ "private": true }\n');
    execFileSync('npm', ['install', '--no-audit', '--no-fund', '--no-package-lock', CLAUDE_CODE], {
      cwd: INSTALL_DIR,
      stdio: ['ignore', 'ignore', 'inherit'],
      timeout: 600_000,
    });
  }
  return bin;
}
