/**
 * The converter's output directory: the directories and files it created (names relative to it),
 * each file's text. What the export then sends is decided from this listing, as the server decides
 * from its temporary directory.
 */
export class OutDir {
  readonly #dirs = new Set<string>();
  readonly #files = new Map<string, string>();

  /** `os.makedirs(path, exist_ok=True)` (and every parent). */
  mkdir(path: string): void {
    const parts = path.split("/");
    for (let i = 1; i <= parts.length; i++) this.#dirs.add(parts.slice(0, i).join("/"));
  }

  /** `open(path, "w")` and a write: replaces a file that is there. */
  write(path: string, text: string): void {
    this.#files.set(path, text);
  }

  exists(path: string): boolean {
    return this.#files.has(path) || this.#dirs.has(path);
  }

  /** The files directly in the top directory (`get_all_files_from_dir`). */
  topFiles(): string[] {
    return [...this.#files.keys()].filter((p) => !p.includes("/"));
  }

  /** The directories directly in the top directory (`get_all_dirs_from_dir`). */
  topDirs(): string[] {
    return [...this.#dirs].filter((p) => !p.includes("/"));
  }

  text(path: string): string | undefined {
    return this.#files.get(path);
  }

  /**
   * Archive members as `shutil.make_archive` walks the tree: each directory's subdirectories (sorted)
   * as entries, then its files, then the subdirectories' contents. Files are sorted here; the
   * server lists them in its file system's order.
   */
  entries(): { readonly name: string; readonly text?: string }[] {
    const out: { name: string; text?: string }[] = [];
    const walk = (dir: string) => {
      const prefix = dir === "" ? "" : `${dir}/`;
      const children = (set: Iterable<string>) =>
        [...set].filter((p) => p.startsWith(prefix) && !p.slice(prefix.length).includes("/") && p !== dir).sort();
      const subdirs = children(this.#dirs);
      for (const sub of subdirs) out.push({ name: `${sub}/` });
      for (const file of children(this.#files.keys())) out.push({ name: file, text: this.#files.get(file) as string });
      for (const sub of subdirs) walk(sub);
    };
    walk("");
    return out;
  }
}
