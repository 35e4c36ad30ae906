/** A RESP2 value as Redis sends it. Errors are values here; the client turns them into rejections. */
export type RespValue = string | number | null | RespError | RespValue[];

export class RespError {
  constructor(readonly message: string) {}
}

const CR = 13;
const MAX_BULK_BYTES = 512 * 1024 * 1024;

/**
 * Incremental RESP2 decoder: feed it chunks, it calls back once per complete top-level value. A value cut
 * across chunks is re-read from its start when more bytes arrive (bulk payloads are skipped by length, so
 * that costs little).
 */
export class RespParser {
  private buffer: Buffer = Buffer.alloc(0);

  constructor(private readonly onValue: (value: RespValue) => void) {}

  feed(chunk: Buffer): void {
    this.buffer = this.buffer.length === 0 ? chunk : Buffer.concat([this.buffer, chunk]);
    let offset = 0;
    while (offset < this.buffer.length) {
      const parsed = this.read(offset);
      if (parsed === undefined) break;
      offset = parsed.next;
      this.onValue(parsed.value);
    }
    this.buffer = offset === this.buffer.length ? Buffer.alloc(0) : this.buffer.subarray(offset);
  }

  reset(): void {
    this.buffer = Buffer.alloc(0);
  }

  private read(offset: number): { value: RespValue; next: number } | undefined {
    const end = this.buffer.indexOf(CR, offset);
    if (end < 0 || end + 1 >= this.buffer.length) return undefined;
    const type = this.buffer[offset];
    const line = this.buffer.toString('utf8', offset + 1, end);
    const afterLine = end + 2;
    switch (type) {
      case 0x2b: // +
        return { value: line, next: afterLine };
      case 0x2d: // -
        return { value: new RespError(line), next: afterLine };
      case 0x3a: // :
        return { value: Number(line), next: afterLine };
      case 0x24: {
        // $
        const length = Number(line);
        if (length < 0) return { value: null, next: afterLine };
        if (!Number.isInteger(length) || length > MAX_BULK_BYTES) throw new Error(`Bad RESP bulk length ${line}`);
        if (afterLine + length + 2 > this.buffer.length) return undefined;
        return { value: this.buffer.toString('utf8', afterLine, afterLine + length), next: afterLine + length + 2 };
      }
      case 0x2a: {
        // *
        const count = Number(line);
        if (count < 0) return { value: null, next: afterLine };
        if (!Number.isInteger(count)) throw new Error(`Bad RESP array length ${line}`);
        const items: RespValue[] = [];
        let next = afterLine;
        for (let i = 0; i < count; i++) {
          const item = this.read(next);
          if (item === undefined) return undefined;
          items.push(item.value);
          next = item.next;
        }
        return { value: items, next };
      }
      default:
        throw new Error(`Unexpected RESP type byte ${type}`);
    }
  }
}

/** One command as a RESP array of bulk strings. */
export function encodeCommand(args: readonly (string | number)[]): string {
  let out = `*${args.length}\r\n`;
  for (const arg of args) {
    const text = String(arg);
    out += `$${Buffer.byteLength(text)}\r\n${text}\r\n`;
  }
  return out;
}
