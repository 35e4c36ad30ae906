import type { Plugin } from 'esbuild';

export function withFailureClass(source: string): string;
export const zodFailureShape: Plugin;
