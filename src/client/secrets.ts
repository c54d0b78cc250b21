const REDACTED = "[redacted]";
/** Shorter strings are too likely to occur by chance in ordinary text to be scrubbed usefully. */
const MIN_SECRET_LENGTH = 6;
/** Access tokens rotate; older ones may still be echoed by a slow response. */
const MAX_REMEMBERED = 16;

/**
 * The key and every access token the client has held, kept in a private field (not shown by
 * `util.inspect` or `JSON.stringify`), so that anything a server or a fetch implementation echoes back
 * can be scrubbed before it reaches an error.
 */
export class Secrets {
  readonly #values: string[] = [];

  add(secret: string): void {
    if (secret.length < MIN_SECRET_LENGTH || this.#values.includes(secret)) return;
    this.#values.push(secret);
    if (this.#values.length > MAX_REMEMBERED + 1) this.#values.splice(1, 1); // index 0 is the key
  }

  scrub(text: string): string {
    let out = text;
    for (const secret of this.#values) if (out.includes(secret)) out = out.split(secret).join(REDACTED);
    return out;
  }

  /** A deep copy of a parsed body with every string scrubbed (keys included). */
  scrubValue(value: unknown, depth = 0): unknown {
    if (typeof value === "string") return this.scrub(value);
    if (value === null || typeof value !== "object" || depth > 64) return value;
    if (Array.isArray(value)) return value.map((item) => this.scrubValue(item, depth + 1));
    const out: Record<string, unknown> = {};
    for (const [key, item] of Object.entries(value)) out[this.scrub(key)] = this.scrubValue(item, depth + 1);
    return out;
  }

  toJSON(): string {
    return REDACTED;
  }
}
