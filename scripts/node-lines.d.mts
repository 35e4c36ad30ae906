export const NODE_LINES: number[];
export function runningLine(): number;
export function nodeOfLine(line: number): string;
export function testOtherLines(): Promise<boolean>;
