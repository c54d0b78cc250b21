import { randomBytes } from "node:crypto";
import {
  closeSync,
  fdatasyncSync,
  fsyncSync,
  ftruncateSync,
  openSync,
  readdirSync,
  readFileSync,
  renameSync,
  rmSync,
  writeSync,
} from "node:fs";
import { open } from "node:fs/promises";
import { basename, dirname } from "node:path";
import type { Redo } from "./changes.js";
import { collectionNames, type StoreState } from "../../src/contract/state.js";

/**
 * The persist file and its write-ahead log. The file holds a snapshot in the seed format; every
 * acknowledged change since then is a line in a log segment next to it (`<file>.wal.<n>`), written
 * and fsynced before the answer leaves. Once a segment outgrows the snapshot, a new segment is
 * started and a new snapshot is written in the background, a chunk of records per event-loop turn;
 * when it has replaced the old one, the segments it covers are deleted. So a write costs its own
 * size, and the rewrites a compaction does are paid for by at least as many bytes of log.
 *
 * Recovery reads the snapshot and replays every segment in order. Redo records set whole records,
 * so replaying a segment the snapshot already holds changes nothing; a torn last line (a crash in
 * the middle of an append, before its answer) is dropped.
 */
export interface WalTuning {
  /**
   * Compact once the current segment holds this many bytes. Default: as many bytes as the snapshot,
   * and at least 1 MiB.
   */
  readonly compactAfterBytes?: number;
}

export interface Persisted {
  /** The snapshot, parsed JSON in the seed format. */
  readonly snapshot: unknown;
  readonly redo: readonly Redo[];
}

const MIN_COMPACT_AFTER_BYTES = 1 << 20;
/** Records serialised per event-loop turn while compacting. */
const CHUNK = 2_000;

const segmentName = (path: string, n: number) => `${path}.wal.${n}`;

/** The persisted state, or undefined on a first start (no snapshot yet). */
export function readPersisted(path: string): Persisted | undefined {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`persist file ${path}: cannot read it: ${(error as Error).message}`);
  }
  let snapshot: unknown;
  try {
    snapshot = JSON.parse(text) as unknown;
  } catch (error) {
    throw new Error(`persist file ${path}: expected JSON in the seed format, found a parse error: ${(error as Error).message}`);
  }
  const redo: Redo[] = [];
  for (const n of segments(path)) redo.push(...readSegment(segmentName(path, n)));
  return { snapshot, redo };
}

/** Segment numbers present next to `path`, ascending. */
function segments(path: string): number[] {
  const prefix = `${basename(path)}.wal.`;
  return readdirSync(dirname(path))
    .filter((name) => name.startsWith(prefix) && /^\d+$/.test(name.slice(prefix.length)))
    .map((name) => Number(name.slice(prefix.length)))
    .sort((a, b) => a - b);
}

function readSegment(file: string): Redo[] {
  const lines = readFileSync(file, "utf8").split("\n");
  // The text after the last newline is a torn append (never acknowledged) or nothing.
  lines.pop();
  const out: Redo[] = [];
  lines.forEach((line, index) => {
    let entry: unknown;
    try {
      entry = JSON.parse(line) as unknown;
    } catch (error) {
      throw new Error(
        `persist log ${file}, line ${index + 1}: expected a JSON redo entry, found a parse error: ${(error as Error).message}`,
      );
    }
    if (!Array.isArray(entry)) throw new Error(`persist log ${file}, line ${index + 1}: expected an array of redo records`);
    out.push(...(entry as Redo[]));
  });
  return out;
}

/** The snapshot text, piece by piece: one record per line, collections in dependency order. */
function* snapshotPieces(rows: readonly (readonly [string, readonly unknown[]])[]): Generator<string> {
  yield "{";
  let first = true;
  for (const [name, records] of rows) {
    yield `${first ? "" : ","}\n${JSON.stringify(name)}: [`;
    first = false;
    for (let start = 0; start < records.length; start += CHUNK) {
      const chunk = records.slice(start, start + CHUNK).map((r) => JSON.stringify(r));
      yield `${start === 0 ? "" : ","}\n${chunk.join(",\n")}`;
    }
    yield "\n]";
  }
  yield "\n}\n";
}

/** Shallow copies of the collections: records are never changed in place, so this is a consistent view. */
function capture(state: StoreState): (readonly [string, readonly unknown[]])[] {
  return collectionNames.map((name) => [name, state[name].slice()] as const);
}

export class WriteAheadLog {
  readonly #path: string;
  readonly #compactAfter: number | undefined;
  #segment: number;
  #fd: number;
  #segmentBytes = 0;
  #snapshotBytes = 0;
  /** Bumped by `reset`: a compaction that started before must not replace the newer snapshot. */
  #generation = 0;
  #compacting: Promise<void> | undefined;
  #failure: Error | undefined;

