/**
 * The server's one SQL parameter builder: SQL is built from fixed fragments, and every
 * value from a request enters as a positional bind parameter (`$1`, `$2`, …), never as text.
 */
export class Params {
  readonly values: unknown[] = [];

  /** Adds a value and answers its placeholder. */
  add(value: unknown): string {
    this.values.push(value);
    return `$${this.values.length}`;
  }
}
