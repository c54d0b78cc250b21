/** A spec id: any string or number, unique within its kind (tasks, annotations, predictions, views). */
export type SpecId = string | number;

/**
 * Spec ids to the ids one server assigned, both ways. A lookup of an id the seed did not create
 * throws, naming the id and the kind, instead of sending `undefined` in a request.
 */
export interface IdMap {
  /** The server id of a spec id. */
  get(specId: SpecId): number;
  /** Whether the seed created a record with this spec id. */
  has(specId: SpecId): boolean;
  /** The spec id of a server id (undefined for a record the seed did not create). */
  specOf(serverId: number): SpecId | undefined;
  /** Server ids of spec ids, in the same order. */
  toServer(specIds: readonly SpecId[]): number[];
  /** Spec ids of server ids, in the same order; a server id the seed did not create throws. */
  toSpec(serverIds: readonly number[]): SpecId[];
  /** Every server id, in creation order. */
  serverIds(): number[];
  /** `[spec id, server id]` pairs in creation order. */
  entries(): [SpecId, number][];
  readonly size: number;
}

/** The id maps of one seeded project. */
export interface SeedIds {
  readonly project: number;
  readonly tasks: IdMap;
  readonly annotations: IdMap;
  readonly predictions: IdMap;
  readonly views: IdMap;
}

/** An unknown id: names the kind and the id, and what the map holds. */
export class UnknownIdError extends RangeError {
  override readonly name: string = "UnknownIdError";
  constructor(kind: string, id: SpecId | number, side: "spec" | "server", known: readonly (SpecId | number)[]) {
    const shown = known.slice(0, 8).map((k) => JSON.stringify(k));
    super(
      `${kind}: no ${side} id ${JSON.stringify(id)} among the seeded ones (${known.length ? `${shown.join(", ")}${known.length > 8 ? ", …" : ""}` : "none"})`,
    );
  }
}

/** A growing id map (the seeder adds pairs as the server answers). */
export class IdMapBuilder implements IdMap {
  private readonly forward = new Map<SpecId, number>();
  private readonly backward = new Map<number, SpecId>();
  constructor(private readonly kind: string) {}

  add(specId: SpecId, serverId: number): void {
    this.forward.set(specId, serverId);
    this.backward.set(serverId, specId);
  }
  get(specId: SpecId): number {
    const id = this.forward.get(specId);
    if (id === undefined) throw new UnknownIdError(this.kind, specId, "spec", [...this.forward.keys()]);
    return id;
  }
  has(specId: SpecId): boolean {
    return this.forward.has(specId);
  }
  specOf(serverId: number): SpecId | undefined {
    return this.backward.get(serverId);
  }
  toServer(specIds: readonly SpecId[]): number[] {
    return specIds.map((id) => this.get(id));
  }
  toSpec(serverIds: readonly number[]): SpecId[] {
    return serverIds.map((id) => {
      const spec = this.backward.get(id);
      if (spec === undefined) throw new UnknownIdError(this.kind, id, "server", [...this.backward.keys()]);
      return spec;
    });
  }
  serverIds(): number[] {
    return [...this.forward.values()];
  }
  entries(): [SpecId, number][] {
    return [...this.forward.entries()];
  }
  get size(): number {
    return this.forward.size;
  }
}