  /** Writes `state` as the snapshot and starts an empty log (the previous segments are deleted). */
  constructor(path: string, state: StoreState, tuning: WalTuning = {}) {
    this.#path = path;
    this.#compactAfter = tuning.compactAfterBytes;
    this.#segment = (segments(path).at(-1) ?? 0) + 1;
    this.#fd = -1;
    this.reset(state);
  }

  /** Bytes in the current segment (what the next compaction weighs). */
  get segmentBytes(): number {
    return this.#segmentBytes;
  }

  /** The last background compaction's error, if it failed (the log is then kept whole). */
  get failure(): Error | undefined {
    return this.#failure;
  }

  /** Append one request's redo records and fsync them; compact in the background when due. */
  append(records: readonly Redo[], state: StoreState): void {
    if (records.length === 0) return;
    const line = Buffer.from(`${JSON.stringify(records)}\n`, "utf8");
    let written = 0;
    try {
      while (written < line.length) written += writeSync(this.#fd, line, written);
      fdatasyncSync(this.#fd);
    } catch (error) {
      // No half line may stay in front of the next append (recovery would refuse the log).
      if (written > 0) ftruncateSync(this.#fd, this.#segmentBytes);
      throw error;
    }
    this.#segmentBytes += line.length;
    const threshold = this.#compactAfter ?? Math.max(MIN_COMPACT_AFTER_BYTES, this.#snapshotBytes);
    if (!this.#compacting && this.#segmentBytes >= threshold) this.#compact(state);
  }

  /** Start over from `state` (a reset, or the start): a snapshot written now, no log. */
  reset(state: StoreState): void {
    this.#generation += 1;
    const covered = this.#rotate();
    const temp = this.#tempName();
    const fd = openSync(temp, "w");
    try {
      let bytes = 0;
      for (const piece of snapshotPieces(capture(state))) bytes += writeSync(fd, piece);
      fsyncSync(fd);
      this.#snapshotBytes = bytes;
    } finally {
      closeSync(fd);
    }
    renameSync(temp, this.#path);
    this.#dropSegments(covered);
  }

  /** Waits for a running compaction, then closes the log. */
  async close(): Promise<void> {
    await this.#compacting;
    if (this.#fd >= 0) closeSync(this.#fd);
    this.#fd = -1;
  }

  /** Waits for a running compaction (tests). */
  async settled(): Promise<void> {
    await this.#compacting;
  }

  /** New appends go to a fresh segment; returns the number of the last segment before it. */
  #rotate(): number {
    let covered = this.#segment - 1;
    if (this.#fd >= 0) {
      closeSync(this.#fd);
      covered = this.#segment;
      this.#segment += 1;
    }
    this.#fd = openSync(segmentName(this.#path, this.#segment), "a");
    this.#segmentBytes = 0;
    syncDirectory(this.#path);
    return covered;
  }

  #compact(state: StoreState): void {
    const generation = this.#generation;
    const covered = this.#rotate();
    const rows = capture(state);
    this.#compacting = this.#writeSnapshot(rows, generation, covered)
      .then(
        () => {
          this.#failure = undefined;
        },
        (error: unknown) => {
          // The segments stay: the next compaction covers them too.
          this.#failure = error as Error;
        },
      )
      .finally(() => {
        this.#compacting = undefined;
      });
  }

  async #writeSnapshot(rows: (readonly [string, readonly unknown[]])[], generation: number, covered: number): Promise<void> {
    const temp = this.#tempName();
    const handle = await open(temp, "w");
    let bytes = 0;
    try {
      for (const piece of snapshotPieces(rows)) {
        const buffer = Buffer.from(piece, "utf8");
        await handle.write(buffer);
        bytes += buffer.length;
      }
      await handle.sync();
    } finally {
      await handle.close();
    }
    // Checked and renamed in one turn of the event loop: a reset cannot slip in between.
    if (generation !== this.#generation) {
      rmSync(temp, { force: true });
      return;
    }
    renameSync(temp, this.#path);
    this.#snapshotBytes = bytes;
    this.#dropSegments(covered);
  }

  #dropSegments(upTo: number): void {
    for (const n of segments(this.#path)) if (n <= upTo) rmSync(segmentName(this.#path, n), { force: true });
  }

  #tempName(): string {
    return `${this.#path}.${process.pid}.${randomBytes(4).toString("hex")}.tmp`;
  }
}

/** Makes a created or renamed file's directory entry durable. */
function syncDirectory(path: string): void {
  let fd: number | undefined;
  try {
    fd = openSync(dirname(path), "r");
    fsyncSync(fd);
  } catch {
    // Some platforms cannot fsync a directory; the data itself is synced.
  } finally {
    if (fd !== undefined) closeSync(fd);
  }
}

/** The log segments next to a persist file, oldest first. */
export const walFiles = (path: string): string[] => segments(path).map((n) => segmentName(path, n));
