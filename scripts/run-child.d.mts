export function runChild(
  node: string,
  args: string[],
  options: { cwd: string; env?: Record<string, string>; timeoutMs: number },
): Promise<{ status: number | null; output: string }>;
