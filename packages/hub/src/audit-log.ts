import type { AuditEntry } from '@tabmcp/protocol';

/** docs/requirements.md "Auditing": the last registrations and calls, with tab and domain, in a bounded ring. */
export class AuditLog {
  readonly #entries: AuditEntry[] = [];
  constructor(private readonly capacity = 200) {}

  add(entry: AuditEntry): void {
    this.#entries.push(entry);
    if (this.#entries.length > this.capacity) this.#entries.splice(0, this.#entries.length - this.capacity);
  }

  /** Newest first. */
  recent(kinds?: ReadonlyArray<AuditEntry['kind']>, limit = 50): AuditEntry[] {
    const picked = kinds ? this.#entries.filter((entry) => kinds.includes(entry.kind)) : this.#entries;
    return picked.slice(-limit).reverse();
  }
}
