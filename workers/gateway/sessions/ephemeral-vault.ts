import type { PiiItem } from "../../../shared/contract/session";

/**
 * The PII vault of an execution that has no session: tokens are consistent within the execution
 * and cannot be restored later (there is nowhere to keep them).
 */
export class EphemeralVault {
  readonly #tokens = new Map<string, string>();
  readonly #values = new Map<string, string>();
  readonly #counts = new Map<string, number>();

  tokenize(items: PiiItem[]): string[] {
    return items.map(({ kind, key, value }) => {
      const id = `${kind}\u0000${key}`;
      let token = this.#tokens.get(id);
      if (token === undefined) {
        const n = (this.#counts.get(kind) ?? 0) + 1;
        this.#counts.set(kind, n);
        token = `[${kind}_${n}]`;
        this.#tokens.set(id, token);
        this.#values.set(token, value);
      }
      return token;
    });
  }

  restore(tokens: string[]): Array<string | null> {
    return tokens.map((token) => this.#values.get(token) ?? null);
  }
}
